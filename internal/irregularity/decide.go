package irregularity

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// maxAmount is the largest wager a round may carry, in minor units: the
// bound settlement applies (settle.MaxAmount, checked by a test).
const maxAmount money.Amount = 1_000_000_000_000

// KindOther is the kind every ruleset has for an event its rules do not
// name: it is referred to the shift manager.
const KindOther = "other"

// Decide answers the outcome rs prescribes for an event of the named kind
// with the given facts (as decoded from JSON: bool, number, string, list of
// numbers). With a round attached it also returns the wagers the outcome
// settles. A kind another ruleset covers but rs does not is referred (MBS
// 6.1, RWS 5.24); a kind no ruleset knows, and missing, mistyped or
// contradicting facts, are an *Error.
func Decide(rs *Ruleset, kind string, raw map[string]any, round *Round) (Outcome, error) {
	for _, in := range rs.InapplicableKinds {
		if in.Kind == kind {
			msg := in.Reason
			if len(in.Rules) > 0 {
				msg += " (" + strings.Join(in.Rules, ", ") + ")"
			}
			return Outcome{}, refused("kind does not apply to this ruleset", Problem{Field: "kind", Message: msg, Value: kind}).Cite(in.Rules...)
		}
	}
	k, ok := rs.Kind(kind)
	if !ok {
		if _, known := rs.known[kind]; !known {
			return Outcome{}, refused("unknown irregularity kind", Problem{
				Field: "kind", Message: fmt.Sprintf("%q is not an irregularity kind; %s has: %s", kind, rs.ID, kindNames(rs)), Value: kind})
		}
		// A referred event's facts are still read: a fact no ruleset's
		// kind of that name has, or one of the wrong type, is refused.
		if probs := referredFacts(rs, kind, raw); len(probs) > 0 {
			return Outcome{}, refused("the facts of the irregularity are unknown or mistyped", probs...)
		}
		out := referral(rs, kind, fmt.Sprintf("%s has no rule for %s", rs.ID, kind))
		if round != nil {
			if probs, rules := checkRound(rs, round, Facts{}, nil); len(probs) > 0 {
				return Outcome{}, refused("the round cannot be read", probs...).Cite(rules...)
			}
			out.Settlement = settlement(rs, &Case{Action: Referred}, Facts{}, round)
		}
		return out, nil
	}
	facts, probs := parseFacts(k, raw)
	if len(probs) > 0 {
		var rules []string
		for _, c := range k.Contradictions {
			if all(c.When, facts) {
				rules = append(rules, c.Rules...)
			}
		}
		return Outcome{}, refused("the facts of the irregularity are missing, mistyped or contradict each other", probs...).Cite(slices.Compact(rules)...)
	}
	if round != nil {
		probs, rules := checkRound(rs, round, facts, raw)
		if len(probs) == 0 {
			probs = checkRoundFacts(k, round, facts)
		}
		if len(probs) > 0 {
			return Outcome{}, refused("the round does not fit the reported irregularity", probs...).Cite(rules...)
		}
	}
	for i := range k.Cases {
		c := &k.Cases[i]
		if !all(c.When, facts) {
			continue
		}
		out := outcomeOf(rs, k, c, facts, round)
		if round != nil {
			out.Settlement = settlement(rs, c, facts, round)
		}
		return out, nil
	}
	// The decision tables are exhaustive (a test enumerates every
	// combination of facts), so this is reached only by a catalogue defect.
	return Outcome{}, fmt.Errorf("irregularity: %s %s: no case matches facts %v", rs.ID, kind, facts)
}

