package settle

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// benchRounds deals full 7-seat rounds of a ruleset, every hand playing on
// (the seeded generator's own mix of decisions and side wagers).
func benchRounds(id ruleset.ID) []Round {
	d := newDeal(2026)
	rounds := make([]Round, 64)
	for i := range rounds {
		rounds[i] = d.round(id, 7, false)
	}
	return rounds
}

// BenchmarkSettle is the engine's speed: rounds settled per second for a
// full 7-seat round of each ruleset, with allocations per round (make
// bench runs it on one core).
func BenchmarkSettle(b *testing.B) {
	for _, id := range ruleset.IDs() {
		rounds := benchRounds(id)
		b.Run(string(id), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := Settle(rounds[i%len(rounds)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
		})
	}
}

// BenchmarkEvalOnly is the baseline for BenchmarkSettle: the same rounds'
// cards parsed and every main hand evaluated, nothing settled. Settle's
// time over this is the cost of settlement proper.
func BenchmarkEvalOnly(b *testing.B) {
	for _, id := range ruleset.IDs() {
		rounds := benchRounds(id)
		rs, _ := ruleset.Get(id)
		b.Run(string(id), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			var sink uint64
			for b.Loop() {
				r := &rounds[i%len(rounds)]
				dealer, _ := card.ParseList(r.Dealer)
				community, _ := card.ParseList(r.Community)
				for _, p := range r.Positions {
					cs, _ := card.ParseList(p.Cards)
					switch rs.Game {
					case ruleset.GameThreeCard:
						sink += uint64(hand.Eval3(cs[0], cs[1], cs[2]))
					case ruleset.GameHoldem:
						v, _ := hand.Best(append(cs, community...))
						sink += uint64(v)
					default:
						sink += uint64(hand.EvalHand(cs))
					}
				}
				sink += uint64(len(dealer))
				i++
			}
			_ = sink
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
		})
	}
}
