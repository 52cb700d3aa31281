package settle

import (
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// One request, one answer: with two bad limits the error names the first
// in sorted name order (validateLimits), whatever order Go visits the map
// in. Ruling: RFC 9457 errors name the field at fault (CONVENTIONS).
func TestErrorFieldIsDeterministic(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		r := Round{Ruleset: "mbs-megalink-ssp-v6", RoundID: "r", Dealer: "As Kd 7h 4c 2s",
			Limits:    map[string]Limit{"ante": {Min: 1000, Max: 500}, "bet": {Min: 1500, Max: 500}},
			Positions: []Position{pos(1, "Qh Qd Qs 9c 9d", "ante=1000")}}
		_, err := Settle(r)
		fe, _ := fault.As(err)
		seen[fe.Field()] = true
	}
	if len(seen) > 1 {
		t.Errorf("one request, several answers: %v", seen)
	}
	if !seen["limits.ante.max"] {
		t.Errorf("answer %v, want limits.ante.max (first in name order)", seen)
	}
}

// The wager map likewise: three bad wagers, the first in name order named.
func TestWagerErrorFieldIsDeterministic(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		r := Round{Ruleset: "mbs-megalink-ssp-v6", RoundID: "r", Dealer: "As Kd 7h 4c 2s",
			Positions: []Position{pos(1, "Qh Qd Qs 9c 9d", "ante=-5 bogus=100 bet=2000000000000 zzz=1")}}
		_, err := Settle(r)
		fe, _ := fault.As(err)
		seen[fe.Field()+": "+fe.Detail] = true
	}
	if len(seen) != 1 || !seen["positions[0].wagers.ante: a wager cannot be negative"] {
		t.Errorf("answers %v, want the one for positions[0].wagers.ante", seen)
	}
}

// MBS 5.11: an Ante with the Bet (Play, Flop) decision pending makes the
// hand invalid and returns the Ante (TCP: and Pair Plus) and progressive
// whatever the cards, so an absent player's cards may be left out. RWS 5.5
// deems a fold: the Ante is lost without its cards.
func TestAbsentWithoutCardsWhereCardsDecideNothing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		round Round
		want  string
	}{
		{"mbs-megalink-ssp-v6 5.11 ante only, no cards: ante returned",
			Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "Ad Kc 9h 4s 5d",
				Positions: []Position{absent(pos(1, "", "ante=100"))}},
			"1 ante returned 100>100"},
		{"mbs-megalink-ssp-v6 5.11 ante and progressive, no cards: both returned",
			Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "Ad Kc 9h 4s 5d", ProgressiveUnit: 100,
				Positions: []Position{absent(pos(1, "", "ante=100 progressive=100")), pos(2, "2h 2s 2c Jh Jd", "ante=100 bet=200")}},
			"1 ante returned 100>100\n1 progressive returned 100>100\n2 ante win 100>200\n2 bet win 200>1600"},
		{"mbs-megalink-tcp-v6 5.11 ante, pair plus and progressive, no cards: all returned",
			Round{Ruleset: "mbs-megalink-tcp-v6", Dealer: tcpDealerQ, Community: tcpCommunity, ProgressiveUnit: 100,
				Positions: []Position{absent(pos(3, "", "ante=500 pairPlus=300 progressive=100"))}},
			"3 ante returned 500>500\n3 pairPlus returned 300>300\n3 progressive returned 100>100"},
		{"mbs-megalink-thb-v9 5.11 ante only, no cards: ante returned",
			Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard,
				Positions: []Position{absent(pos(4, "", "ante=1000"))}},
			"4 ante returned 1000>1000"},
		{"rws-mlp-csp-v2 5.5 ante only, no cards: deemed folded, ante lost",
			Round{Ruleset: "rws-mlp-csp-v2", Dealer: "Ad Kc 9h 4s 5d",
				Positions: []Position{absent(pos(1, "", "ante=100"))}},
			"1 ante lose 100>0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Settle(tc.round)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(lines(s)); got != tc.want {
				t.Errorf("lines:\n%s\nwant:\n%s", got, tc.want)
			}
			for _, irr := range s.Irregularities {
				if irr.Code == "player_card_count" {
					t.Errorf("hand removed for its missing cards: %+v", irr)
				}
			}
		})
	}
}