// referredFacts checks the facts of a kind rs refers against the kind as
// the rulesets that cover it define it: every name must be a fact of it,
// of its type. Nothing is required: the shift manager decides.
func referredFacts(rs *Ruleset, kind string, raw map[string]any) []Problem {
	defs := map[string]Fact{}
	var names []string
	for _, f := range rs.known[kind] {
		if _, seen := defs[f.Name]; !seen {
			defs[f.Name] = f
			names = append(names, f.Name)
		}
	}
	given := make([]string, 0, len(raw))
	for n := range raw {
		given = append(given, n)
	}
	sort.Strings(given)
	var probs []Problem
	for _, n := range given {
		f, ok := defs[n]
		if !ok {
			known := "none"
			if len(names) > 0 {
				known = strings.Join(names, ", ")
			}
			probs = append(probs, Problem{Field: "facts." + n, Message: fmt.Sprintf("%s is not a fact of kind %s (its facts: %s)", n, kind, known), Value: raw[n]})
			continue
		}
		if raw[n] == nil {
			continue
		}
		if _, at, msg := f.parse(raw[n]); msg != "" {
			probs = append(probs, atElement(Problem{Field: "facts." + n, Message: msg, Value: raw[n]}, raw[n], at))
		}
	}
	return probs
}

func referral(rs *Ruleset, kind, why string) Outcome {
	o := Outcome{Ruleset: rs.ID, Kind: kind, Covered: false, Action: Referred, ReferTo: rs.ReferTo, Rules: []string{}}
	if rs.ReferClause != "" {
		o.Rules = []string{rs.Cite(rs.ReferClause)}
		o.Text = fmt.Sprintf("%s; referred for the decision of the %s (%s).", why, rs.ReferTo, rs.Cite(rs.ReferClause))
	} else {
		o.Rules = cite(rs, nil, rs.referRulings())
		o.Text = fmt.Sprintf("%s, and the document has no general provision for what it does not cover: referred for the decision of the %s; the service does not guess.", why, rs.ReferTo)
		if len(o.Rules) > 0 {
			o.Text = fmt.Sprintf("%s, and the document has no general provision for what it does not cover: referred for the decision of the %s (%s); the service does not guess.", why, rs.ReferTo, strings.Join(o.Rules, ", "))
		}
	}
	return o
}

func outcomeOf(rs *Ruleset, k *Kind, c *Case, f Facts, r *Round) Outcome {
	o := Outcome{
		Ruleset: rs.ID, Kind: k.Name, Covered: c.Action != Referred, Action: c.Action, Text: c.Text,
		Rules: cite(rs, c.Clauses, c.Rulings), Options: c.Options, OptionsTo: c.OptionsTo,
		ReferTo: c.ReferTo, DecidedBy: c.DecidedBy,
		// Voiding the current round never reopens an earlier one (MBS
		// 5.1.2, SSP v4 5.1.2, RWS 5.8, 5.9).
		PreviousRoundsStand:  c.PreviousRoundsStand || c.Action == RoundVoid,
		DetectedBySettlement: k.DetectedBySettlement,
	}
	for _, sr := range c.Seats {
		seats, ok := resolve(sr.Scope, f, r)
		if !ok {
			continue
		}
		for _, s := range seats {
			o.Seats = append(o.Seats, SeatOutcome{Seat: s, Action: sr.Action, Wagers: wagerNames(sr.Wagers, f), Options: sr.Options,
				Rules: cite(rs, sr.Clauses, sr.Rulings), Text: sr.Text})
		}
	}
	// With the round attached, every player the options go to and who has
	// not yet chosen is listed with them.
	if c.OptionsTo != "" {
		seats, _ := resolve(c.OptionsTo, f, r)
		for _, s := range seats {
			if slices.ContainsFunc(o.Seats, func(so SeatOutcome) bool { return so.Seat == s }) {
				continue
			}
			o.Seats = append(o.Seats, SeatOutcome{Seat: s, Action: OfferOptions, Options: c.Options, Rules: o.Rules, Text: "to be offered the options"})
		}
	}
	sort.SliceStable(o.Seats, func(i, j int) bool { return o.Seats[i].Seat < o.Seats[j].Seat })
	return o
}

