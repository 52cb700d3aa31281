package settle

import (
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// lineRules returns the rules of seat's line for wager w.
func lineRules(t *testing.T, s Settlement, seat int, w string) []string {
	t.Helper()
	for _, l := range seatOf(t, s, seat).Lines {
		if string(l.Wager) == w {
			return l.Rules
		}
	}
	t.Fatalf("seat %d has no %s line: %s", seat, w, lines(s))
	return nil
}

// A progressive wager without its Ante is returned under the clause that
// says so (MBS 5.12.2, TCP/THB 5.12.2, RWS 5.4), not under ruling R12
// (which is about what the cards show). SSP v4 has no such clause: the
// line cites 3.5 (a jackpot wager is placed after an Ante) and the ruling,
// and says the document is silent.
func TestProgressiveWithoutAnteCitesItsClause(t *testing.T) {
	for _, tc := range []struct {
		round Round
		wager string
		want  []string
		note  string
	}{
		{unit(Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: dealerAK, Positions: []Position{pos(1, "2h 2d 2c Jh Jd", "progressive=100")}}, 100),
			"progressive", []string{"mbs-megalink-ssp-v6 5.12.2"}, ""},
		{unit(Round{Ruleset: "mbs-megalink-tcp-v6", Dealer: tcpDealerQ, Community: tcpCommunity, Positions: []Position{pos(1, "Ks Kd 4h", "progressive=100")}}, 100),
			"progressive", []string{"mbs-megalink-tcp-v6 5.12.2"}, ""},
		{unit(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard, Positions: []Position{pos(1, "Ah Ad", "progressive=100")}}, 100),
			"progressive", []string{"mbs-megalink-thb-v9 5.12.2"}, ""},
		{unit(Round{Ruleset: "rws-mlp-csp-v2", Dealer: dealerAK, Positions: []Position{pos(1, "2h 2d 2c Jh Jd", "progressive=100")}}, 100),
			"progressive", []string{"rws-mlp-csp-v2 5.4"}, ""},
		{Round{Ruleset: "mbs-ssp-v4", Dealer: dealerAK, MagicCard: "Qc", LuckyPlayerSeat: 5, LuckyDealer: new(bool),
			Positions: []Position{pos(1, "2h 2d 2c Jh Jd", "progressivePlayer=100")}},
			"progressivePlayer", []string{"mbs-ssp-v4 3.5", "ruling R25"}, "document silent"}, // ruling R25 decides it
	} {
		t.Run(tc.round.Ruleset, func(t *testing.T) {
			s, err := Settle(tc.round)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(lines(s)); got != "1 "+tc.wager+" returned 100>100" {
				t.Errorf("lines %q", got)
			}
			if got := lineRules(t, s, 1, tc.wager); !slices.Equal(got, tc.want) {
				t.Errorf("line rules %v, want %v", got, tc.want)
			}
			if len(s.Irregularities) != 1 || !slices.Equal(s.Irregularities[0].Rules, tc.want) {
				t.Errorf("irregularities %+v, want one citing %v", s.Irregularities, tc.want)
			}
			l := seatOf(t, s, 1).Lines[0]
			if tc.note != "" && (!strings.Contains(l.Note, tc.note) || !strings.Contains(s.Irregularities[0].Message, tc.note)) {
				t.Errorf("note %q / message %q should say %q", l.Note, s.Irregularities[0].Message, tc.note)
			}
			if tc.note == "" && l.Note != "" {
				t.Errorf("unexpected note %q", l.Note)
			}
		})
	}
}

// SSP v4 3.12.3 is the player declaring a jackpot hand when the dealer has
// no hand; the dealer-hand jackpot wager is the wager on the Dealer's hand
// (3.5), paid by 4.2 / 4.3.1 / 4.4.1, and does not cite 3.12.3.
func TestSSPv4DealerWagerDoesNotCitePlayerDeclaration(t *testing.T) {
	yes := true
	s, err := Settle(Round{Ruleset: "mbs-ssp-v4", Dealer: dealerKHigh, MagicCard: "Qc", LuckyPlayerSeat: 5, LuckyDealer: &yes,
		Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=100 bet=200 progressiveDealer=100 progressivePlayer=100")}})
	if err != nil {
		t.Fatal(err)
	}
	// Lucky Dealer 5 to 1 (4.4.1, 4.5); the player's pair of 3s wins nothing.
	want := "1 ante win 100>200\n1 bet returned 200>200\n1 progressivePlayer lose 100>0\n1 progressiveDealer win 100>600"
	if got := strings.TrimSpace(lines(s)); got != want {
		t.Errorf("lines:\n%s\nwant:\n%s", got, want)
	}
	dealer := lineRules(t, s, 1, "progressiveDealer")
	if slices.Contains(dealer, "mbs-ssp-v4 3.12.3") || !slices.Contains(dealer, "mbs-ssp-v4 3.5") || !slices.Contains(dealer, "mbs-ssp-v4 4.4.1") {
		t.Errorf("dealer-hand wager rules %v: want 3.5 and 4.4.1, not 3.12.3", dealer)
	}
	if player := lineRules(t, s, 1, "progressivePlayer"); !slices.Contains(player, "mbs-ssp-v4 3.12.3") {
		t.Errorf("player-hand wager rules %v: want 3.12.3", player)
	}
}

// A wrong card count to the dealer or the community voids the round, and
// the void line cites the clause that voids it (MBS 5.3, SSP v4 5.2 for a
// player's count, RWS 5.8.7), the clause that returns every wager where the
// document has one (RWS 5.22) and ruling R12. MBS 5.1.1 belongs to 5.1
// (extra, missing or foreign cards), not to a wrong count: not cited.
func TestCountVoidsCiteWagersReturned(t *testing.T) {
	for _, tc := range []struct {
		round Round
		want  []string
	}{
		{Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "As Kd 7h 4c", Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=1000 bet=2000")}},
			[]string{"mbs-megalink-ssp-v6 5.3", "ruling R12"}},
		{Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: "5c 6d 9h Js", Positions: []Position{pos(1, "Ah Ad", "ante=1000 flop=2000")}},
			[]string{"mbs-megalink-thb-v9 5.3", "ruling R12"}},
		{Round{Ruleset: "rws-mlp-csp-v2", Dealer: "As Kd 7h 4c", Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=1000 bet=2000")}},
			[]string{"rws-mlp-csp-v2 5.8.7", "rws-mlp-csp-v2 5.22", "ruling R12"}},
		{Round{Ruleset: "mbs-ssp-v4", Dealer: dealerAK, Positions: []Position{pos(1, "3c 3d 8s 9h", "ante=1000 bet=2000")}},
			[]string{"mbs-ssp-v4 5.2", "ruling R12"}},
	} {
		t.Run(tc.round.Ruleset, func(t *testing.T) {
			s, err := Settle(tc.round)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Void {
				t.Fatalf("not void: %s", lines(s))
			}
			if got := lineRules(t, s, 1, "ante"); !slices.Equal(got, tc.want) {
				t.Errorf("rules %v, want %v", got, tc.want)
			}
		})
	}
}

// RWS's main hand is "the cards that have been dealt to a Player" (1.9),
// ranked by 3.1.2; 4.2.1 is the jackpot qualification.
func TestRWSHandRule(t *testing.T) {
	rs, _ := ruleset.Get(ruleset.RWSCSPv2)
	if rs.Hands.Rule != "1.9" {
		t.Errorf("RWS hands rule %q, want 1.9", rs.Hands.Rule)
	}
}
