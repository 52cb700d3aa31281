package analysis

import (
	"context"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// BenchmarkStudBruteOnePair is the baseline: one (player hand, up card)
// settled against its 163,185 dealer completions one by one with
// hand.Eval5. The full optimal-strategy pass covers 122,151,120 such pairs.
func BenchmarkStudBruteOnePair(b *testing.B) {
	p := card.MustParseList("As Kd 7c 4h 2s")
	u := card.MustParseList("Kh")[0]
	var rest []card.Card
	for c := card.Card(0); c < 52; c++ {
		if c != u && c != p[0] && c != p[1] && c != p[2] && c != p[3] && c != p[4] {
			rest = append(rest, c)
		}
	}
	pv := hand.EvalHand(p)
	for b.Loop() {
		var win int
		for i := 0; i < len(rest); i++ {
			for j := i + 1; j < len(rest); j++ {
				for k := j + 1; k < len(rest); k++ {
					for l := k + 1; l < len(rest); l++ {
						if hand.Eval5(u, rest[i], rest[j], rest[k], rest[l]) < pv {
							win++
						}
					}
				}
			}
		}
		_ = win
	}
}

// BenchmarkStudOptimalPass is the whole stud analysis of one Bet table:
// the engine (classes, rank-multiset and flush counts) and the pass over
// every class and up card. Compare with BenchmarkStudBruteOnePair x
// 122,151,120.
func BenchmarkStudOptimalPass(b *testing.B) {
	for b.Loop() {
		e := newStudEngine(newFiveTables())
		e.tallies([]StudBet{caribbean()})
	}
}

// BenchmarkAnalyzeStudProposal is POST /v1/paytables/analyze's heaviest
// request: the Caribbean Stud Raise table proposed on SSP v6, analysed
// live over all 19,933,230,517,200 deals (httpapi's TestAnalyzeProposal
// checks its figures, with no time budget: issue 33 item 11). Its speed
// bound is here: a pass must finish inside StudBudget, the time the edge
// gives it in a request (about 1-2 s on two cores; make bench runs it on
// one). It fails when it does not.
func BenchmarkAnalyzeStudProposal(b *testing.B) {
	req := Proposal{Ruleset: "mbs-megalink-ssp-v6", StudBet: []ProposedOddsLine{{Hand: "royal_flush", Num: 100}, {Hand: "straight_flush", Num: 50},
		{Hand: "four_of_a_kind", Num: 20}, {Hand: "full_house", Num: 7}, {Hand: "flush", Num: 5}, {Hand: "straight", Num: 4},
		{Hand: "three_of_a_kind", Num: 3}, {Hand: "two_pair", Num: 2}, {Hand: "one_pair", OrLower: true, Num: 1}}}
	var n int
	for b.Loop() {
		if _, err := Analyze(context.Background(), ruleset.Standard(), req); err != nil {
			b.Fatal(err)
		}
		n++
	}
	per := b.Elapsed() / time.Duration(n)
	b.ReportMetric(per.Seconds(), "s/analysis")
	if per > StudBudget {
		b.Errorf("a stud proposal took %v; the edge gives it %v (StudBudget)", per, StudBudget)
	}
}
