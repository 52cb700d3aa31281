package jackpot_test

import (
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
)

// Two Royal Flushes at one MBS table share pool + one reset (ruling R5,
// SSP v6 3.15.1): the pool funds its 10,000,001, the extra reset part
// 10,000,000 comes from the overflow, the reserve, then the house (R21),
// and the cent the equal shares leave stays in the pool.
func ExampleSharedPrize() {
	share, fromPool, extra, _ := jackpot.SharedPrize(10_000_001, 10_000_000, 10000, 2)
	fmt.Println(share, fromPool, extra)
	// Output: 10000000 10000000 10000000
}

// A round's accepted progressive wagers contribute first (R4), carrying
// the fraction below the cent; then its Royal Flush takes the whole pool
// and the pool resets, funded by the house when the reserve is short.
func ExampleApply() {
	t := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	s := jackpot.Settings{Currency: money.SGD, Rulesets: []string{"mbs-megalink-ssp-v6"}, Unit: 500,
		ContributionBP: 1733, ReserveBP: 517, Reset: 10_000_000}
	p, _, _ := jackpot.New("megalink", s, jackpot.Actor{ID: "adm:alice", Role: "admin"}, t)
	r := jackpot.Round{Ruleset: "mbs-megalink-ssp-v6", Table: "T12", Round: "R1", DealtAt: t,
		Wagers: []jackpot.ProgressiveWager{{Seat: 1, Amount: 500}, {Seat: 3, Amount: 500}},
		Hits: []jackpot.Hit{{Seat: 3, Dealt: 3, Category: "royal_flush", Stake: 500,
			Prize: jackpot.Prize{Kind: jackpot.PrizePercent, BP: 10000}}}}
	p, entries, res, _ := jackpot.Apply(p, r, t)
	fmt.Println("credited", res.Contribution.Displayed, "carried", p.Meters.CarryDisplayed, "/10000")
	fmt.Println("paid", res.Payouts[0].Amount, res.Payouts[0].Funding)
	for _, e := range entries {
		fmt.Println(e.Seq, e.Kind, e.Displayed, e.Funding)
	}
	// Output:
	// credited 173 carried 3000 /10000
	// paid 10000173 [{pool 10000173}]
	// 2 contribution 173 []
	// 3 hit -10000173 [{pool 10000173}]
	// 4 reset 10000000 [{reserve 51} {house 9999949}]
}
