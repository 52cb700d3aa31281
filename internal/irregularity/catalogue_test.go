package irregularity

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestCatalogueWellFormed checks the data itself: every condition names a
// fact of its kind of the right type, every scope can be resolved from the
// kind's facts, every action and option is one of the package's, every
// kind has a case, and kind names are unique.
func TestCatalogueWellFormed(t *testing.T) {
	actions := []Action{RoundVoid, PlayContinues, HandRemoved, WagerReturned, Withdrawn, OfferOptions, SettledToMaximum, DeemedFolded, DeemedChecked, Referred}
	options := []Option{Withdraw, Continue, ContinueReconstructed, PlaceAnte, CancelProgressive, IncreaseWager}
	opType := map[Op][]FactType{OpIs: {Bool}, OpNot: {Bool}, OpEq: {Enum}, OpAtLeast: {Int}, OpAtMost: {Int}, OpNonEmpty: {Seats}, OpHas: {Seats}, OpLacks: {Seats}, OpGiven: {Bool, Int, Enum, Seats, Amount}}
	scopeNeeds := map[Scope]string{ScopeSeat: "seat", ScopeOthers: "seat", ScopeWithdrawn: "withdrawnSeats", ScopeViewed: "viewedSeats",
		ScopeUnviewed: "seats", ScopeFirstDealt: "seats", ScopeLaterDealt: "seats", ScopeFirstSeen: "firstViewedSeat", ScopeAdditional: "additionalSeats", ScopeAll: "",
		ScopeAffected: "affectedSeats", ScopeAffectedOthers: "affectedSeats"}
	for _, id := range IDs {
		rs, ok := Catalogue(id)
		if !ok || rs.ID != id {
			t.Fatalf("Catalogue(%s) = %v, %v", id, rs, ok)
		}
		if _, ok := rs.Kind(KindOther); !ok {
			t.Errorf("%s: no %q kind for what the rules do not cover", id, KindOther)
		}
		seen := map[string]bool{}
		for _, k := range rs.Kinds {
			where := id + " " + k.Name
			if seen[k.Name] {
				t.Errorf("%s: kind listed twice", where)
			}
			seen[k.Name] = true
			for _, c := range k.Clauses {
				if !strings.Contains(k.Note, c) {
					t.Errorf("%s: the kind accounts for %s but its note does not say how", where, c)
				}
			}
			if len(k.Cases) == 0 || k.Title == "" {
				t.Errorf("%s: no cases or no title", where)
			}
			fact := func(n string) (Fact, bool) {
				i := slices.IndexFunc(k.Facts, func(f Fact) bool { return f.Name == n })
				if i < 0 {
					return Fact{}, false
				}
				return k.Facts[i], true
			}
			checkConds := func(cs []Cond) {
				for _, c := range cs {
					f, ok := fact(c.Fact)
					if !ok || !slices.Contains(opType[c.Op], f.Type) {
						t.Errorf("%s: condition %s names no %v fact of the kind", where, c, opType[c.Op])
					}
					if c.Op == OpEq && !slices.Contains(f.Values, c.Value) {
						t.Errorf("%s: condition %s: %q is not a value of %s", where, c, c.Value, c.Fact)
					}
					if c.Op == OpHas || c.Op == OpLacks {
						if g, ok := fact(c.Value); !ok || g.Type != Int {
							t.Errorf("%s: condition %s: %s is not an int fact", where, c, c.Value)
						}
					}
				}
			}
			for _, f := range k.Facts {
				if f.Doc == "" {
					t.Errorf("%s: fact %s has no doc", where, f.Name)
				}
				if f.Exceeds != "" {
					if g, ok := fact(f.Exceeds); !ok || g.Type != Amount || f.Type != Amount {
						t.Errorf("%s: %s exceeds %s: both must be amount facts", where, f.Name, f.Exceeds)
					}
				}
				if f.SubsetOf != "" {
					if g, ok := fact(f.SubsetOf); !ok || g.Type != Seats {
						t.Errorf("%s: %s is a subset of %s, not a seats fact", where, f.Name, f.SubsetOf)
					}
				}
			}
			for _, rq := range k.Requires {
				checkConds(rq.When)
				if f, ok := fact(rq.Fact); !ok || f.Required || rq.Message == "" {
					t.Errorf("%s: a requirement names %s, not an optional fact of the kind, or has no message", where, rq.Fact)
				}
			}
			for _, rc := range k.RoundChecks {
				checkConds(rc.When)
				if _, ok := fact(rc.Fact); !ok {
					t.Errorf("%s: a round check names %s, not a fact of the kind", where, rc.Fact)
				}
				if _, ok := fact("seat"); !ok {
					t.Errorf("%s: round checks read the position at facts.seat, and the kind has no seat fact", where)
				}
				for _, w := range rc.Wagers {
					if !slices.Contains(rs.Wagers, w) {
						t.Errorf("%s: round check wager %q is not one of %s's", where, w, id)
					}
				}
			}
			for _, c := range k.Contradictions {
				checkConds(c.When)
				for _, n := range c.Facts {
					if _, ok := fact(n); !ok {
						t.Errorf("%s: a contradiction names %s, not a fact of the kind", where, n)
					}
				}
			}
			for i, c := range k.Cases {
				checkConds(c.When)
				if !slices.Contains(actions, c.Action) {
					t.Errorf("%s case %d: action %q", where, i, c.Action)
				}
				if c.Action == Referred && c.ReferTo == "" {
					t.Errorf("%s case %d: referred to nobody", where, i)
				}
				if c.Action != Referred && len(c.Clauses)+len(c.Rulings) == 0 {
					t.Errorf("%s case %d: an outcome that cites no rule", where, i)
				}
				if c.Text == "" {
					t.Errorf("%s case %d: no text", where, i)
				}
				if (len(c.Options) > 0) != (c.OptionsTo != "") {
					t.Errorf("%s case %d: options without a scope or a scope without options", where, i)
				}
				for _, o := range c.Options {
					if !slices.Contains(options, o) {
						t.Errorf("%s case %d: option %q", where, i, o)
					}
				}
				scopes := []Scope{c.OptionsTo}
				for _, sr := range c.Seats {
					scopes = append(scopes, sr.Scope)
					if !slices.Contains(actions, sr.Action) || sr.Text == "" || len(sr.Clauses)+len(sr.Rulings) == 0 {
						t.Errorf("%s case %d: seat rule %+v needs an action, a text and a rule", where, i, sr)
					}
					for _, w := range sr.Wagers {
						if w != "$wager" && !slices.Contains(rs.Wagers, w) {
							t.Errorf("%s case %d: wager %q is not one of %s's", where, i, w, id)
						}
						if w == "$wager" {
							if _, ok := fact("wager"); !ok {
								t.Errorf("%s case %d: $wager without a wager fact", where, i)
							}
						}
					}
					if sr.Line == LineExcessBoxMaximum {
						if _, ok := fact("boxTotal"); !ok {
							t.Errorf("%s case %d: excess over the box maximum without a boxTotal fact", where, i)
						}
					}
					if sr.Line == LineExcessMaximum || sr.Line == LineExcessBoxMaximum {
						if _, ok := fact("maximum"); !ok {
							t.Errorf("%s case %d: excess over the maximum without a maximum fact", where, i)
						}
					}
				}
				for _, s := range scopes {
					if s == "" {
						continue
					}
					need, known := scopeNeeds[s]
					if !known {
						t.Errorf("%s case %d: unknown scope %q", where, i, s)
					} else if need != "" {
						if _, ok := fact(need); !ok {
							t.Errorf("%s case %d: scope %s needs fact %s", where, i, s, need)
						}
					}
				}
			}
		}
	}
}

