package settle

import (
	"slices"
	"strings"
	"testing"
)

const (
	tcpDealerQ   = "Qs 7d 3h" // Queen high: qualifies (3.11, ruling R15)
	tcpDealerJ   = "Js 7d 3h" // Jack high: does not
	tcpCommunity = "2c 9d"
)

func TestSettleTCPv6(t *testing.T) {
	tcp := func(dealer string, ps ...Position) Round {
		return Round{Dealer: dealer, Community: tcpCommunity, Positions: ps}
	}
	runCases(t, "mbs-megalink-tcp-v6", []settleCase{
		{name: "3.12.1 4.1 a higher hand wins ante and play 1 to 1",
			round: tcp(tcpDealerQ, pos(1, "Kh 8c 4d", "ante=1000 play=1000")),
			want: `1 ante win 1000>2000
			       1 play win 1000>2000`,
			cites: []string{"3.12.1", "4.1"}},
		{name: "3.12.2 a lower hand loses ante and play",
			round: tcp(tcpDealerQ, pos(1, "Jh 8c 4d", "ante=1000 play=1000")),
			want: `1 ante lose 1000>0
			       1 play lose 1000>0`,
			cites: []string{"3.12.2"}},
		{name: "3.12.3 3.15.1 same ranks: stand-off",
			round: tcp(tcpDealerQ, pos(1, "Qc 7h 3s", "ante=1000 play=1000")),
			want: `1 ante push 1000>1000
			       1 play push 1000>1000`,
			cites: []string{"3.12.3", "3.15.1"}},
		{name: "3.11.1 3.11.2 ruling R10 dealer does not qualify: ante paid, play returned",
			round: tcp(tcpDealerJ, pos(1, "5h 6c Ts", "ante=1000 play=1000")),
			want: `1 ante win 1000>2000
			       1 play returned 1000>1000`,
			cites: []string{"3.11.1", "3.11.2", "ruling R10"}},
		{name: "ruling R15 2-3-4 qualifies (a straight ranks above Queen high)",
			round: tcp("2s 3d 4h", pos(1, "Ah Kd 8s", "ante=1000 play=1000")),
			want: `1 ante lose 1000>0
			       1 play lose 1000>0`,
			cites: []string{"ruling R15", "3.12.2"}},
		{name: "3.12.4 4.2 4.3 straight flush: ante bonus 5 to 1 and pair plus 40 to 1",
			round: tcp(tcpDealerQ, pos(1, "4h 5h 6h", "ante=1000 play=1000 pairPlus=500")),
			want: `1 ante win 1000>2000
			       1 anteBonus win 0>5000
			       1 play win 1000>2000
			       1 pairPlus win 500>20500`,
			cites: []string{"3.12.4", "4.2", "4.3", "3.12.5"}},
		{name: "3.11.3 ante bonus paid whatever the dealer holds: three of a kind 4 to 1 and pair plus 30 to 1",
			round: tcp(tcpDealerJ, pos(1, "8h 8c 8s", "ante=1000 play=1000 pairPlus=500")),
			want: `1 ante win 1000>2000
			       1 anteBonus win 0>4000
			       1 play returned 1000>1000
			       1 pairPlus win 500>15500`,
			cites: []string{"3.11.3", "3.11.4"}},
		{name: "3.12.4 ante bonus paid even when the hand loses: straight 1 to 1",
			round: tcp("Ks Qd Jh", pos(1, "4c 5d 6s", "ante=1000 play=1000")),
			want: `1 ante lose 1000>0
			       1 anteBonus win 0>1000
			       1 play lose 1000>0`},
		{name: "3.9.1 3.9.1.1 ruling R10 fold: ante lost, no ante bonus, pair plus settles",
			round: tcp(tcpDealerQ, folded(pos(1, "4c 5d 6s", "ante=1000 pairPlus=500"))),
			want: `1 ante lose 1000>0
			       1 pairPlus win 500>3000`,
			cites: []string{"3.9.1", "3.9.1.1"}},
		{name: "4.3 pair plus flush 4 to 1, lost on a high card",
			round: tcp(tcpDealerQ, pos(1, "2h 9h Jh", "ante=1000 play=1000 pairPlus=500"), pos(2, "Kc 8d 4s", "ante=1000 play=1000 pairPlus=500")),
			want: `1 ante win 1000>2000
			       1 play win 1000>2000
			       1 pairPlus win 500>2500
			       2 ante win 1000>2000
			       2 play win 1000>2000
			       2 pairPlus lose 500>0`},
		{name: "3.9.3 a Pair Plus only player",
			round: tcp(tcpDealerQ, pos(1, "Ks Kd 2h", "pairPlus=500")),
			want:  `1 pairPlus win 500>1000`,
			cites: []string{"3.9.3"},
			check: func(t *testing.T, s Settlement) {
				if seatOf(t, s, 1).Outcome != OutcomeNoContest {
					t.Error("outcome")
				}
			}},
		{name: "3.15.2 pairs: the odd card decides",
			round: tcp("Qs Qd 3h", pos(1, "Qc Qh 5s", "ante=1000 play=1000")),
			want: `1 ante win 1000>2000
			       1 play win 1000>2000`,
			cites: []string{"3.15.2"}},
		{name: "3.15.3 a straight with a four or higher beats A-2-3",
			round: tcp("As 2d 3h", pos(1, "2s 3d 4h", "ante=1000 play=1000")),
			want: `1 ante win 1000>2000
			       1 anteBonus win 0>1000
			       1 play win 1000>2000`,
			cites: []string{"3.15.3"}},
		{name: "3.15.4 straights of the same ranks: stand-off",
			round: tcp("8s 9s Th", pos(1, "8h 9h Td", "ante=1000 play=1000")),
			want: `1 ante push 1000>1000
			       1 anteBonus win 0>1000
			       1 play push 1000>1000`,
			cites: []string{"3.15.4"}},
		{name: "3.13 4.4 four of a kind with the community cards: SGD 2000",
			round: unit(Round{Dealer: tcpDealerQ, Community: "Ac As", Positions: []Position{pos(1, "Ah Ad 5c", "ante=1000 play=1000 progressive=100")}}, 100),
			want: `1 ante win 1000>2000
			       1 play win 1000>2000
			       1 progressive win 100>200000`,
			cites: []string{"3.13", "4.4", "3.16"},
			check: func(t *testing.T, s Settlement) {
				if p := seatOf(t, s, 1); p.Progressive == nil || p.Progressive.Category != "four_of_a_kind" || p.Hand.Category != "one_pair" {
					t.Errorf("hands %+v %+v", p.Hand, p.Progressive)
				}
			}},
		{name: "3.10.2 ruling R19 declined: pair plus lost too, no jackpot",
			round: unit(Round{Dealer: tcpDealerQ, Community: "Ac As", Positions: []Position{declined(pos(1, "Ah Ad 5c", "ante=1000 play=1000 pairPlus=500 progressive=100"))}}, 100),
			want: `1 ante lose 1000>0
			       1 play lose 1000>0
			       1 pairPlus lose 500>0
			       1 progressive lose 100>0`,
			cites: []string{"3.10.2", "ruling R19"}},
		{name: "5.11 absent at the Play decision: ante, pair plus and progressive returned",
			round: unit(tcp(tcpDealerQ, absent(pos(1, "Ks Kd 2h", "ante=1000 pairPlus=500 progressive=100"))), 100),
			want: `1 ante returned 1000>1000
			       1 pairPlus returned 500>500
			       1 progressive returned 100>100`,
			cites: []string{"5.11"}},
		{name: "5.12.2 a progressive wager without ante or pair plus is returned",
			round: unit(tcp(tcpDealerQ, pos(1, "Ks Kd 2h", "progressive=100")), 100),
			want:  `1 progressive returned 100>100`,
			cites: []string{"5.12.2"}},
		{name: "5.3 a wrong number of community cards voids the round",
			round: Round{Dealer: tcpDealerQ, Community: "2c", Positions: []Position{pos(1, "Kh 8c 4d", "ante=1000 play=1000")}},
			want: `1 ante void 1000>1000
			       1 play void 1000>1000`,
			cites: []string{"5.3"}},
		{name: "5.7 a wrong number of cards to a player",
			round: tcp(tcpDealerQ, pos(1, "Kh 8c", "ante=1000 play=1000")),
			want: `1 ante returned 1000>1000
			       1 play returned 1000>1000`,
			cites: []string{"5.7"}},
	})
}

