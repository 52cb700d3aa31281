package settle_test

import (
	"fmt"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// A Megalink Three Card Poker round: the dealer's Queen high qualifies
// (3.11, ruling R15); seat 2's pair of Aces wins Ante and Play 1 to 1
// (3.12.1), Pair Plus 1 to 1 (4.3), and with the two community Aces makes
// four of a kind for the SGD 2,000 jackpot prize (4.4), paid on a
// progressive wager of the pool's unit (rulings R2, R22).
func ExampleSettle() {
	s, err := settle.Settle(settle.Round{
		Ruleset: "mbs-megalink-tcp-v6", RoundID: "T07-004711",
		Dealer: "Qs 7d 3h", Community: "Ac As", ProgressiveUnit: 100,
		Positions: []settle.Position{{Seat: 2, Cards: "Ah Ad 5c",
			Wagers: map[string]money.Amount{"ante": 1000, "play": 1000, "pairPlus": 500, "progressive": 100}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("dealer", s.Dealer.Category, "qualifies:", s.Dealer.Qualifies)
	for _, p := range s.Positions {
		for _, l := range p.Lines {
			fmt.Println(p.Seat, l.Wager, l.Result, l.Stake, l.Returned, l.Odds, l.Rules[0])
		}
		for _, j := range p.Jackpot {
			fmt.Println(p.Seat, "jackpot", j.Category, j.Prize, j.PaidBy)
		}
	}
	fmt.Println("house net", s.Totals.HouseNet)
	// Output:
	// dealer high_card qualifies: true
	// 2 ante win 1000 2000 1 to 1 mbs-megalink-tcp-v6 3.12.1
	// 2 play win 1000 2000 1 to 1 mbs-megalink-tcp-v6 3.12.1
	// 2 pairPlus win 500 1000 1 to 1 mbs-megalink-tcp-v6 3.12.5
	// 2 progressive win 100 200000 SGD 2000.00 mbs-megalink-tcp-v6 3.13
	// 2 jackpot four_of_a_kind SGD 2000.00 house
	// house net -202400
}

// A field the rules refuse is named in the error.
func ExampleSettle_refused() {
	_, err := settle.Settle(settle.Round{
		Ruleset: "mbs-megalink-ssp-v6", Dealer: "As Kd 7h 4c 2s",
		Positions: []settle.Position{{Seat: 1, Cards: "Qh Qd Qs 9c 9d",
			Wagers: map[string]money.Amount{"ante": 1000, "bet": 1500}}},
	})
	fe, _ := fault.As(err)
	fmt.Println(fe.Field())
	// Output:
	// positions[0].wagers.bet
}