// Where the absent hand's outcome does depend on its cards, they are
// required, and the refusal says why in terms of the absence.
func TestAbsentWithoutCardsRefusedWhereCardsDecide(t *testing.T) {
	for _, tc := range []struct {
		name  string
		round Round
		field string
		says  []string
	}{
		{"mbs-megalink-thb-v9 5.11 ante and flop: deemed to check, the hand plays on",
			Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard,
				Positions: []Position{absent(pos(1, "", "ante=1000 flop=2000"))}},
			"positions[0].cards", []string{"absent", "deemed to have checked", "mbs-megalink-thb-v9 5.11"}},
		{"mbs-megalink-thb-v9 5.11 ruling R16 ante and bonus: the Bonus settles on the hole cards",
			Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard,
				Positions: []Position{absent(pos(1, "", "ante=1000 bonus=500"))}},
			"positions[0].cards", []string{"absent", "Bonus", "ruling R16", "mbs-megalink-thb-v9 5.11"}},
		{"rws-mlp-csp-v2 5.5 ruling R9 ante and progressive: deemed folded, the jackpot needs the cards",
			Round{Ruleset: "rws-mlp-csp-v2", Dealer: "Ad Kc 9h 4s 5d", ProgressiveUnit: 100,
				Positions: []Position{absent(pos(1, "", "ante=100 progressive=100"))}},
			"positions[0].cards", []string{"absent", "deemed to have folded", "rws-mlp-csp-v2 5.5", "progressive"}},
		{"mbs-megalink-ssp-v6 5.11 ruling R12 bet placed: no decision left, settles on the cards",
			Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "Ad Kc 9h 4s 5d",
				Positions: []Position{absent(pos(1, "", "ante=100 bet=200"))}},
			"positions[0].cards", []string{"absent", "no decision left", "mbs-megalink-ssp-v6 5.11"}},
		{"mbs-ssp-v4 ruling R12 no absent-player clause: refused on absent",
			Round{Ruleset: "mbs-ssp-v4", Dealer: "Ad Kc 9h 4s 5d",
				Positions: []Position{absent(pos(1, "", "ante=100"))}},
			"positions[0].absent", []string{"no rule for a player absent"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Settle(tc.round)
			fe, ok := fault.As(err)
			if !ok {
				t.Fatalf("accepted, want a refusal on %s (err %v)", tc.field, err)
			}
			if fe.Field() != tc.field {
				t.Errorf("field %s, want %s (%s)", fe.Field(), tc.field, fe.Detail)
			}
			for _, w := range tc.says {
				if !strings.Contains(fe.Detail, w) {
					t.Errorf("message %q does not say %q", fe.Detail, w)
				}
			}
		})
	}
}