func cite(rs *Ruleset, clauses, rulings []string) []string {
	out := make([]string, 0, len(clauses)+len(rulings))
	for _, c := range clauses {
		out = append(out, rs.Cite(c))
	}
	for _, r := range rulings {
		out = append(out, "ruling "+r)
	}
	return out
}

func wagerNames(ws []string, f Facts) []string {
	if len(ws) == 0 {
		return nil
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		if w == "$wager" {
			w, _ = f["wager"].(string)
		}
		out[i] = w
	}
	return out
}

// resolve returns the seats a scope names. "all" and "others" need the
// round; without one they do not resolve.
func resolve(s Scope, f Facts, r *Round) ([]int, bool) {
	seatsOf := func(n string) []int { v, _ := f[n].([]int); return v }
	seat, hasSeat := f["seat"].(int)
	switch s {
	case ScopeSeat:
		return []int{seat}, hasSeat
	case ScopeAll, ScopeOthers:
		if r == nil {
			return nil, false
		}
		var out []int
		for _, p := range r.Positions {
			if s == ScopeOthers && p.Seat == seat {
				continue
			}
			out = append(out, p.Seat)
		}
		sort.Ints(out)
		return out, true
	case ScopeWithdrawn, ScopeViewed, ScopeAdditional:
		return seatsOf(string(s)), true
	case ScopeUnviewed:
		var out []int
		for _, x := range seatsOf("seats") {
			if !slices.Contains(seatsOf("viewedSeats"), x) {
				out = append(out, x)
			}
		}
		return out, true
	case ScopeFirstDealt:
		all := seatsOf("seats")
		if len(all) == 0 {
			return nil, false
		}
		return all[:1], true
	case ScopeLaterDealt:
		all := seatsOf("seats")
		if len(all) == 0 {
			return nil, false
		}
		return all[1:], true
	case ScopeFirstSeen:
		v, ok := f["firstViewedSeat"].(int)
		return []int{v}, ok
	case ScopeAffected:
		v, ok := f["affectedSeats"].([]int)
		return v, ok
	case ScopeAffectedOthers:
		v, ok := f["affectedSeats"].([]int)
		var out []int
		for _, x := range v {
			if !hasSeat || x != seat {
				out = append(out, x)
			}
		}
		return out, ok
	}
	return nil, false
}

// seatFacts are the facts that name seats of the round.
var seatFacts = []string{"seat", "seats", "viewedSeats", "withdrawnSeats", "firstViewedSeat", "additionalSeats", "affectedSeats"}

// inMoney writes a in the round's currency, as every message states an
// amount (money.Currency.Format: "SGD 1,500.00"); for a round whose
// currency the service does not know (refused for that too), as grouped
// minor units.
func inMoney(c money.Currency, a money.Amount) string {
	if !c.Valid() {
		return money.Grouped(a) + " minor units"
	}
	return c.Format(a)
}