const thbBoard = "5c 6d 9h Js 2s"

func TestSettleTHBv9(t *testing.T) {
	thb := func(dealer, board string, ps ...Position) Round {
		return Round{Dealer: dealer, Community: board, Positions: ps}
	}
	runCases(t, "mbs-megalink-thb-v9", []settleCase{
		{name: "3.10.2 4.1.1 a winning straight wins the ante too",
			round: thb("Ah Kd", thbBoard, pos(1, "7h 8c", "ante=1000 flop=2000 turn=1000 river=1000")),
			want: `1 ante win 1000>2000
			       1 flop win 2000>4000
			       1 turn win 1000>2000
			       1 river win 1000>2000`,
			cites: []string{"3.10.2", "4.1.1"}},
		{name: "3.10.2 a winning hand below a straight: ante stand-off, a check is no wager",
			round: thb("Ah Kd", thbBoard, pos(1, "Jh 4c", "ante=1000 flop=2000 river=1000")),
			want: `1 ante push 1000>1000
			       1 flop win 2000>4000
			       1 river win 1000>2000`},
		{name: "3.10.3 ruling R16 a losing hand loses all but the bonus, which pays on the hole cards",
			round: thb("Jd Jc", thbBoard, pos(1, "Ac Kc", "ante=1000 bonus=500 flop=2000")),
			want: `1 ante lose 1000>0
			       1 bonus win 500>13000
			       1 flop lose 2000>0`,
			cites: []string{"3.10.3", "ruling R16"}},
		{name: "3.10.4 3.12.6 the board plays for both: stand-off",
			round: thb("4c 5d", "Tc Jd Qh Ks As", pos(1, "2h 3d", "ante=1000 flop=2000 turn=1000")),
			want: `1 ante push 1000>1000
			       1 flop push 2000>2000
			       1 turn push 1000>1000`,
			cites: []string{"3.10.4", "3.12.6"}},
		{name: "4.1.1 A-A against a dealer A-A pays 1000 to 1",
			round: thb("Ac As", "2c 5d 9h Js 3s", pos(1, "Ah Ad", "ante=1000 bonus=100 flop=2000")),
			want: `1 ante push 1000>1000
			       1 bonus win 100>100100
			       1 flop push 2000>2000`,
			cites: []string{"3.12.3"}},
		{name: "3.12.5 board trips: the higher pair wins",
			round: thb("4c 4d", "9c 9d 9h 2s 3s", pos(1, "Kh Kd", "ante=1000 bonus=100 flop=2000")),
			want: `1 ante win 1000>2000
			       1 bonus win 100>1100
			       1 flop win 2000>4000`,
			cites: []string{"3.12.5"}},
		{name: "3.12.4 a six-high straight beats the wheel",
			round: thb("Ad 4d", "2c 3d 5h Ks Qs", pos(1, "6h 4c", "ante=1000 flop=2000")),
			want: `1 ante win 1000>2000
			       1 flop win 2000>4000`,
			cites: []string{"3.12.4"}},
		{name: "3.12.2 two pairs, the fifth card decides",
			round: thb("Ad 3c", "Kc Kd 7h 7s 2s", pos(1, "Ah 4c", "ante=1000 flop=2000")),
			want: `1 ante push 1000>1000
			       1 flop push 2000>2000`,
			cites: []string{"3.12.2", "3.12.1"}},
		{name: "3.9.1 ruling R9 fold loses ante and bonus, the jackpot is still paid: four of a kind 400 for 1",
			round: unit(thb("Kh Qd", "Ac As 7d 2c 3h", folded(pos(1, "Ah Ad", "ante=1000 bonus=500 progressive=100"))), 100),
			want: `1 ante lose 1000>0
			       1 bonus lose 500>0
			       1 progressive win 100>40000`,
			cites: []string{"3.9.1", "ruling R9", "4.2"}},
		{name: "3.5.3.1 ruling R17 three times the minimum: full house 80 for 1 on the whole stake",
			round: unit(thb("Kh Qd", "Ac As 7d 2c 3h", mult(pos(1, "Ah 7s", "ante=1000 flop=2000 progressive=300"), 3)), 100),
			want: `1 ante win 1000>2000
			       1 flop win 2000>4000
			       1 progressive win 300>24000`,
			cites: []string{"3.5.3.1", "ruling R17"},
			check: func(t *testing.T, s Settlement) {
				if got := jackpot(t, s, 1); got != "progressive hand full_house 80 for 1 x3 house" {
					t.Errorf("jackpot %q", got)
				}
			}},
		{name: "3.5.3.1 ruling R17 a straight flush pays its percentage once whatever the multiplier",
			round: unit(thb("Kh Qd", "9c Tc Jc 2d 3h", mult(pos(1, "7c 8c", "ante=1000 flop=2000 progressive=500"), 5)), 100),
			want: `1 ante win 1000>2000
			       1 flop win 2000>4000
			       1 progressive win 500>0`,
			check: func(t *testing.T, s Settlement) {
				if got := jackpot(t, s, 1); got != "progressive hand straight_flush 10% of the pool x1 pool" {
					t.Errorf("jackpot %q", got)
				}
			}},
		{name: "4.2 the jackpot hand is the hole cards and the flop only, not the turn and river",
			round: unit(thb("Kh Qd", "9c Tc 2d Jc 3h", pos(1, "7c 8c", "ante=1000 flop=2000 progressive=100")), 100),
			want: `1 ante win 1000>2000
			       1 flop win 2000>4000
			       1 progressive lose 100>0`},
		{name: "4.2 straight 20 for 1",
			round: unit(thb("Kh 4d", "9c Td Jc 2d 3h", pos(1, "7c 8h", "ante=1000 flop=2000 progressive=100")), 100),
			want: `1 ante win 1000>2000
			       1 flop win 2000>4000
			       1 progressive win 100>2000`},
		{name: "3.10.1 ruling R19 declined: the bonus is lost too",
			round: unit(thb("Kh Qd", thbBoard, declined(pos(1, "Ah Ad", "ante=1000 bonus=500 flop=2000 progressive=100"))), 100),
			want: `1 ante lose 1000>0
			       1 bonus lose 500>0
			       1 flop lose 2000>0
			       1 progressive lose 100>0`,
			cites: []string{"3.10.1", "ruling R19"}},
		{name: "5.11 absent at the Flop decision: ante and progressive returned, the bonus settles (ruling R16)",
			round: unit(thb("Kh Qd", thbBoard, absent(pos(1, "Ah Ad", "ante=1000 bonus=500 progressive=100"))), 100),
			want: `1 ante returned 1000>1000
			       1 bonus win 500>15500
			       1 progressive returned 100>100`,
			cites: []string{"5.11", "ruling R16"},
			check: func(t *testing.T, s Settlement) {
				// The Bonus line itself cites both: 5.11 invalidated the hand,
				// ruling R16 keeps the Bonus (5.11 names only Ante and
				// progressive), and its note says so.
				l := seatOf(t, s, 1).Lines[1]
				if l.Wager != "bonus" || !slices.Contains(l.Rules, "mbs-megalink-thb-v9 5.11") || !slices.Contains(l.Rules, "ruling R16") ||
					!strings.Contains(l.Note, "ruling R16") {
					t.Errorf("bonus line %+v", l)
				}
			}},
		{name: "5.11 absent with ante and flop placed: deemed to check turn and river",
			round: thb("Kh Qd", thbBoard, absent(pos(1, "Ah Ad", "ante=1000 flop=2000"))),
			want: `1 ante push 1000>1000
			       1 flop win 2000>4000`,
			cites: []string{"5.11"}},
		{name: "5.12.2 a progressive wager without an ante is returned",
			round: unit(thb("Kh Qd", thbBoard, pos(1, "Ah Ad", "progressive=100")), 100),
			want:  `1 progressive returned 100>100`,
			cites: []string{"5.12.2"}},
		{name: "5.3 a wrong number of community cards voids the round",
			round: thb("Kh Qd", "5c 6d 9h Js", pos(1, "Ah Ad", "ante=1000 flop=2000")),
			want: `1 ante void 1000>1000
			       1 flop void 2000>2000`,
			cites: []string{"5.3"}},
	})
}