// factValues lists the values worth trying for a fact: both bools, every
// enum value, the int boundaries, a few seat lists; and absence when the
// fact is optional.
func factValues(f Fact) []any {
	var vs []any
	switch f.Type {
	case Bool:
		vs = []any{true, false}
	case Enum:
		for _, v := range f.Values {
			vs = append(vs, v)
		}
	case Int:
		for _, n := range []int{f.Min, f.Min + 1, f.Min + 2, 7, f.Max} {
			if n >= f.Min && (f.Max == 0 || n <= f.Max) && !slices.Contains(vs, any(n)) {
				vs = append(vs, n)
			}
		}
	case Amount:
		vs = []any{1, 50000, 1_000_000_000_000}
	case Seats:
		for _, s := range [][]int{{}, {1}, {2}, {1, 2}, {2, 5, 6}} {
			if len(s) >= f.Min {
				vs = append(vs, s)
			}
		}
	}
	if !f.Required {
		vs = append(vs, nil)
	}
	return vs
}

// combos enumerates every combination of the kind's fact values.
func combos(k *Kind) []map[string]any {
	out := []map[string]any{{}}
	for _, f := range k.Facts {
		var next []map[string]any
		for _, m := range out {
			for _, v := range factValues(f) {
				n := map[string]any{}
				for a, b := range m {
					n[a] = b
				}
				if v != nil {
					if s, ok := v.([]int); ok {
						l := make([]any, len(s))
						for i, x := range s {
							l[i] = x
						}
						v = l
					}
					n[f.Name] = v
				}
				next = append(next, n)
			}
		}
		out = next
	}
	return out
}

// TestDecisionTablesExhaustive decides every combination of facts of every
// kind: each is either refused as contradictory or matched by a case (never
// an internal error), and every case of every kind is reached by some
// combination (no dead rows).
func TestDecisionTablesExhaustive(t *testing.T) {
	for _, id := range IDs {
		rs, _ := Catalogue(id)
		for ki := range rs.Kinds {
			k := &rs.Kinds[ki]
			reached := make([]bool, len(k.Cases))
			for _, raw := range combos(k) {
				facts, probs := parseFacts(k, raw)
				if len(probs) > 0 {
					continue
				}
				matched := false
				for i, c := range k.Cases {
					if all(c.When, facts) {
						reached[i], matched = true, true
						break
					}
				}
				if !matched {
					t.Errorf("%s %s: no case matches %v", id, k.Name, raw)
				}
				if _, err := Decide(rs, k.Name, raw, nil); err != nil {
					t.Errorf("%s %s %v: %v", id, k.Name, raw, err)
				}
			}
			for i, r := range reached {
				if !r {
					t.Errorf("%s %s: case %d (%s) is never reached", id, k.Name, i, fmt.Sprint(k.Cases[i].When))
				}
			}
		}
	}
}