// checkRound checks the round itself and that every seat the facts f name
// is a position of it (raw, the facts as sent, locates a seat in its list).
func checkRound(rs *Ruleset, r *Round, f Facts, raw map[string]any) ([]Problem, []string) {
	var probs []Problem
	var rules []string
	if !r.Currency.Valid() {
		probs = append(probs, Problem{Field: "round.currency", Message: "not an ISO 4217 currency the service knows", Value: string(r.Currency)})
	}
	if len(r.Positions) == 0 {
		probs = append(probs, Problem{Field: "round.positions", Message: "the round has no positions"})
	}
	seen := map[int]bool{}
	for i, p := range r.Positions {
		at := fmt.Sprintf("round.positions[%d]", i)
		if p.Seat < 1 || p.Seat > 7 {
			probs = append(probs, Problem{Field: at + ".seat", Message: "seat must be 1 to 7", Value: p.Seat})
		} else if seen[p.Seat] {
			probs = append(probs, Problem{Field: at + ".seat", Message: fmt.Sprintf("seat %d has two positions", p.Seat), Value: p.Seat})
		}
		seen[p.Seat] = true
		names := make([]string, 0, len(p.Wagers))
		for w := range p.Wagers {
			names = append(names, w)
		}
		sort.Strings(names)
		for _, w := range names {
			if !slices.Contains(rs.Wagers, w) {
				probs = append(probs, Problem{Field: at + ".wagers." + w, Message: fmt.Sprintf("%s has no %s wager (its wagers: %s)", rs.ID, w, strings.Join(rs.Wagers, ", ")), Value: p.Wagers[w]})
			} else if p.Wagers[w] < 0 || p.Wagers[w] > maxAmount {
				probs = append(probs, Problem{Field: at + ".wagers." + w, Message: fmt.Sprintf("a wager is %s to %s (0-%s minor units)", inMoney(r.Currency, 0), inMoney(r.Currency, maxAmount), money.Grouped(maxAmount)), Value: p.Wagers[w]})
			}
		}
	}
	if len(probs) == 0 {
		if m := checkMultiples(rs, r); len(m) > 0 {
			probs, rules = append(probs, m...), append(rules, "ruling R20")
		}
	}
	if len(probs) == 0 {
		if u := checkProgressive(rs, r); len(u) > 0 {
			probs, rules = append(probs, u...), append(rules, "ruling R22")
		}
	}
	for _, n := range seatFacts {
		var named []int
		switch v := f[n].(type) {
		case int:
			named = []int{v}
		case []int:
			named = v
		}
		for _, s := range named {
			if !seen[s] {
				p := Problem{Field: "facts." + n, Message: fmt.Sprintf("the round has no position at seat %d", s), Value: f[n]}
				probs = append(probs, atElement(p, raw[n], seatIndex(raw[n], s)))
			}
		}
	}
	if w, ok := f["wager"].(string); ok && len(probs) == 0 {
		seat := f["seat"].(int)
		p := position(r, seat)
		stake, has := p.Wagers[w]
		box, isBox := f["boxTotal"].(money.Amount)
		var total money.Amount
		for _, a := range p.Wagers {
			total += a
		}
		if !has || stake == 0 {
			probs = append(probs, Problem{Field: "facts.wager", Message: fmt.Sprintf("seat %d has no %s wager in the round", seat, w), Value: w})
		} else if max, ok := f["maximum"].(money.Amount); isBox && ok {
			// The box total is what the round shows on the box (RWS 5.1:
			// the total Bets placed on it): a report whose total the
			// round does not show contradicts the round.
			if box != total {
				probs = append(probs, Problem{Field: "facts.boxTotal", Message: fmt.Sprintf("the box total %s is not the %s the round has on seat %d", inMoney(r.Currency, box), inMoney(r.Currency, total), seat), Value: box})
			} else if box-max > stake {
				probs = append(probs, Problem{Field: "facts.boxTotal", Message: fmt.Sprintf("the excess %s (box total %s less maximum %s) is more than the %s wager of seat %d, %s", inMoney(r.Currency, box-max), inMoney(r.Currency, box), inMoney(r.Currency, max), w, seat, inMoney(r.Currency, stake)), Value: box})
			}
		} else if max, ok := f["maximum"].(money.Amount); ok && stake <= max {
			probs = append(probs, Problem{Field: "facts.maximum", Message: fmt.Sprintf("the %s wager of seat %d is %s, not over the maximum %s", w, seat, inMoney(r.Currency, stake), inMoney(r.Currency, max)), Value: max})
		} else if min, ok := f["minimum"].(money.Amount); ok && stake >= min {
			probs = append(probs, Problem{Field: "facts.minimum", Message: fmt.Sprintf("the %s wager of seat %d is %s, not under the minimum %s", w, seat, inMoney(r.Currency, stake), inMoney(r.Currency, min)), Value: min})
		}
	}
	if dir, ok := f["betComparedToTwiceAnte"].(string); ok && len(probs) == 0 {
		seat := f["seat"].(int)
		p := position(r, seat)
		bet, twice := p.Wagers["bet"], 2*p.Wagers["ante"]
		if (dir == "above" && bet <= twice) || (dir == "below" && bet >= twice) {
			probs = append(probs, Problem{Field: "facts.betComparedToTwiceAnte", Message: fmt.Sprintf("seat %d bets %s against an ante of %s: not %s twice the ante", seat, inMoney(r.Currency, bet), inMoney(r.Currency, p.Wagers["ante"]), dir), Value: dir})
		}
	}
	return probs, rules
}

