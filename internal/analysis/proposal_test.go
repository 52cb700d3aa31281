package analysis

import (
	"context"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Pair Plus 40-30-6-4-1 on TCP v6 (replacing 4.3): house edge 128/5525,
// 2.32% (Grochowski, casinocity.com); the line's rule is "proposed".
func TestAnalyzePairPlusProposal(t *testing.T) {
	pp := Proposal{Ruleset: "mbs-megalink-tcp-v6", PairPlus: []ProposedOddsLine{
		{Hand: "straight_flush", Num: 40}, {Hand: "three_of_a_kind", Num: 30}, {Hand: "straight", Num: 6},
		{Hand: "flush", Num: 4}, {Hand: "one_pair", Num: 1}}}
	c := NewCache(4, 1<<20)
	for range 2 {
		f, err := c.Analyze(context.Background(), ruleset.Standard(), pp)
		if err != nil {
			t.Fatal(err)
		}
		if w := f.Wagers[0]; w.HouseEdge.Num != "128" || w.HouseEdge.Den != "5525" || w.Rule != "proposed" {
			t.Errorf("pair plus %+v", w)
		}
	}
	if n, _, hits, misses := c.Stats(); n != 1 || hits != 1 || misses != 1 {
		t.Errorf("entries %d hits %d misses %d, want 1 1 1", n, hits, misses)
	}
}

// A proposal that cannot be analysed is refused naming its field (the
// edge places it under "body").
func TestAnalyzeRefusesNamingTheField(t *testing.T) {
	one := []ProposedOddsLine{{Hand: "flush", Num: 1}}
	for _, c := range []struct {
		name  string
		p     Proposal
		field string
	}{
		{"unknown ruleset", Proposal{Ruleset: "nope", PairPlus: one}, "ruleset"},
		{"nothing proposed", Proposal{Ruleset: "mbs-megalink-tcp-v6"}, ""},
		{"pair plus on a stud ruleset", Proposal{Ruleset: "mbs-megalink-ssp-v6", PairPlus: one}, "pairPlus"},
		{"ante bonus on a stud ruleset", Proposal{Ruleset: "mbs-megalink-ssp-v6", AnteBonus: one}, "anteBonus"},
		{"TCP v6 3.14: not a three-card hand", Proposal{Ruleset: "mbs-megalink-tcp-v6", PairPlus: []ProposedOddsLine{{Hand: "flush", Num: 1}, {Hand: "full_house", Num: 1}}}, "pairPlus[1].hand"},
		{"a hand twice", Proposal{Ruleset: "mbs-megalink-tcp-v6", AnteBonus: []ProposedOddsLine{{Hand: "flush", Num: 1}, {Hand: "flush", Num: 2}}}, "anteBonus[1].hand"},
		{"orLower outside the stud Bet", Proposal{Ruleset: "mbs-megalink-tcp-v6", PairPlus: []ProposedOddsLine{{Hand: "flush", Num: 1, OrLower: true}}}, "pairPlus[0].orLower"},
		{"a Bet table must pay every category", Proposal{Ruleset: "rws-mlp-csp-v2", StudBet: []ProposedOddsLine{{Hand: "royal_flush", Num: 100}}}, "studBet"},
		{"a Bet category paid twice", Proposal{Ruleset: "rws-mlp-csp-v2", StudBet: []ProposedOddsLine{{Hand: "one_pair", Num: 1, OrLower: true}, {Hand: "high_card", Num: 1}}}, "studBet[1].hand"},
		{"unknown bonus hand", Proposal{Ruleset: "mbs-megalink-thb-v9", Bonus: []ProposedOddsLine{{Hand: "kk", Num: 1}}}, "bonus[0]"},
		{"bonus outside THB", Proposal{Ruleset: "mbs-megalink-tcp-v6", Bonus: []ProposedOddsLine{{Hand: "aa", Num: 1}}}, "bonus"},
		{"no such progressive wager", Proposal{Ruleset: "mbs-megalink-thb-v9", Progressive: &ProgressiveProposal{Wager: "nope",
			Prizes: []ProposedPrizeLine{{Hand: "royal_flush", Kind: "pool_percent", BasisPoints: 10000}}}}, "progressive.wager"},
		{"not a five-card prize hand", Proposal{Ruleset: "mbs-megalink-thb-v9", Progressive: &ProgressiveProposal{
			Prizes: []ProposedPrizeLine{{Hand: "kk", Kind: "pool_percent", BasisPoints: 10000}}}}, "progressive.prizes[0].hand"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Analyze(context.Background(), ruleset.Standard(), c.p)
			e, ok := fault.As(err)
			if !ok || e.Kind != fault.Invalid || e.Field() != c.field {
				t.Errorf("got %v, want invalid at %q", err, c.field)
			}
		})
	}
}

// The published figures of a ruleset; an unknown one is not found at "id".
func TestOfRuleset(t *testing.T) {
	f, err := OfRuleset(context.Background(), ruleset.Standard(), "mbs-megalink-tcp-v6", 0)
	if err != nil || f.AntePlay == nil || f.AntePlay.LowestPlayed != "Q-6-4" {
		t.Fatalf("%v %+v", err, f.AntePlay)
	}
	if _, err := OfRuleset(context.Background(), ruleset.Standard(), "nope", 0); !fault.Is(err, fault.NotFound) {
		t.Errorf("unknown ruleset: %v", err)
	} else if e, _ := fault.As(err); e.Field() != "id" {
		t.Errorf("unknown ruleset names %q, want id", e.Field())
	}
}
