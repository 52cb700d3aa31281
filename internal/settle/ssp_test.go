package settle

import (
	"testing"
)

// Dealer hands used below.
const (
	dealerAK     = "As Kd 7h 4c 2s" // Ace-King high: qualifies (3.10.2, ruling R15)
	dealerKHigh  = "Ks Qd 7h 4c 2s" // King high: "No hand"
	dealerAKplus = "As Kd 8h 4c 2s"
)

func TestSettleSSPv6(t *testing.T) {
	runCases(t, "mbs-megalink-ssp-v6", []settleCase{
		{name: "3.10.3.1 4.1.2 full house wins ante 1 to 1 and bet 7 to 1",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "Qh Qd Qs 9c 9d", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet win 2000>16000`,
			cites: []string{"3.10.3.1", "4.1.1", "4.1.2"}},
		{name: "4.1.2 royal flush bet 250 to 1, 4.2 royal 100% of the pool is eligibility only (R2, R3)",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{pos(3, "Th Jh Qh Kh Ah", "ante=1000 bet=2000 progressive=100")}}, 100),
			want: `3 ante win 1000>2000
			       3 bet win 2000>502000
			       3 progressive win 100>0`,
			cites: []string{"4.2", "ruling R3"},
			check: func(t *testing.T, s Settlement) {
				if got := jackpot(t, s, 3); got != "progressive hand royal_flush 100% of the pool x1 pool" {
					t.Errorf("jackpot %q", got)
				}
				if h := s.Hits(); len(h) != 1 || h[0].Seat != 3 || h[0].Prize.BasisPoints != 10000 {
					t.Errorf("hits %+v", h)
				}
			}},
		{name: "4.2 straight flush 10% of the pool",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{pos(1, "5d 6d 7d 8d 9d", "ante=1000 bet=2000 progressive=100")}}, 100),
			want: `1 ante win 1000>2000
			       1 bet win 2000>102000
			       1 progressive win 100>0`,
			check: func(t *testing.T, s Settlement) {
				if got := jackpot(t, s, 1); got != "progressive hand straight_flush 10% of the pool x1 pool" {
					t.Errorf("jackpot %q", got)
				}
			}},
		{name: "4.2 four of a kind SGD 2000 fixed, no stake back (R2)",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{pos(1, "9s 9h 9d 9c 3d", "ante=1000 bet=2000 progressive=500")}}, 500),
			want: `1 ante win 1000>2000
			       1 bet win 2000>42000
			       1 progressive win 500>200000`,
			cites: []string{"4.2", "ruling R2", "3.13"}},
		{name: "3.10.3.2 lower hand loses ante and bet, progressive loses",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{pos(1, "Kc Qd 8s 5h 3d", "ante=1000 bet=2000 progressive=100")}}, 100),
			want: `1 ante lose 1000>0
			       1 bet lose 2000>0
			       1 progressive lose 100>0`,
			cites: []string{"3.10.3.2"}},
		{name: "3.10.2.1 3.10.2.2 dealer no hand: ante paid, bet returned",
			round: Round{Dealer: dealerKHigh, Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet returned 2000>2000`,
			cites: []string{"3.10.2.1", "3.10.2.2"},
			check: func(t *testing.T, s Settlement) {
				if s.Dealer.Qualifies || seatOf(t, s, 1).Outcome != OutcomeNoHand {
					t.Error("dealer King high must not qualify")
				}
			}},
		{name: "3.10.2.3 dealer no hand: progressive flush paid",
			round: unit(Round{Dealer: dealerKHigh, Positions: []Position{pos(1, "2h 5h 8h Jh Ah", "ante=1000 bet=2000 progressive=100")}}, 100),
			want: `1 ante win 1000>2000
			       1 bet returned 2000>2000
			       1 progressive win 100>10000`,
			cites: []string{"3.10.2.3"}},
		{name: "3.9.1 3.10.2.2 folded ante lost even when the dealer has no hand",
			round: Round{Dealer: dealerKHigh, Positions: []Position{folded(pos(1, "3c 3d 8s 9h Jd", "ante=1000"))}},
			want:  `1 ante lose 1000>0`,
			cites: []string{"3.9.1"}},
		{name: "ruling R20 an ante with no bet has folded",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=1000")}},
			want:  `1 ante lose 1000>0`,
			cites: []string{"3.9.1", "ruling R20"}},
		{name: "3.9.1 ruling R9 a fold keeps progressive eligibility",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{folded(pos(1, "2h 5h 8h Jh Kh", "ante=1000 progressive=100"))}}, 100),
			want: `1 ante lose 1000>0
			       1 progressive win 100>10000`,
			cites: []string{"ruling R9", "4.2"}},
		{name: "3.10.1 ruling R19 a declined hand loses everything, royal included",
			round: unit(Round{Dealer: dealerKHigh, Positions: []Position{declined(pos(1, "Th Jh Qh Kh Ah", "ante=1000 bet=2000 progressive=100"))}}, 100),
			want: `1 ante lose 1000>0
			       1 bet lose 2000>0
			       1 progressive lose 100>0`,
			cites: []string{"3.10.1", "ruling R19"},
			check: func(t *testing.T, s Settlement) {
				if len(s.Hits()) != 0 {
					t.Error("ruling R8: a declined hand has no jackpot combination")
				}
			}},
		{name: "ruling R8 a declined hand may omit its cards",
			round: Round{Dealer: dealerAK, Positions: []Position{declined(pos(1, "", "ante=1000 bet=2000"))}},
			want: `1 ante lose 1000>0
			       1 bet lose 2000>0`},
		{name: "3.10.4 3.12.1 same ranks: stand-off",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "Ac Kh 7d 4d 2c", "ante=1000 bet=2000")}},
			want: `1 ante push 1000>1000
			       1 bet push 2000>2000`,
			cites: []string{"3.10.4", "3.12.1"}},
		{name: "3.12 high cards compared in order",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "Ac Kh 8d 3d 2c", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet win 2000>4000`,
			cites: []string{"3.12"}},
		{name: "3.12.2 two pairs: the odd card decides",
			round: Round{Dealer: "Ks Kd 7h 7c 2s", Positions: []Position{pos(1, "Kh Kc 7s 7d 3c", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet win 2000>6000`,
			cites: []string{"3.12.2"}},
		{name: "3.12.3 one pair: the unpaired cards decide",
			round: Round{Dealer: "8s 8d Jh 9c 7s", Positions: []Position{pos(1, "8h 8c Qd 2c 3h", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet win 2000>4000`,
			cites: []string{"3.12.3"}},
		{name: "3.12.4 a six-high straight beats the wheel (which qualifies, ruling R15)",
			round: Round{Dealer: "As 2d 3h 4c 5s", Positions: []Position{pos(1, "2s 3d 4h 5c 6s", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet win 2000>10000`,
			cites: []string{"3.12.4", "ruling R15"}},
		{name: "3.12.5 full houses: the three of a kind decides",
			round: Round{Dealer: "Ks Kd Kh 2c 2s", Positions: []Position{pos(1, "Qs Qd Qh Ac Ad", "ante=1000 bet=2000")}},
			want: `1 ante lose 1000>0
			       1 bet lose 2000>0`,
			cites: []string{"3.12.5", "3.10.3.2"}},
		{name: "3.12.6 straights of the same ranks: stand-off",
			round: Round{Dealer: "8s 9d Th Jc Qs", Positions: []Position{pos(1, "8h 9c Td Js Qd", "ante=1000 bet=2000")}},
			want: `1 ante push 1000>1000
			       1 bet push 2000>2000`,
			cites: []string{"3.12.6"}},
		{name: "5.1 ruling R12 a card twice in the round voids it",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{pos(1, "As 3d 8s 9h Jd", "ante=1000 bet=2000"), pos(2, "Kc Kh 2d 5c 6c", "ante=500 progressive=100")}}, 100),
			want: `1 ante void 1000>1000
			       1 bet void 2000>2000
			       2 ante void 500>500
			       2 progressive void 100>100`,
			cites: []string{"5.1", "ruling R12"},
			check: func(t *testing.T, s Settlement) {
				if !s.Void || s.Dealer != nil || s.Irregularities[0].Code != "duplicate_card" || s.Totals.HouseNet != 0 {
					t.Errorf("void %v irregularities %+v", s.Void, s.Irregularities)
				}
			}},
		{name: "5.3 a wrong number of cards to the dealer voids the round",
			round: Round{Dealer: "As Kd 7h 4c", Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=1000 bet=2000")}},
			want: `1 ante void 1000>1000
			       1 bet void 2000>2000`,
			cites: []string{"5.3"}},
		{name: "5.7 a wrong number of cards to a player removes that hand only",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{pos(1, "3c 3d 8s 9h", "ante=1000 bet=2000 progressive=100"), pos(2, "Qh Qd Qs 9c 9d", "ante=1000 bet=2000")}}, 100),
			want: `1 ante returned 1000>1000
			       1 bet returned 2000>2000
			       1 progressive returned 100>100
			       2 ante win 1000>2000
			       2 bet win 2000>16000`,
			cites: []string{"5.7", "ruling R12"},
			check: func(t *testing.T, s Settlement) {
				if seatOf(t, s, 1).Outcome != OutcomeRemoved {
					t.Error("outcome")
				}
			}},
		{name: "5.12.2 a progressive wager without an ante is returned",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{pos(2, "9s 9h 9d 9c 3d", "progressive=100")}}, 100),
			want:  `2 progressive returned 100>100`,
			cites: []string{"5.12.2"}},
		{name: "5.11 absent at the Bet decision: ante and progressive returned",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{absent(pos(1, "9s 9h 9d 9c 3d", "ante=1000 progressive=100"))}}, 100),
			want: `1 ante returned 1000>1000
			       1 progressive returned 100>100`,
			cites: []string{"5.11"}},
		{name: "5.14 ruling R11 over the maximum settles as the maximum, the excess returned",
			round: Round{Dealer: dealerAK, Limits: map[string]Limit{"ante": {Min: 100, Max: 500}, "bet": {Max: 1000}},
				Positions: []Position{pos(1, "Qh Qd Qs 9c 9d", "ante=1000 bet=2000")}},
			want: `1 ante win 500>1000
			       1 ante returned 500>500
			       1 bet win 1000>8000
			       1 bet returned 1000>1000`,
			cites: []string{"5.14", "ruling R11"}},
		{name: "5.14 ruling R11 a losing wager over the maximum is collected to the maximum",
			round: Round{Dealer: dealerAK, Limits: map[string]Limit{"ante": {Max: 500}},
				Positions: []Position{pos(1, "Kc Qd 8s 5h 3d", "ante=1000 bet=2000")}},
			want: `1 ante lose 500>0
			       1 ante returned 500>500
			       1 bet lose 2000>0`},
		{name: "5.13 ruling R11 under the minimum settles once and is flagged",
			round: Round{Dealer: dealerAK, Limits: map[string]Limit{"ante": {Min: 2000}},
				Positions: []Position{pos(1, "Qh Qd Qs 9c 9d", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet win 2000>16000`,
			cites: []string{"5.13"},
			check: func(t *testing.T, s Settlement) {
				if !hasFlag(s.Positions[0].Lines[0], "under_minimum") || s.Irregularities[0].Code != "under_minimum" {
					t.Errorf("not flagged: %+v", s.Irregularities)
				}
			}},
	})
}

func TestSettleSSPv4(t *testing.T) {
	no, yes := false, true
	sel := func(r Round, magic string, lucky int, dealer *bool) Round {
		r.MagicCard, r.LuckyPlayerSeat, r.LuckyDealer = magic, lucky, dealer
		return r
	}
	runCases(t, "mbs-ssp-v4", []settleCase{
		{name: "4.2 four of a kind 500 to 1 on the player jackpot wager",
			round: sel(Round{Dealer: dealerAK, Positions: []Position{pos(1, "9s 9h 9d 9c 3d", "ante=1000 bet=2000 progressivePlayer=100")}}, "2c", 7, &no),
			want: `1 ante win 1000>2000
			       1 bet win 2000>42000
			       1 progressivePlayer win 100>50100`,
			cites: []string{"4.2", "3.13.1", "ruling R2"}},
		{name: "4.3 ruling R18 four of a kind and the Magic Card both pay, stake back once",
			round: sel(Round{Dealer: dealerAK, Positions: []Position{pos(1, "9s 9h 9d 9c 3d", "ante=1000 bet=2000 progressivePlayer=100")}}, "3d", 7, &no),
			want: `1 ante win 1000>2000
			       1 bet win 2000>42000
			       1 progressivePlayer win 100>50600`,
			cites: []string{"4.3", "4.5", "ruling R18"}},
		{name: "4.4 Lucky Player alone pays 5 to 1",
			round: sel(Round{Dealer: dealerAK, Positions: []Position{pos(4, "3c 3d 8s 9h Jd", "ante=1000 progressivePlayer=100")}}, "2c", 4, &no),
			want: `4 ante lose 1000>0
			       4 progressivePlayer win 100>600`,
			cites: []string{"4.4", "ruling R13"}},
		{name: "4.2 4.3.1 4.4.1 dealer flush, Magic Card in the dealer's hand and Lucky Dealer",
			round: sel(Round{Dealer: "2d 5d 8d Jd Kd", Positions: []Position{pos(1, "3c 3h 8s 9h Jc", "ante=1000 bet=2000 progressiveDealer=100")}}, "Jd", 7, &yes),
			want: `1 ante lose 1000>0
			       1 bet lose 2000>0
			       1 progressiveDealer win 100>6100`,
			cites: []string{"4.3.1", "4.4.1", "ruling R18"}},
		{name: "4.2 royal flush: pool eligibility, nothing from the house",
			round: sel(Round{Dealer: dealerAK, Positions: []Position{pos(1, "Th Jh Qh Kh Ah", "ante=1000 bet=2000 progressivePlayer=100")}}, "2c", 7, &no),
			want: `1 ante win 1000>2000
			       1 bet win 2000>502000
			       1 progressivePlayer win 100>0`,
			check: func(t *testing.T, s Settlement) {
				if got := jackpot(t, s, 1); got != "progressivePlayer hand royal_flush 100% of the pool x1 pool" {
					t.Errorf("jackpot %q", got)
				}
			}},
		{name: "ruling R18 royal flush and Lucky Player: the 5 to 1 pays with the stake, the pool prize apart",
			round: sel(Round{Dealer: dealerAK, Positions: []Position{pos(2, "Th Jh Qh Kh Ah", "ante=1000 bet=2000 progressivePlayer=100")}}, "2c", 2, &no),
			want: `2 ante win 1000>2000
			       2 bet win 2000>502000
			       2 progressivePlayer win 100>600`},
		{name: "ruling R8 R19 declined: cards decide nothing, the Lucky Player still pays",
			round: sel(Round{Dealer: dealerAK, Positions: []Position{declined(pos(2, "9s 9h 9d 9c 3d", "ante=1000 bet=2000 progressivePlayer=100"))}}, "3d", 2, &no),
			want: `2 ante lose 1000>0
			       2 bet lose 2000>0
			       2 progressivePlayer win 100>600`,
			cites: []string{"ruling R8", "ruling R19"}},
		{name: "3.12 3.12.1 3.12.2 dealer no hand",
			round: Round{Dealer: dealerKHigh, Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet returned 2000>2000`,
			cites: []string{"3.12.1", "3.12.2"}},
		{name: "3.16 a tie is a stand-off on Ante and Bet",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "Ac Kh 7d 4d 2c", "ante=1000 bet=2000")}},
			want: `1 ante push 1000>1000
			       1 bet push 2000>2000`,
			cites: []string{"3.16"}},
		{name: "3.15 one pair, next highest card",
			round: Round{Dealer: "8s 8d Jh 9c 7s", Positions: []Position{pos(1, "8h 8c Qd 2c 3h", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet win 2000>4000`,
			cites: []string{"3.15", "3.13.1"}},
		{name: "3.9 fold loses the ante",
			round: Round{Dealer: dealerAK, Positions: []Position{folded(pos(1, "3c 3d 8s 9h Jd", "ante=1000"))}},
			want:  `1 ante lose 1000>0`,
			cites: []string{"3.9"}},
		{name: "5.2 ruling R12 a wrong number of cards to a player voids the round",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "3c 3d 8s 9h", "ante=1000 bet=2000"), pos(2, "Qh Qd Qs 9c 9d", "ante=1000 bet=2000")}},
			want: `1 ante void 1000>1000
			       1 bet void 2000>2000
			       2 ante void 1000>1000
			       2 bet void 2000>2000`,
			cites: []string{"5.2", "ruling R12"}},
		{name: "3.5 a jackpot wager without an ante is returned",
			round: sel(Round{Dealer: dealerAK, Positions: []Position{pos(1, "9s 9h 9d 9c 3d", "progressivePlayer=100 progressiveDealer=100")}}, "3d", 1, &yes),
			want: `1 progressivePlayer returned 100>100
			       1 progressiveDealer returned 100>100`,
			cites: []string{"3.5"}},
	})
}

func TestSettleRWS(t *testing.T) {
	runCases(t, "rws-mlp-csp-v2", []settleCase{
		{name: "3.14.1 4.1 a straight wins ante 1 to 1 and BET 4 to 1",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "5s 6d 7c 8h 9d", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet win 2000>10000`,
			cites: []string{"3.14.1", "4.1"}},
		{name: "3.13 dealer no qualifying hand: ante wins, BET returned",
			round: Round{Dealer: dealerKHigh, Positions: []Position{pos(1, "5s 6d 7c 8h 9d", "ante=1000 bet=2000")}},
			want: `1 ante win 1000>2000
			       1 bet returned 2000>2000`,
			cites: []string{"3.13", "1.14"}},
		{name: "3.14.2 lower hand loses all bets except the progressive",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{pos(1, "Kc Qd 8s 5h 3d", "ante=1000 bet=2000 progressive=100")}}, 100),
			want: `1 ante lose 1000>0
			       1 bet lose 2000>0
			       1 progressive lose 100>0`,
			cites: []string{"3.14.2"}},
		{name: "3.14.3 3.1.3 stand-off",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "Ac Kh 7d 4d 2c", "ante=1000 bet=2000")}},
			want: `1 ante push 1000>1000
			       1 bet push 2000>2000`,
			cites: []string{"3.14.3", "3.1.3"}},
		{name: "4.1.1 ruling R11 the BET wins at most SGD 100,000 per box, stake on top",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "5d 6d 7d 8d 9d", "ante=2000000 bet=4000000")}},
			want: `1 ante win 2000000>4000000
			       1 bet win 4000000>14000000`,
			cites: []string{"4.1.1", "ruling R11"},
			check: func(t *testing.T, s Settlement) {
				if !hasFlag(s.Positions[0].Lines[1], "capped") {
					t.Error("not flagged capped")
				}
			}},
		{name: "5.3.1 a BET above twice the ante: excess returned, settles at twice the ante",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "Ac Kh 8d 3d 2c", "ante=1000 bet=3000")}},
			want: `1 ante win 1000>2000
			       1 bet win 2000>4000
			       1 bet returned 1000>1000`,
			cites: []string{"5.3.1"}},
		{name: "5.3.2 a BET below twice the ante settles on its own amount",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "Kh Kc 7s 7d 3c", "ante=1000 bet=1500")}},
			want: `1 ante win 1000>2000
			       1 bet win 1500>4500`,
			cites: []string{"5.3.2"}},
		{name: "5.5 walked away before the BET decision: deemed folded, progressive still eligible",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{absent(pos(1, "2h 5h 8h Jh Kh", "ante=1000 progressive=100"))}}, 100),
			want: `1 ante lose 1000>0
			       1 progressive win 100>10000`,
			cites: []string{"5.5", "ruling R9"}},
		{name: "5.6 walked away with no decision left: settled as usual",
			round: Round{Dealer: dealerAK, Positions: []Position{absent(pos(1, "5s 6d 7c 8h 9d", "ante=1000 bet=2000"))}},
			want: `1 ante win 1000>2000
			       1 bet win 2000>10000`,
			cites: []string{"5.6"}},
		{name: "4.3 ruling R8 refusing to reveal is a fold: ante and BET lost, jackpot from the cards supplied",
			round: unit(Round{Dealer: dealerKHigh, Positions: []Position{declined(pos(1, "2h 5h 8h Jh Ah", "ante=1000 bet=2000 progressive=100"))}}, 100),
			want: `1 ante lose 1000>0
			       1 bet lose 2000>0
			       1 progressive win 100>10000`,
			cites: []string{"4.3", "ruling R8"}},
		{name: "5.4 a progressive bet without an ante is returned",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{pos(1, "2h 5h 8h Jh Kh", "progressive=100")}}, 100),
			want:  `1 progressive returned 100>100`,
			cites: []string{"5.4"}},
		{name: "5.8.1 5.22 a card twice voids the round, every bet returned",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "As 6d 7c 8h 9d", "ante=1000 bet=2000")}},
			want: `1 ante void 1000>1000
			       1 bet void 2000>2000`,
			cites: []string{"5.8.1", "5.22"}},
		{name: "5.8.7 a wrong number of cards to the dealer voids the round",
			round: Round{Dealer: "As Kd 7h 4c 2s 3s", Positions: []Position{pos(1, "5s 6d 7c 8h 9d", "ante=1000 bet=2000")}},
			want: `1 ante void 1000>1000
			       1 bet void 2000>2000`,
			cites: []string{"5.8.7"}},
		{name: "5.15 a wrong number of cards to a player invalidates the hand",
			round: Round{Dealer: dealerAK, Positions: []Position{pos(1, "5s 6d 7c 8h 9d Tc", "ante=1000 bet=2000")}},
			want: `1 ante returned 1000>1000
			       1 bet returned 2000>2000`,
			cites: []string{"5.15"}},
		{name: "5.1.1 ruling R11 over the maximum (the BET is still twice the ante placed: 5.3 does not apply)",
			round: Round{Dealer: dealerAK, Limits: map[string]Limit{"ante": {Max: 800}}, Positions: []Position{pos(1, "5s 6d 7c 8h 9d", "ante=1000 bet=2000")}},
			want: `1 ante win 800>1600
			       1 ante returned 200>200
			       1 bet win 2000>10000`,
			cites: []string{"5.1.1"}},
		{name: "4.5.1 two majors at one table: hits in dealing (seat) order",
			round: unit(Round{Dealer: dealerAK, Positions: []Position{
				pos(5, "Tc Jc Qc Kc Ac", "ante=1000 bet=2000 progressive=100"),
				pos(2, "Th Jh Qh Kh Ah", "ante=1000 bet=2000 progressive=100")}}, 100),
			want: `2 ante win 1000>2000
			       2 bet win 2000>502000
			       2 progressive win 100>0
			       5 ante win 1000>2000
			       5 bet win 2000>502000
			       5 progressive win 100>0`,
			check: func(t *testing.T, s Settlement) {
				h := s.Hits()
				if len(h) != 2 || h[0].Seat != 2 || h[1].Seat != 5 {
					t.Errorf("hits %+v", h)
				}
			}},
	})
}
