package settle

import (
	"strings"
	"testing"
)

// irrs writes a settlement's irregularities compactly: "absent_player@1".
func irrs(s Settlement) string {
	var parts []string
	for _, irr := range s.Irregularities {
		parts = append(parts, irr.Code+"@"+itoa(irr.Seat))
	}
	return strings.Join(parts, " ")
}

// Ruling R12: a player absent is an irregularity the cards cannot show; it
// is reported as an event with its facts, and the money is what the
// ruleset prescribes. With no decision left to make (MBS 5.11 invalidates
// a hand only at the Bet/Play/Flop decision; THB 5.11 deems a check at the
// Turn/River), the wagers settle as usual, and the absence is still
// reported, as RWS 5.6 reports it.
func TestAbsentWithNoDecisionLeftIsReported(t *testing.T) {
	cases := []struct {
		name  string
		round Round
		want  string
		cites []string
	}{
		{"mbs-megalink-ssp-v6 5.11 ruling R12 absent after the Bet: settles as usual, reported",
			Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "Ad Kc 9h 4s 5d", ProgressiveUnit: 100,
				Positions: []Position{absent(pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200 progressive=100"))}},
			`1 ante win 100>200
			 1 bet win 200>1600
			 1 progressive win 100>20000`,
			[]string{"mbs-megalink-ssp-v6 5.11", "ruling R12"}},
		{"mbs-megalink-tcp-v6 3.9.3 5.11 ruling R12 a Pair-Plus-only player absent: pair plus settles, reported",
			Round{Ruleset: "mbs-megalink-tcp-v6", Dealer: tcpDealerQ, Community: tcpCommunity,
				Positions: []Position{absent(pos(2, "Ks Kd 4h", "pairPlus=500"))}},
			`2 pairPlus win 500>1000`,
			[]string{"mbs-megalink-tcp-v6 3.9.3", "mbs-megalink-tcp-v6 5.11", "ruling R12"}},
		{"mbs-megalink-thb-v9 5.11 ruling R12 absent with flop, turn and river placed: settles as usual, reported",
			Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard,
				Positions: []Position{absent(pos(3, "Ah Ad", "ante=1000 flop=2000 turn=1000 river=1000"))}},
			`3 ante push 1000>1000
			 3 flop win 2000>4000
			 3 turn win 1000>2000
			 3 river win 1000>2000`,
			[]string{"mbs-megalink-thb-v9 5.11", "ruling R12"}},
		{"mbs-ssp-v4 ruling R12 absent after the Bet (no absent-player clause): settles as usual, reported",
			Round{Ruleset: "mbs-ssp-v4", Dealer: "Ad Kc 9h 4s 5d",
				Positions: []Position{absent(pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200"))}},
			`1 ante win 100>200
			 1 bet win 200>1600`,
			[]string{"ruling R12"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Settle(tc.round)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.TrimSpace(lines(s)), dedent(tc.want); got != want {
				t.Errorf("lines:\n%s\nwant:\n%s", got, want)
			}
			seat := tc.round.Positions[0].Seat
			if got, want := irrs(s), "absent_player@"+itoa(seat); got != want {
				t.Fatalf("irregularities %q, want %q", got, want)
			}
			got := map[string]bool{}
			for _, r := range s.Irregularities[0].Rules {
				got[r] = true
			}
			for _, c := range tc.cites {
				if !got[c] {
					t.Errorf("the event does not cite %q: %v", c, s.Irregularities[0].Rules)
				}
			}
			checkMoney(t, s)
		})
	}
}
