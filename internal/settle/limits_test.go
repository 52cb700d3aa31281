package settle

import (
	"strings"
	"testing"
)

// RWS 5.3 compares the BET with the Ante as placed, not with the Ante as
// the table maximum settles it (ruling R11, RWS 5.1.1). 1.3 and 3.12.2
// define the BET as twice the Player's Ante, the wager placed; 5.1.1 then
// settles an over-maximum Ante "based on the maximum", which is how that
// wager is paid, not a new Ante for the BET to be measured against. A BET
// over its own maximum is cut by limits.bet. MBS is the same through ruling
// R20 (the Bet is refused unless it is twice the Ante placed) and 5.14.
func TestBetComparedWithAnteAsPlaced(t *testing.T) {
	for _, tc := range []struct {
		name  string
		round Round
		want  string
		irrs  string
	}{
		{"rws-mlp-csp-v2 5.3 5.1.1 ruling R11: ante 1000 over a 500 maximum, BET 2000 is twice the ante placed",
			Round{Ruleset: "rws-mlp-csp-v2", Dealer: dealerAK, Limits: map[string]Limit{"ante": {Min: 100, Max: 500}},
				Positions: []Position{pos(1, "Qh Qd Qs 9c 9d", "ante=1000 bet=2000")}},
			`1 ante win 500>1000
			 1 ante returned 500>500
			 1 bet win 2000>16000`,
			"over_maximum@1"},
		{"rws-mlp-csp-v2 5.3.1 a BET above twice the ante placed still has its excess returned",
			Round{Ruleset: "rws-mlp-csp-v2", Dealer: dealerAK, Limits: map[string]Limit{"ante": {Min: 100, Max: 500}},
				Positions: []Position{pos(1, "Qh Qd Qs 9c 9d", "ante=1000 bet=3000")}},
			`1 ante win 500>1000
			 1 ante returned 500>500
			 1 bet win 2000>16000
			 1 bet returned 1000>1000`,
			"over_maximum@1 bet_not_twice_ante@1"},
		{"mbs-megalink-ssp-v6 5.14 ruling R20 R11: the Bet is twice the ante placed; the ante settles at the maximum",
			Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: dealerAK, Limits: map[string]Limit{"ante": {Min: 100, Max: 500}},
				Positions: []Position{pos(1, "Qh Qd Qs 9c 9d", "ante=1000 bet=2000")}},
			`1 ante win 500>1000
			 1 ante returned 500>500
			 1 bet win 2000>16000`,
			"over_maximum@1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Settle(tc.round)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.TrimSpace(lines(s)), dedent(tc.want); got != want {
				t.Errorf("lines:\n%s\nwant:\n%s", got, want)
			}
			if got := irrs(s); got != tc.irrs {
				t.Errorf("irregularities %q, want %q", got, tc.irrs)
			}
			checkMoney(t, s)
		})
	}
}