// checkMultiples refuses continuation wagers that are not the fixed
// multiple of the Ante their ruleset sets (ruling R20: at MBS any other
// amount is a malformed request, as settlement refuses it; RWS 5.3 settles
// another BET, Multiple.Fixed false).
func checkMultiples(rs *Ruleset, r *Round) []Problem {
	d := rs.Description
	if d == nil {
		return nil
	}
	var probs []Problem
	for i, p := range r.Positions {
		for _, w := range d.Wagers {
			m := w.Multiple
			s, base := p.Wagers[string(w.Name)], p.Wagers[string(m.Of)]
			if m.Of == "" || !m.Fixed || s == 0 || base == 0 || s == base*money.Amount(m.Times) {
				continue
			}
			probs = append(probs, Problem{Field: fmt.Sprintf("round.positions[%d].wagers.%s", i, w.Name),
				Message: fmt.Sprintf("%s must be %d times the %s (%s), not %s (%s, ruling R20)", w.Name, m.Times, m.Of, inMoney(r.Currency, base*money.Amount(m.Times)), inMoney(r.Currency, s), d.Cite(m.Rule)),
				Value:   s})
		}
	}
	return probs
}

// checkProgressive refuses progressive stakes that break ruling R22: a
// progressive wager is the pool's unit (THB: 1 to 5 times it, 3.5.3,
// ruling R17). With r.ProgressiveUnit the unit is known; without it the
// wagers of one round must at least agree with each other outside THB (one
// pool, one unit). SSP v4's jackpot wagers are credits (3.5), not a unit.
func checkProgressive(rs *Ruleset, r *Round) []Problem {
	d := rs.Description
	if d == nil || !d.Placeable(ruleset.Progressive) {
		if r.ProgressiveUnit != 0 {
			return []Problem{{Field: "round.progressiveUnit", Message: fmt.Sprintf("%s has no progressive pool unit: its jackpot wagers are credits paid at odds (ruling R22)", rs.ID), Value: r.ProgressiveUnit}}
		}
		return nil
	}
	const prog = string(ruleset.Progressive)
	u, maxM := r.ProgressiveUnit, money.Amount(max(1, d.MaxProgressiveMultiplier))
	if u < 0 || u > maxAmount {
		return []Problem{{Field: "round.progressiveUnit", Message: fmt.Sprintf("the progressive pool's unit (ruling R22) must be %s to %s (1-%s minor units)", inMoney(r.Currency, 1), inMoney(r.Currency, maxAmount), money.Grouped(maxAmount)), Value: u}}
	}
	rule := "ruling R22"
	if d.Clauses.ProgressiveUnit != "" {
		rule = d.Cite(d.Clauses.ProgressiveUnit) + ", " + rule
	}
	if maxM > 1 {
		rule = d.Cite(d.MultiplierRule) + ", ruling R17, ruling R22"
	}
	var probs []Problem
	first, firstAt := money.Amount(0), ""
	for i, p := range r.Positions {
		s := p.Wagers[prog]
		if s == 0 {
			continue
		}
		at := fmt.Sprintf("round.positions[%d].wagers.%s", i, prog)
		switch {
		case u > 0 && (s%u != 0 || s/u < 1 || s/u > maxM):
			if maxM > 1 {
				probs = append(probs, Problem{Field: at, Message: fmt.Sprintf("a progressive wager of %s is not 1 to %d times the unit %s (%s)", inMoney(r.Currency, s), maxM, inMoney(r.Currency, u), rule), Value: s})
			} else {
				probs = append(probs, Problem{Field: at, Message: fmt.Sprintf("a progressive wager must be the pool's unit %s, not %s (%s)", inMoney(r.Currency, u), inMoney(r.Currency, s), rule), Value: s})
			}
		case u == 0 && maxM == 1 && first != 0 && s != first:
			probs = append(probs, Problem{Field: at, Message: fmt.Sprintf("a progressive wager is the pool's one unit (%s): %s here, %s at %s", rule, inMoney(r.Currency, s), inMoney(r.Currency, first), firstAt), Value: s})
		}
		if first == 0 {
			first, firstAt = s, at
		}
	}
	return probs
}

