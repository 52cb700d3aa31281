package analysis

import (
	"math/big"
	"testing"

	"github.com/tablesettle/tablesettle/internal/hand"
)

// caribbeanProgressive is the $1 Caribbean Stud progressive Wizard of Odds
// analyses: royal 100% of the meter, straight flush 10%, and fixed prizes
// for quads, full house and flush.
func caribbeanProgressive(quads, full, flush int64) Progressive {
	return Progressive{Wager: "progressive", Unit: 100, Prizes: []Prize{
		{Category: hand.RoyalFlush, Kind: PrizePercent, BasisPoints: 10000},
		{Category: hand.StraightFlush, Kind: PrizePercent, BasisPoints: 1000},
		{Category: hand.FourOfAKind, Kind: PrizeFixed, Amount: quads * 100},
		{Category: hand.FullHouse, Kind: PrizeFixed, Amount: full * 100},
		{Category: hand.Flush, Kind: PrizeFixed, Amount: flush * 100},
	}}
}

// Published break-even meters: Michael Shackleford (the Wizard of Odds),
// "The Wizard of Odds Analyzes the New Casino Games", Contingencies,
// Nov/Dec 2000, Caribbean Stud progressive table: $100/$75/$50 breaks even
// at a meter of $263,205 and $150/$100/$50 at $246,784. And usvegas.com,
// "Caribbean Stud": with $100/$75/$50 the $1 wager returns "approximately
// $0.23 plus 2.924 cents for each $10,000 in the jackpot".
func TestProgressivePublishedBreakEven(t *testing.T) {
	counts := newFiveTables().categoryCounts()
	for _, tc := range []struct {
		quads, full, flush int64
		dollars            string
	}{
		{100, 75, 50, "263205"},
		{150, 100, 50, "246784"},
	} {
		r := AnalyzeProgressive(counts, caribbeanProgressive(tc.quads, tc.full, tc.flush))
		be := r.ByMultiple[0].BreakEvenMeter.Rat()
		dollars := new(big.Int).Quo(new(big.Int).Quo(be.Num(), be.Denom()), big.NewInt(100))
		if dollars.String() != tc.dollars {
			t.Errorf("%d/%d/%d: break-even $%s, published $%s", tc.quads, tc.full, tc.flush, dollars, tc.dollars)
		}
	}
	r := AnalyzeProgressive(counts, caribbeanProgressive(100, 75, 50))
	if got := Percent(r.ByMultiple[0].FixedReturn.Rat(), 0); got != "23" {
		t.Errorf("fixed return %s%%, published $0.23", got)
	}
	// 2.924 cents per $10,000 of meter on a $1 wager: meterShare x 10,000
	per := new(big.Rat).Mul(r.MeterShare.Rat(), big.NewRat(10000*100, 1))
	if got := per.FloatString(3); got != "2.924" {
		t.Errorf("%s cents per $10,000 of meter, published 2.924", got)
	}
}

// THB v9 4.2 with the multiplier (3.5.3.1, ruling R17): for-1 lines scale
// with the stake, the percentages do not, so the break-even meter grows
// with the multiple while the fixed return per unit staked stays.
func TestProgressiveTHBMultiplier(t *testing.T) {
	counts := newFiveTables().categoryCounts()
	p := Progressive{Wager: "progressive", Unit: 100, Multiples: []int64{1, 2, 5}, Prizes: []Prize{
		{Category: hand.RoyalFlush, Kind: PrizePercent, BasisPoints: 10000},
		{Category: hand.StraightFlush, Kind: PrizePercent, BasisPoints: 1000},
		{Category: hand.FourOfAKind, Kind: PrizeForOne, Odds: To(400), Multiplied: true},
		{Category: hand.FullHouse, Kind: PrizeForOne, Odds: To(80), Multiplied: true},
		{Category: hand.Flush, Kind: PrizeForOne, Odds: To(40), Multiplied: true},
		{Category: hand.Straight, Kind: PrizeForOne, Odds: To(20), Multiplied: true},
	}}
	r := AnalyzeProgressive(counts, p)
	// (624*400 + 3744*80 + 5108*40 + 10200*20) / 2598960
	fixed := big.NewRat(624*400+3744*80+5108*40+10200*20, 2598960)
	meter := big.NewRat(4*10+36, 2598960*10)
	for _, at := range r.ByMultiple {
		if at.FixedReturn.Rat().Cmp(fixed) != 0 {
			t.Errorf("x%d: fixed return %s, want %s", at.Multiple, at.FixedReturn.Rat().RatString(), fixed.RatString())
		}
		want := new(big.Rat).Sub(big.NewRat(1, 1), fixed)
		want.Mul(want, big.NewRat(at.Stake, 1))
		want.Quo(want, meter)
		if at.BreakEvenMeter.Rat().Cmp(want) != 0 {
			t.Errorf("x%d: break-even %s, want %s", at.Multiple, at.BreakEvenMeter.Rat().RatString(), want.RatString())
		}
	}
}
