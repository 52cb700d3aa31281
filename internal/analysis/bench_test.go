package analysis

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
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