// TCP 3.9.1.1 folds the Ante; a Pair-Plus-only player (3.9.3) has none, so
// folded: true is refused rather than settled citing a fold that cannot be.
func TestTCPPairPlusOnlyFoldRefused(t *testing.T) {
	_, err := Settle(Round{Ruleset: "mbs-megalink-tcp-v6", Dealer: tcpDealerQ, Community: tcpCommunity,
		Positions: []Position{folded(pos(1, "Ks Kd 4h", "pairPlus=500"))}})
	fe, ok := fault.As(err)
	if !ok || fe.Field() != "positions[0].folded" || !strings.Contains(fe.Detail, "nothing to fold: no Ante") {
		t.Fatalf("err %v, want positions[0].folded: nothing to fold: no Ante", err)
	}
	// Without folded it settles: a pair pays 1 to 1 (4.3).
	s, err := Settle(Round{Ruleset: "mbs-megalink-tcp-v6", Dealer: tcpDealerQ, Community: tcpCommunity,
		Positions: []Position{pos(1, "Ks Kd 4h", "pairPlus=500")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(lines(s)); got != "1 pairPlus win 500>1000" {
		t.Errorf("lines %q", got)
	}
}

// A repeated card voids the round under 5.1 (extra or foreign cards) and
// its 5.1.1 at MBS; under 5.8.1 and 5.22 at RWS (ruling R12). A community
// count voids under TCP 5.3 alone.
func TestVoidCitations(t *testing.T) {
	for _, tc := range []struct {
		round Round
		want  []string
	}{
		{Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "As Kd 7h 4c 2s", Positions: []Position{pos(1, "As 3d 8s 9h Jd", "ante=1000 bet=2000")}},
			[]string{"mbs-megalink-ssp-v6 5.1", "mbs-megalink-ssp-v6 5.1.1", "ruling R12"}},
		{Round{Ruleset: "rws-mlp-csp-v2", Dealer: "As Kd 7h 4c 2s", Positions: []Position{pos(1, "As 3d 8s 9h Jd", "ante=1000 bet=2000")}},
			[]string{"rws-mlp-csp-v2 5.8.1", "rws-mlp-csp-v2 5.22", "ruling R12"}},
		{Round{Ruleset: "mbs-megalink-tcp-v6", Dealer: tcpDealerQ, Community: "2c", Positions: []Position{pos(1, "Ks Kd 4h", "ante=1000 play=1000")}},
			[]string{"mbs-megalink-tcp-v6 5.3", "ruling R12"}},
		{Round{Ruleset: "mbs-ssp-v4", Dealer: "As Kd 7h 4c", Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=1000 bet=2000")}},
			[]string{"mbs-ssp-v4 5.3", "ruling R12"}},
	} {
		t.Run(tc.round.Ruleset, func(t *testing.T) {
			s, err := Settle(tc.round)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Void || strings.TrimSpace(lines(s)) != "1 ante void 1000>1000\n1 "+map[bool]string{true: "play void 1000>1000", false: "bet void 2000>2000"}[tc.round.Ruleset == "mbs-megalink-tcp-v6"] {
				t.Errorf("void %v, lines:\n%s", s.Void, lines(s))
			}
			if got := lineRules(t, s, 1, "ante"); !slices.Equal(got, tc.want) {
				t.Errorf("rules %v, want %v", got, tc.want)
			}
		})
	}
}

// SSP v4: a dealer-hand jackpot wager paid only by a selection (Magic Card
// in the dealer's hand 4.3.1, Lucky Dealer 4.4.1, at 5 to 1 under 4.5)
// cites the wager (3.5) and the selection, not the paytable 4.2 nor 3.13.3
// (which pays by 4.2). A paytable hand cites 3.13.3 and 4.2.
func TestSSPv4SelectionOnlyDoesNotCitePaytable(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		name  string
		round Round
		want  string
		rules []string
	}{
		{"4.4.1 4.5 lucky dealer, dealer without a hand (3.12)",
			Round{Ruleset: "mbs-ssp-v4", Dealer: dealerKHigh, MagicCard: "Qc", LuckyPlayerSeat: 5, LuckyDealer: &yes,
				Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=100 bet=200 progressiveDealer=100")}},
			"1 progressiveDealer win 100>600",
			[]string{"mbs-ssp-v4 3.5", "mbs-ssp-v4 4.4.1", "mbs-ssp-v4 4.5", "ruling R13", "ruling R2", "ruling R14"}},
		{"4.3.1 4.5 magic card in the qualifying dealer's hand, no paytable hand",
			Round{Ruleset: "mbs-ssp-v4", Dealer: "As Kd 7h 4c 2s", MagicCard: "7h", LuckyPlayerSeat: 5, LuckyDealer: &no,
				Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=100 bet=200 progressiveDealer=100")}},
			"1 progressiveDealer win 100>600",
			[]string{"mbs-ssp-v4 3.5", "mbs-ssp-v4 4.3.1", "mbs-ssp-v4 4.5", "ruling R13", "ruling R2", "ruling R14"}},
		{"3.13.3 4.2 dealer flush 50 to 1 and lucky dealer 5 to 1 (ruling R18)",
			Round{Ruleset: "mbs-ssp-v4", Dealer: "Ah Kh 9h 4h 2h", MagicCard: "Qc", LuckyPlayerSeat: 5, LuckyDealer: &yes,
				Positions: []Position{pos(1, "3c 3d 8s 9c Jd", "ante=100 bet=200 progressiveDealer=100")}},
			"1 progressiveDealer win 100>5600",
			[]string{"mbs-ssp-v4 3.13.3", "mbs-ssp-v4 4.2", "mbs-ssp-v4 4.4.1", "mbs-ssp-v4 4.5", "ruling R13", "ruling R18", "ruling R2", "ruling R14"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Settle(tc.round)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, l := range strings.Split(lines(s), "\n") {
				if strings.Contains(l, "progressiveDealer") {
					got = l
				}
			}
			if got != tc.want {
				t.Errorf("line %q, want %q", got, tc.want)
			}
			if r := lineRules(t, s, 1, "progressiveDealer"); !slices.Equal(r, tc.rules) {
				t.Errorf("rules %v, want %v", r, tc.rules)
			}
		})
	}
}
