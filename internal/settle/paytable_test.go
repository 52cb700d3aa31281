package settle

import (
	"fmt"
	"testing"

	"github.com/tablesettle/tablesettle/internal/money"
)

// One five-card hand of each category that beats the dealer's Ace-King
// high (As Kd 7h 4c 2s) and shares no card with it.
var studHands = []struct{ cat, cards string }{
	{"royal_flush", "Th Jh Qh Kh Ah"},
	{"straight_flush", "5d 6d 7d 8d 9d"},
	{"four_of_a_kind", "9s 9h 9d 9c 3d"},
	{"full_house", "Qh Qd Qs 9c 9d"},
	{"flush", "2h 5h 8h Jh Kh"},
	{"straight", "5s 6d 7c 8h 9d"},
	{"three_of_a_kind", "Qh Qd Qs 9c 3d"},
	{"two_pair", "Kh Kc 7s 7d 3c"},
	{"one_pair", "8h 8c Qd 3c 5h"},
	{"high_card", "Ac Kh 8d 3d 2c"},
}

// The Bet paytables as the documents print them (SSP v6 4.1.2, SSP v4
// 4.1.2, RWS 4.1), typed here independently of the ruleset data: a winning
// Bet of 2000 returns 2000 x (1 + X).
func TestBetPaytableEveryLine(t *testing.T) {
	odds := map[string]int64{"royal_flush": 250, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7,
		"flush": 5, "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "one_pair": 1, "high_card": 1}
	for _, id := range []string{"mbs-megalink-ssp-v6", "mbs-ssp-v4", "rws-mlp-csp-v2"} {
		for _, h := range studHands {
			t.Run(id+" "+h.cat, func(t *testing.T) {
				s, err := Settle(Round{Ruleset: id, Dealer: dealerAK, Positions: []Position{pos(1, h.cards, "ante=1000 bet=2000")}})
				if err != nil {
					t.Fatal(err)
				}
				p := s.Positions[0]
				if p.Hand.Category != h.cat {
					t.Fatalf("hand %s, want %s", p.Hand.Category, h.cat)
				}
				want := money.Amount(2000 * (1 + odds[h.cat]))
				if l := p.Lines[1]; l.Result != Win || l.Returned != want {
					t.Errorf("bet %s %d, want win %d", l.Result, l.Returned, want)
				}
				if l := p.Lines[0]; l.Returned != 2000 {
					t.Errorf("ante returned %d, want 2000 (1 to 1)", l.Returned)
				}
			})
		}
	}
}

// The progressive paytables as printed, one line each: what a winning
// progressive wager of 100 returns from the house, or the pool share.
func TestJackpotPaytableEveryLine(t *testing.T) {
	type want struct {
		returned money.Amount
		prize    string
	}
	fixed := map[string]want{ // SSP v6 4.2, RWS 4.2
		"royal_flush": {0, "100% of the pool"}, "straight_flush": {0, "10% of the pool"},
		"four_of_a_kind": {200000, "SGD 2000.00"}, "full_house": {20000, "SGD 200.00"}, "flush": {10000, "SGD 100.00"},
	}
	v4 := map[string]want{ // SSP v4 4.2: to 1 on a stake of 100
		"royal_flush": {0, "100% of the pool"}, "straight_flush": {0, "10% of the pool"},
		"four_of_a_kind": {50100, "500 to 1"}, "full_house": {10100, "100 to 1"}, "flush": {5100, "50 to 1"},
	}
	for _, tc := range []struct {
		id, wager string
		table     map[string]want
	}{
		{"mbs-megalink-ssp-v6", "progressive", fixed},
		{"rws-mlp-csp-v2", "progressive", fixed},
		{"mbs-ssp-v4", "progressivePlayer", v4},
	} {
		for _, h := range studHands {
			t.Run(tc.id+" "+h.cat, func(t *testing.T) {
				r := Round{Ruleset: tc.id, Dealer: dealerAK, Positions: []Position{pos(1, h.cards, "ante=1000 bet=2000 "+tc.wager+"=100")}}
				if tc.wager == "progressive" {
					r.ProgressiveUnit = 100 // ruling R22: the stake is the pool's unit
				}
				if tc.id == "mbs-ssp-v4" {
					no := false
					r.MagicCard, r.LuckyPlayerSeat, r.LuckyDealer = "2s", 7, &no // the dealer's card, seat 7: neither pays
				}
				s, err := Settle(r)
				if err != nil {
					t.Fatal(err)
				}
				l := s.Positions[0].Lines[2]
				w, ok := tc.table[h.cat]
				if !ok {
					if l.Result != Lose || len(s.Positions[0].Jackpot) != 0 {
						t.Errorf("%s: %s %d, want a loss", h.cat, l.Result, l.Returned)
					}
					return
				}
				j := s.Positions[0].Jackpot
				if l.Result != Win || l.Returned != w.returned || len(j) != 1 || j[0].Prize.String() != w.prize {
					t.Errorf("%s: %s %d %v, want win %d %s", h.cat, l.Result, l.Returned, j, w.returned, w.prize)
				}
			})
		}
	}
}

// THB v9 4.2 with every multiplier (3.5.3.1, ruling R17): "for 1" lines
// return X times the whole stake; percentage lines are not multiplied.
func TestTHBJackpotEveryLineEveryMultiplier(t *testing.T) {
	hands := []struct {
		cat, hole, board string
		forOne           int64 // 0: a percentage line
	}{
		{"royal_flush", "Ah Kh", "Qh Jh Th 2c 3d", 0},
		{"straight_flush", "9h 8h", "7h 6h 5h 2c 3d", 0},
		{"four_of_a_kind", "9h 9s", "9d 9c 5h 2c 3d", 400},
		{"full_house", "9h 9s", "9d 5c 5h 2c 3d", 80},
		{"flush", "Ah 2h", "9h 6h 5h 2c 3d", 40},
		{"straight", "9h 8s", "7d 6c 5h Kc 3d", 20},
		{"three_of_a_kind", "9h 9s", "9d 6c 5h Kc 3d", -1},
	}
	for _, h := range hands {
		for m := 1; m <= 5; m++ {
			t.Run(fmt.Sprintf("%s x%d", h.cat, m), func(t *testing.T) {
				stake := money.Amount(100 * m)
				p := mult(pos(1, h.hole, fmt.Sprintf("ante=1000 flop=2000 progressive=%d", stake)), m)
				s, err := Settle(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Qs Jd", Community: h.board, ProgressiveUnit: 100, Positions: []Position{p}})
				if err != nil {
					t.Fatal(err)
				}
				pr := s.Positions[0]
				l := pr.Lines[len(pr.Lines)-1]
				switch {
				case h.forOne < 0:
					if l.Result != Lose {
						t.Errorf("%s pays nothing, got %s %d", h.cat, l.Result, l.Returned)
					}
				case h.forOne == 0:
					if l.Result != Win || l.Returned != 0 || pr.Jackpot[0].Multiplier != 1 || pr.Jackpot[0].PaidBy != PaidByPool {
						t.Errorf("%s: %s %d %+v", h.cat, l.Result, l.Returned, pr.Jackpot)
					}
				default:
					want := stake * money.Amount(h.forOne)
					if l.Result != Win || l.Returned != want || pr.Jackpot[0].Multiplier != m {
						t.Errorf("%s: %s %d x%d, want %d x%d", h.cat, l.Result, l.Returned, pr.Jackpot[0].Multiplier, want, m)
					}
				}
			})
		}
	}
}

// THB v9 4.1.1 Bonus, every line, on a stake of 100 (ruling R16: whatever
// the hand's outcome).
func TestTHBBonusEveryLine(t *testing.T) {
	cases := []struct {
		hole, dealer string
		returned     money.Amount
	}{
		{"Ah Ad", "Ac As", 100100},
		{"Ah Ad", "Kc Ks", 3100},
		{"Ah Kh", "Qc Js", 2600},
		{"Ah Qh", "Kc Js", 2100},
		{"Ah Jh", "Kc Qs", 2100},
		{"Ah Kd", "Qc Js", 1600},
		{"Kh Kd", "Qc Js", 1100},
		{"Jh Jd", "Qc Ks", 1100},
		{"Ah Qd", "Kc Js", 600},
		{"Ah Jd", "Kc Qs", 600},
		{"Th Td", "Kc Qs", 400},
		{"2h 2d", "Kc Qs", 400},
		{"Ah Td", "Kc Qs", 0},
	}
	for _, tc := range cases {
		t.Run(tc.hole+" vs "+tc.dealer, func(t *testing.T) {
			s, err := Settle(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: tc.dealer, Community: "3c 4d 8h 9s 5c",
				Positions: []Position{pos(1, tc.hole, "ante=1000 bonus=100 flop=2000")}})
			if err != nil {
				t.Fatal(err)
			}
			if l := s.Positions[0].Lines[1]; l.Wager != "bonus" || l.Returned != tc.returned {
				t.Errorf("bonus %s returned %d, want %d", l.Result, l.Returned, tc.returned)
			}
		})
	}
}
