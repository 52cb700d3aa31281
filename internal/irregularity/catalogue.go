package irregularity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Catalogue returns the irregularity catalogue of a standard ruleset
// (ruleset.Standard). Each call builds it afresh from the data, so callers
// may keep or change it.
func Catalogue(id string) (*Ruleset, bool) { return For(ruleset.Standard(), ruleset.ID(id)) }

// For returns the irregularity catalogue of the ruleset id of cat, built
// from its description (ruleset.Irregularities: which section 5 the
// document has, who decides what it does not cover) and its wagers.
// ReferredKinds are the kinds the other rulesets of cat cover.
func For(cat ruleset.Catalogue, id ruleset.ID) (*Ruleset, bool) {
	d, ok := cat.Lookup(id)
	if !ok {
		return nil, false
	}
	rs, ok := build(d)
	if !ok {
		return nil, false
	}
	// Lists print as [] rather than null.
	for i := range rs.Kinds {
		k := &rs.Kinds[i]
		if k.Facts == nil {
			k.Facts = []Fact{}
		}
		for j := range k.Cases {
			if k.Cases[j].When == nil {
				k.Cases[j].When = []Cond{}
			}
			if k.Cases[j].Clauses == nil {
				k.Cases[j].Clauses = []string{}
			}
		}
	}
	rs.Index = rs.Clauses()
	if rs.InapplicableKinds == nil {
		rs.InapplicableKinds = []Inapplicable{}
	}
	rs.ReferredKinds = []string{}
	rs.known = map[string][]Fact{}
	for _, other := range cat.IDs() {
		od, _ := cat.Lookup(other)
		o, ok := build(od)
		if !ok {
			continue
		}
		for _, k := range o.Kinds {
			rs.known[k.Name] = append(rs.known[k.Name], k.Facts...)
			inapplicable := slices.ContainsFunc(rs.InapplicableKinds, func(in Inapplicable) bool { return in.Kind == k.Name })
			if _, ok := rs.Kind(k.Name); !ok && !inapplicable && !slices.Contains(rs.ReferredKinds, k.Name) {
				rs.ReferredKinds = append(rs.ReferredKinds, k.Name)
			}
		}
	}
	slices.Sort(rs.ReferredKinds)
	return rs, true
}

// build returns the catalogue data of a ruleset as written: the section 5
// its description names, for its game.
func build(d *ruleset.Ruleset) (*Ruleset, bool) {
	switch d.Irregularities.Section5 {
	case ruleset.Section5Megalink:
		switch d.Game {
		case ruleset.GameStud:
			return megalink(d, gameSSP), true
		case ruleset.GameThreeCard:
			return megalink(d, gameTCP), true
		case ruleset.GameHoldem:
			return megalink(d, gameTHB), true
		}
	case ruleset.Section5SSPv4:
		return sspV4(d), true
	case ruleset.Section5RWS:
		return rws(d), true
	}
	return nil, false
}

// newCatalogue starts the catalogue of d: its id, its referral and the
// wagers a player places (TCP's Ante Bonus is a payment, not a wager).
func newCatalogue(d *ruleset.Ruleset) *Ruleset {
	rs := &Ruleset{ID: string(d.ID), Description: d, ReferTo: d.Irregularities.ReferTo, ReferClause: d.Irregularities.ReferClause}
	for _, w := range d.Wagers {
		if w.PaidOn == "" {
			rs.Wagers = append(rs.Wagers, string(w.Name))
		}
	}
	return rs
}

// refer is the case of an event rs's rules do not cover: referred to
// ReferTo, citing the clause that refers it (MBS 6.1, RWS 5.24) or, where
// the document has none, the ruling (SSP v4: ruling R25).
func (r *Ruleset) refer(text string) Case {
	c := Case{Action: Referred, ReferTo: r.ReferTo}
	switch {
	case r.ReferClause != "":
		c.Clauses = []string{r.ReferClause}
		c.Text = text + " Referred for the decision of the " + r.ReferTo + "."
	default:
		c.Rulings = r.referRulings()
		by := ""
		if len(c.Rulings) > 0 {
			by = " (ruling " + c.Rulings[0] + ")"
		}
		c.Text = text + " The document has no general provision for what it does not cover: referred for the decision of the " + r.ReferTo + by + "; the service does not guess."
	}
	return c
}

func (r *Ruleset) referRulings() []string {
	if r.Description == nil || r.Description.Irregularities.ReferRuling == "" {
		return nil
	}
	return []string{r.Description.Irregularities.ReferRuling}
}

