package irregularity

import (
	"slices"
	"strings"
)

// The ruleset ids (../shared/rules/README.md).
const (
	MBSMegalinkSSPv6 = "mbs-megalink-ssp-v6"
	MBSSSPv4         = "mbs-ssp-v4"
	MBSMegalinkTCPv6 = "mbs-megalink-tcp-v6"
	MBSMegalinkTHBv9 = "mbs-megalink-thb-v9"
	RWSMLPCSPv2      = "rws-mlp-csp-v2"
)

// IDs are the ruleset ids, in the README's order.
var IDs = []string{MBSMegalinkSSPv6, MBSSSPv4, MBSMegalinkTCPv6, MBSMegalinkTHBv9, RWSMLPCSPv2}

// Catalogue returns the irregularity catalogue of a ruleset. Each call
// builds it afresh from the data, so callers may keep or change it.
func Catalogue(id string) (*Ruleset, bool) {
	rs, ok := build(id)
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
	for _, other := range IDs {
		o, _ := build(other)
		for _, k := range o.Kinds {
			inapplicable := slices.ContainsFunc(rs.InapplicableKinds, func(in Inapplicable) bool { return in.Kind == k.Name })
			if _, ok := rs.Kind(k.Name); !ok && !inapplicable && !slices.Contains(rs.ReferredKinds, k.Name) {
				rs.ReferredKinds = append(rs.ReferredKinds, k.Name)
			}
		}
	}
	slices.Sort(rs.ReferredKinds)
	return rs, true
}

// build returns the catalogue data of a ruleset as written.
func build(id string) (*Ruleset, bool) {
	var rs *Ruleset
	switch id {
	case MBSMegalinkSSPv6:
		rs = megalink(id, gameSSP)
	case MBSMegalinkTCPv6:
		rs = megalink(id, gameTCP)
	case MBSMegalinkTHBv9:
		rs = megalink(id, gameTHB)
	case MBSSSPv4:
		rs = sspV4()
	case RWSMLPCSPv2:
		rs = rws()
	default:
		return nil, false
	}
	return rs, true
}

// knownKind reports whether any ruleset covers the kind.
func knownKind(kind string) bool {
	for _, id := range IDs {
		rs, _ := build(id)
		if _, ok := rs.Kind(kind); ok {
			return true
		}
	}
	return false
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