// checkRoundFacts applies the kind's round checks.
func checkRoundFacts(k *Kind, r *Round, f Facts) []Problem {
	var probs []Problem
	seat, ok := f["seat"].(int)
	if !ok {
		return nil
	}
	p := position(r, seat)
	for _, rc := range k.RoundChecks {
		if !all(rc.When, f) {
			continue
		}
		if rc.Any {
			if !slices.ContainsFunc(rc.Wagers, func(w string) bool { return p.Wagers[w] > 0 }) {
				probs = append(probs, Problem{Field: "facts." + rc.Fact, Message: fmt.Sprintf("%s (seat %d: none of %s placed)", rc.Message, seat, strings.Join(rc.Wagers, ", ")), Value: f[rc.Fact]})
			}
			continue
		}
		for _, w := range rc.Wagers {
			if placed := p.Wagers[w] > 0; placed != rc.Placed {
				probs = append(probs, Problem{Field: "facts." + rc.Fact, Message: fmt.Sprintf("%s (seat %d: %s %s)", rc.Message, seat, w, map[bool]string{true: "placed", false: "not placed"}[placed]), Value: f[rc.Fact]})
				break
			}
		}
	}
	return probs
}

func position(r *Round, seat int) Position {
	for _, p := range r.Positions {
		if p.Seat == seat {
			return p
		}
	}
	return Position{}
}

