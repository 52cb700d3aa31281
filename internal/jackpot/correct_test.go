package jackpot_test

import (
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
)

// TestCorrectionReversesTheResetOfAnyWholePoolPrize: rulings R3, R21 and
// R28. A prize of 100% of the pool resets it whatever hand wins it (a
// ruleset described in the catalogue may pay the whole pool on a
// Straight Flush); the correction that takes the hit back reverses that
// reset too. Round r1 (three unit wagers: 259 and 77) wins 10,000,259,
// paid at once; the reset 10,000,000 is funded by the reserve's 77 and
// the house's 9,999,923. Voided (two cards exposed), the house funds the
// pool's 10,000,259 back and recovers it from the winner, the reset is
// reversed and the contribution taken back: displayed 10,000,000, reserve
// 0, house 10,000,000 + 10,000,259 = 20,000,259, no reset.
//
// Defect: the correction found the reset only after a hit named
// royal_flush: the whole-pool Straight Flush's reset stayed, displayed
// 20,000,000 and house 30,000,259 (10,000,000 of the house's money in the
// displayed meter).
func TestCorrectionReversesTheResetOfAnyWholePoolPrize(t *testing.T) {
	for _, category := range []string{"royal_flush", "straight_flush"} {
		t.Run(category, func(t *testing.T) {
			p, _, err := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
			if err != nil {
				t.Fatal(err)
			}
			h := jackpot.Hit{Seat: 2, Dealt: 2, Category: category, Prize: jackpot.Prize{Kind: jackpot.PrizePercent, BP: 10000}, Stake: 500, Rules: []string{"mbs-megalink-ssp-v6 4.2"}}
			q, es, res, err := jackpot.Apply(p, jackpottest.RoundOf("mbs-megalink-ssp-v6", "T1", "r1", t0, 500, []int{1, 2, 3}, h), t0)
			if err != nil || len(res.Payouts) != 1 || res.Payouts[0].Amount != 10_000_259 || q.Meters.HouseFunded != 19_999_923 || q.Meters.Resets != 1 {
				t.Fatalf("the whole-pool prize: %v %+v %+v", err, res.Payouts, q.Meters)
			}
			for i := range es {
				es[i].Commit = "c1"
			}
			corr := jackpot.Correction{Table: "T1", Round: "r1", Reason: "two cards exposed", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}
			out, _, cr, err := jackpot.Correct(q, es, "c1", corr, jackpottest.Supervisor, t0.Add(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			m := out.Meters
			if m.Displayed != 10_000_000 || m.Reserve != 0 || m.HouseFunded != 20_000_259 || m.Resets != 0 || cr.HouseRecovery != 10_000_259 || len(cr.Reversed) != 3 {
				t.Fatalf("after the void: displayed %d reserve %d house %d resets %d; recovery %d reversed %v; want 10,000,000, 0, 20,000,259, 0; 10,000,259, 3 entries",
					m.Displayed, m.Reserve, m.HouseFunded, m.Resets, cr.HouseRecovery, cr.Reversed)
			}
		})
	}
}