func kindNames(rs *Ruleset) string {
	n := make([]string, len(rs.Kinds))
	for i, k := range rs.Kinds {
		n[i] = k.Name
	}
	slices.Sort(n)
	return strings.Join(n, ", ")
}

// Clauses returns every clause the catalogue accounts for (cited by a case
// or a seat rule, listed by a kind, or a General entry), each with where it
// is accounted for.
func (r *Ruleset) Clauses() map[string][]string {
	out := map[string][]string{}
	add := func(c, where string) {
		if !slices.Contains(out[c], where) {
			out[c] = append(out[c], where)
		}
	}
	for _, k := range r.Kinds {
		for _, c := range k.Clauses {
			add(c, k.Name)
		}
		for _, cs := range k.Cases {
			for _, c := range cs.Clauses {
				add(c, k.Name)
			}
			for _, sr := range cs.Seats {
				for _, c := range sr.Clauses {
					add(c, k.Name)
				}
			}
		}
	}
	for _, g := range r.General {
		add(g.Clause, "general")
	}
	return out
}

// The facts several kinds share.
func factSeat(doc string) Fact {
	return Fact{Name: "seat", Type: Int, Required: true, Min: 1, Max: 7, Doc: doc}
}

func factNoticed() Fact {
	return Fact{Name: "noticedBeforeNextRound", Type: Bool, Required: true,
		Doc: "the error was noticed before the commencement of play of the next round"}
}

func factReconstructable(doc string) Fact {
	return Fact{Name: "reconstructable", Type: Bool, Required: true, Doc: doc}
}

func factWithdrawn() Fact {
	return Fact{Name: "withdrawnSeats", Type: Seats,
		Doc: "the seats whose players took the option to withdraw (optional: without it the outcome lists the options and leaves their wagers pending)"}
}

// progressiveFixed adds to the named kinds (each names a wager and a
// table limit on it: a maximum or a minimum) the contradiction of ruling
// R22: a progressive wager is the pool's unit (THB: 1 to 5 units, ruling
// R17; SSP v4: credits), fixed by the pool and not by the table's limits,
// so it is never over the maximum or under the minimum; a report that
// names it is refused naming facts.wager.
func (r *Ruleset) progressiveFixed(kinds ...string) {
	d := r.Description
	if d == nil {
		return
	}
	rules, what := []string{"ruling R22"}, "the pool's unit"
	switch {
	case d.Clauses.ProgressiveCredits != "":
		rules, what = []string{r.Cite(d.Clauses.ProgressiveCredits), "ruling R22"}, "a whole number of credits of the pool's unit"
	case d.MaxProgressiveMultiplier > 1:
		rules, what = []string{r.Cite(d.MultiplierRule), "ruling R17", "ruling R22"}, fmt.Sprintf("1 to %d times the pool's unit", d.MaxProgressiveMultiplier)
	case d.Clauses.ProgressiveUnit != "":
		rules = []string{r.Cite(d.Clauses.ProgressiveUnit), "ruling R22"}
	}
	for i := range r.Kinds {
		k := &r.Kinds[i]
		if !slices.Contains(kinds, k.Name) || !slices.ContainsFunc(k.Facts, func(f Fact) bool { return f.Name == "wager" }) {
			continue
		}
		limit := "under the table minimum"
		if slices.ContainsFunc(k.Facts, func(f Fact) bool { return f.Name == "maximum" }) {
			limit = "over the table maximum"
		}
		for _, w := range d.Wagers {
			if !w.Progressive || w.PaidOn != "" {
				continue
			}
			k.Contradictions = append(k.Contradictions, Contradiction{When: []Cond{Eq("wager", string(w.Name))}, Facts: []string{"wager"}, Rules: rules,
				Message: fmt.Sprintf("a %s wager is %s (%s): the pool fixes it, not the table's limits, so it is never %s", w.Name, what, strings.Join(rules, ", "), limit)})
		}
	}
}

func factWager(wagers []string) Fact {
	return Fact{Name: "wager", Type: Enum, Required: true, Values: wagers, Doc: "the wager concerned"}
}

// withdrawnReturned is the seat rule of an option to withdraw: the seats
// that took it have every wager returned.
func withdrawnReturned(text string, clauses ...string) SeatRule {
	return SeatRule{Scope: ScopeWithdrawn, Action: Withdrawn, Line: LineReturned, Clauses: clauses, Text: text}
}

func contradictsWithdrawn(when Cond, why string) Contradiction {
	return Contradiction{When: []Cond{when, NonEmpty("withdrawnSeats")}, Facts: []string{"withdrawnSeats"}, Message: why}
}

// when returns c with the conditions cs.
func when(c Case, cs ...Cond) Case {
	c.When = cs
	return c
}