// settlement writes the lines the case decides on the round.
func settlement(rs *Ruleset, c *Case, f Facts, r *Round) *Settlement {
	st := &Settlement{RoundID: r.RoundID, Currency: r.Currency, Lines: []Line{}, Pending: []Pending{}}
	decided := map[[2]string]bool{}
	key := func(seat int, w string) [2]string { return [2]string{fmt.Sprint(seat), w} }
	add := func(l Line) {
		st.Lines = append(st.Lines, l)
		st.TotalReturned += l.Returned
		decided[key(l.Seat, l.Wager)] = true
	}
	// how and rest say how an undecided wager settles, and how much of it.
	how := map[[2]string]string{}
	rest := map[[2]string]money.Amount{}
	if c.Action == RoundVoid {
		for _, p := range r.Positions {
			for _, w := range rs.Wagers {
				if a := p.Wagers[w]; a > 0 {
					add(Line{Seat: p.Seat, Wager: w, Stake: a, Result: "void", Returned: a, Rules: cite(rs, c.Clauses, c.Rulings)})
				}
			}
		}
	}
	for _, sr := range c.Seats {
		seats, _ := resolve(sr.Scope, f, r)
		for _, seat := range seats {
			p := position(r, seat)
			ws := wagerNames(sr.Wagers, f)
			if len(ws) == 0 {
				ws = rs.Wagers
			}
			rules := cite(rs, sr.Clauses, sr.Rulings)
			for _, w := range ws {
				a, k := p.Wagers[w], key(seat, w)
				if a <= 0 || decided[k] {
					continue
				}
				var excess money.Amount
				switch sr.Line {
				case LineReturned:
					add(Line{Seat: seat, Wager: w, Stake: a, Result: "returned", Returned: a, Rules: rules})
					continue
				case LineLose:
					add(Line{Seat: seat, Wager: w, Stake: a, Result: "lose", Returned: 0, Net: -a, Rules: rules})
					continue
				case LineExcessMaximum:
					excess = a - f["maximum"].(money.Amount)
					how[k] = "as usual, at the table maximum"
				case LineExcessBoxMaximum:
					excess = f["boxTotal"].(money.Amount) - f["maximum"].(money.Amount)
					how[k] = "as usual, the box at its maximum"
				case LineExcessTwiceAn:
					excess = a - 2*p.Wagers["ante"]
					how[k] = "as usual, at twice the Ante"
				default:
					if sr.Action == Referred {
						how[k] = "as the " + rs.ReferTo + " decides"
					} else {
						how[k] = settlesWith(sr.Action, sr.Options)
					}
				}
				if excess > 0 {
					st.Lines = append(st.Lines, Line{Seat: seat, Wager: w, Stake: excess, Result: "returned", Returned: excess, Rules: rules})
					st.TotalReturned += excess
					rest[k] = a - excess
				}
			}
		}
	}
	// Options go only to the seats their scope names (RWS 5.10: the
	// affected players): the other positions settle as usual. So do the
	// positions a seat-scoped outcome does not name (RWS 5.5 deems only
	// the absent player's hand folded).
	offered, scoped := resolve(c.OptionsTo, f, r)
	named := map[int]bool{}
	for _, sr := range c.Seats {
		seats, _ := resolve(sr.Scope, f, r)
		for _, s := range seats {
			named[s] = true
		}
	}
	seatScoped := len(c.Seats) > 0 && c.OptionsTo == "" && c.Action != RoundVoid && c.Action != Referred
	for _, p := range r.Positions {
		for _, w := range rs.Wagers {
			a, k := p.Wagers[w], key(p.Seat, w)
			if a <= 0 || decided[k] {
				continue
			}
			h, ok := how[k]
			if !ok {
				h = settlesWith(c.Action, c.Options)
				if c.Action == Referred {
					h = "as the " + rs.ReferTo + " decides"
				}
				if c.OptionsTo != "" && scoped {
					h = settlesText(PlayContinues)
					if slices.Contains(offered, p.Seat) {
						h = settlesWith(OfferOptions, c.Options)
					}
				}
				if seatScoped && !named[p.Seat] {
					h = settlesText(PlayContinues)
				}
			}
			if v, ok := rest[k]; ok {
				a = v
			}
			st.Pending = append(st.Pending, Pending{Seat: p.Seat, Wager: w, Stake: a, Settles: h})
		}
	}
	sort.SliceStable(st.Lines, func(i, j int) bool {
		if st.Lines[i].Seat != st.Lines[j].Seat {
			return st.Lines[i].Seat < st.Lines[j].Seat
		}
		return slices.Index(rs.Wagers, st.Lines[i].Wager) < slices.Index(rs.Wagers, st.Lines[j].Wager)
	})
	sort.SliceStable(st.Pending, func(i, j int) bool { return st.Pending[i].Seat < st.Pending[j].Seat })
	return st
}

// settlesWith is settlesText for an outcome that offers options: a
// withdrawal returns the wagers, but MBS 5.12.1's choice (place an Ante or
// cancel the progressive) withdraws nothing.
func settlesWith(a Action, opts []Option) string {
	if a == OfferOptions && len(opts) > 0 && !slices.Contains(opts, Withdraw) {
		if slices.Contains(opts, CancelProgressive) {
			return "as the player chooses: as usual once the missing wager is placed, or the progressive wager returned if he cancels it"
		}
		return "as the player chooses"
	}
	return settlesText(a)
}

func settlesText(a Action) string {
	switch a {
	case OfferOptions:
		return "as the player chooses: returned if he withdraws, else as usual"
	case DeemedFolded:
		return "as usual, the hand folded"
	case DeemedChecked:
		return "as usual, the absent decisions checked"
	case Referred:
		return "as the shift manager decides"
	}
	return "as usual"
}
