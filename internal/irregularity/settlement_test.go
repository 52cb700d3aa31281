package irregularity

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
)

// pos builds a position from "name=amount" pairs.
func pos(seat int, wagers ...string) Position {
	p := Position{Seat: seat, Wagers: map[string]money.Amount{}}
	for _, w := range wagers {
		var name string
		var a int64
		if _, err := fmt.Sscanf(strings.Replace(w, "=", " ", 1), "%s %d", &name, &a); err != nil {
			panic(w)
		}
		p.Wagers[name] = money.Amount(a)
	}
	return p
}

func round(ps ...Position) *Round {
	return &Round{RoundID: "r-1", Currency: money.SGD, Positions: ps}
}

// lines renders lines as "seat wager stake result returned net" for exact
// comparison.
func lines(ls []Line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = fmt.Sprintf("%d %s %d %s %d %d", l.Seat, l.Wager, l.Stake, l.Result, l.Returned, l.Net)
	}
	return out
}

func pending(ps []Pending) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%d %s %d", p.Seat, p.Wager, p.Stake)
	}
	return out
}

type settleCase struct {
	ruleset, kind string
	facts         map[string]any
	round         *Round
	action        Action
	lines         []string
	total         money.Amount
	pending       []string
	lineRules     []string // the rules of the first line, exact
}

func runSettle(t *testing.T, c settleCase) Outcome {
	t.Helper()
	rs, _ := Catalogue(c.ruleset)
	got, err := Decide(rs, c.kind, c.facts, c.round)
	if err != nil {
		t.Fatalf("Decide: %v", err)
	}
	if got.Action != c.action {
		t.Errorf("action = %s, want %s", got.Action, c.action)
	}
	st := got.Settlement
	if st == nil {
		t.Fatal("no settlement with a round attached")
	}
	if l := lines(st.Lines); !slices.Equal(l, c.lines) {
		t.Errorf("lines =\n%s\nwant\n%s", strings.Join(l, "\n"), strings.Join(c.lines, "\n"))
	}
	if st.TotalReturned != c.total {
		t.Errorf("total returned = %d, want %d", st.TotalReturned, c.total)
	}
	if p := pending(st.Pending); !slices.Equal(p, c.pending) {
		t.Errorf("pending = %q, want %q", p, c.pending)
	}
	if c.lineRules != nil && len(st.Lines) > 0 && !slices.Equal(st.Lines[0].Rules, c.lineRules) {
		t.Errorf("first line rules = %q, want %q", st.Lines[0].Rules, c.lineRules)
	}
	for _, l := range st.Lines {
		if len(l.Rules) == 0 {
			t.Errorf("line %+v cites no rule", l)
		}
		if l.Net != l.Returned-l.Stake {
			t.Errorf("line %+v: net is not returned - stake", l)
		}
	}
	return got
}

// MBS 5.16.1: no outcome established, players may withdraw all their
// wagers; seat 3 withdrew, seat 1 continues.
func TestMBSSSPv6_5_16_1_PowerFailureNoOutcome(t *testing.T) {
	got := runSettle(t, settleCase{
		ruleset: MBSMegalinkSSPv6, kind: "power_failure",
		facts:  map[string]any{"outcomeEstablished": false, "withdrawnSeats": []any{3}},
		round:  round(pos(1, "ante=1000", "progressive=100"), pos(3, "ante=2000", "bet=4000", "progressive=100")),
		action: OfferOptions,
		lines:  []string{"3 ante 2000 returned 2000 0", "3 bet 4000 returned 4000 0", "3 progressive 100 returned 100 0"},
		total:  6100, pending: []string{"1 ante 1000", "1 progressive 100"},
		lineRules: []string{"mbs-megalink-ssp-v6 5.16.1"},
	})
	// Seat 1 has not chosen yet: it is listed with the options it must be offered.
	if s := seatsString(got.Seats); s != "1:offer_options,3:withdrawn" {
		t.Errorf("seats = %s", s)
	}
	if !slices.Equal(got.Seats[0].Options, []Option{Withdraw, Continue}) {
		t.Errorf("seat 1 options = %v", got.Seats[0].Options)
	}
}

// MBS 5.16.2: an outcome established, play continues: nothing returned.
func TestMBSSSPv6_5_16_2_PowerFailureOutcomeEstablished(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: MBSMegalinkSSPv6, kind: "power_failure",
		facts:  map[string]any{"outcomeEstablished": true},
		round:  round(pos(1, "ante=1000", "bet=2000")),
		action: PlayContinues, lines: []string{}, total: 0, pending: []string{"1 ante 1000", "1 bet 2000"},
	})
}

// RWS 5.7.2: no outcome established, the round is voided and every bet
// returned (5.22): unlike MBS, nobody chooses.
func TestRWSCSPv2_5_7_2_PowerFailureNoOutcomeVoid(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "power_failure",
		facts:  map[string]any{"outcomeEstablished": false},
		round:  round(pos(4, "ante=5000", "bet=10000", "progressive=500"), pos(2, "ante=2500")),
		action: RoundVoid,
		lines:  []string{"2 ante 2500 void 2500 0", "4 ante 5000 void 5000 0", "4 bet 10000 void 10000 0", "4 progressive 500 void 500 0"},
		total:  18000, pending: []string{},
		lineRules: []string{"rws-mlp-csp-v2 5.7", "rws-mlp-csp-v2 5.7.2", "rws-mlp-csp-v2 5.22"},
	})
}

// MBS SSP 5.11: absent for the Bet decision, the hand is invalid and the
// Ante and progressive returned.
func TestMBSSSPv6_5_11_AbsentPlayerWagersReturned(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: MBSMegalinkSSPv6, kind: "player_absent",
		facts:  map[string]any{"seat": 2},
		round:  round(pos(1, "ante=1000", "bet=2000"), pos(2, "ante=1500", "progressive=100")),
		action: HandRemoved,
		lines:  []string{"2 ante 1500 returned 1500 0", "2 progressive 100 returned 100 0"},
		total:  1600, pending: []string{"1 ante 1000", "1 bet 2000"},
		lineRules: []string{"mbs-megalink-ssp-v6 5.11"},
	})
}

// TCP 5.11 returns the Pair Plus too.
func TestMBSTCPv6_5_11_AbsentPlayerAntePairPlusProgressiveReturned(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: MBSMegalinkTCPv6, kind: "player_absent",
		facts:  map[string]any{"seat": 6},
		round:  round(pos(6, "ante=1000", "pairPlus=500", "progressive=100")),
		action: HandRemoved,
		lines:  []string{"6 ante 1000 returned 1000 0", "6 pairPlus 500 returned 500 0", "6 progressive 100 returned 100 0"},
		total:  1600, pending: []string{},
	})
}

// THB 5.11: absent for the Flop, Ante and progressive returned; the Bonus,
// which 5.11 does not name, settles on the hole cards (ruling R16), as
// settlement settles it.
func TestMBSTHBv9_5_11_AbsentForFlopBonusSettlesOnHoleCards(t *testing.T) {
	got := runSettle(t, settleCase{
		ruleset: MBSMegalinkTHBv9, kind: "player_absent",
		facts:  map[string]any{"seat": 1, "decision": "flop"},
		round:  round(pos(1, "ante=1000", "bonus=500", "progressive=100")),
		action: HandRemoved,
		lines:  []string{"1 ante 1000 returned 1000 0", "1 progressive 100 returned 100 0"},
		total:  1100, pending: []string{"1 bonus 500"},
	})
	if p := got.Settlement.Pending[0]; p.Settles != "as usual" {
		t.Errorf("bonus settles %q", p.Settles)
	}
}

// RWS 5.5: walked away with the BET decision pending: deemed folded, the
// Ante lost (3.12.1), the progressive still eligible.
func TestRWSCSPv2_5_5_AbsentPlayerDeemedFolded(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "player_absent",
		facts:  map[string]any{"seat": 3, "decisionsPending": true},
		round:  round(pos(3, "ante=2000", "progressive=500")),
		action: DeemedFolded,
		lines:  []string{"3 ante 2000 lose 0 -2000"},
		total:  0, pending: []string{"3 progressive 500"},
		lineRules: []string{"rws-mlp-csp-v2 5.5", "rws-mlp-csp-v2 3.12.1"},
	})
}

// RWS 5.17: the jackpot system fails before anyone saw his cards: void.
func TestRWSCSPv2_5_17_JackpotSystemDownBeforeCardsSeen(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "jackpot_system_failure",
		facts:  map[string]any{"playerSawCards": false},
		round:  round(pos(1, "ante=1000", "progressive=500")),
		action: RoundVoid,
		lines:  []string{"1 ante 1000 void 1000 0", "1 progressive 500 void 500 0"},
		total:  1500, pending: []string{},
		lineRules: []string{"rws-mlp-csp-v2 5.17", "rws-mlp-csp-v2 5.22"},
	})
}

// RWS 5.18.1: after cards were seen the round continues; every bet,
// progressive included, settles as usual.
func TestRWSCSPv2_5_18_1_JackpotSystemDownAfterCardsSeen(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "jackpot_system_failure",
		facts:  map[string]any{"playerSawCards": true},
		round:  round(pos(1, "ante=1000", "bet=2000", "progressive=500")),
		action: PlayContinues, lines: []string{}, total: 0,
		pending: []string{"1 ante 1000", "1 bet 2000", "1 progressive 500"},
	})
}

// MBS 5.14 / R11: an Ante of 150.00 at a 100.00 maximum settles as 100.00
// and 50.00 goes back.
func TestMBSSSPv6_5_14_OverMaximumExcessReturned(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: MBSMegalinkSSPv6, kind: "wager_over_maximum",
		facts:  map[string]any{"seat": 5, "wager": "ante", "maximum": 10000},
		round:  round(pos(5, "ante=15000", "bet=30000")),
		action: SettledToMaximum,
		lines:  []string{"5 ante 5000 returned 5000 0"},
		total:  5000, pending: []string{"5 ante 10000", "5 bet 30000"},
		lineRules: []string{"mbs-megalink-ssp-v6 5.14", "ruling R11"},
	})
}

// RWS 5.3.1: a BET of 25.00 on an Ante of 10.00: 5.00 returned, 20.00 plays.
func TestRWSCSPv2_5_3_1_BetAboveTwiceAnteExcessReturned(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "bet_not_twice_ante",
		facts:  map[string]any{"seat": 2, "betComparedToTwiceAnte": "above"},
		round:  round(pos(2, "ante=1000", "bet=2500")),
		action: WagerReturned,
		lines:  []string{"2 bet 500 returned 500 0"},
		total:  500, pending: []string{"2 ante 1000", "2 bet 2000"},
	})
}

// MBS 5.10.2: one player on seats 2, 5 and 6, no hand viewed: seat 2 (first
// dealt) plays, 5 and 6 are invalidated and returned.
func TestMBSSSPv6_5_10_2_MultipleHandsNoneViewed(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: MBSMegalinkSSPv6, kind: "multiple_hands_in_error",
		facts:  map[string]any{"seats": []any{5, 2, 6}},
		round:  round(pos(2, "ante=1000"), pos(5, "ante=2000", "progressive=100"), pos(6, "ante=3000")),
		action: HandRemoved,
		lines:  []string{"5 ante 2000 returned 2000 0", "5 progressive 100 returned 100 0", "6 ante 3000 returned 3000 0"},
		total:  5100, pending: []string{"2 ante 1000"},
	})
}

// MBS 5.7 and 5.7.1: seat 3 dealt the wrong count is removed; seat 1,
// dealt correctly, chose to withdraw; seat 4 plays on.
func TestMBSTCPv6_5_7_1_CorrectlyDealtPlayerWithdraws(t *testing.T) {
	got := runSettle(t, settleCase{
		ruleset: MBSMegalinkTCPv6, kind: "player_card_count_wrong",
		facts:  map[string]any{"seat": 3, "noticedBeforeNextRound": true, "reconstructable": false, "withdrawnSeats": []any{1}},
		round:  round(pos(1, "ante=1000", "pairPlus=500"), pos(3, "ante=2000", "progressive=100"), pos(4, "ante=1000")),
		action: HandRemoved,
		lines:  []string{"1 ante 1000 returned 1000 0", "1 pairPlus 500 returned 500 0", "3 ante 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
		total:  3600, pending: []string{"4 ante 1000"},
	})
	if s := seatsString(got.Seats); s != "1:withdrawn,3:hand_removed,4:offer_options" {
		t.Errorf("seats = %s", s)
	}
}

// MBS 5.12.2: the progressive wager without an Ante is returned.
func TestMBSTHBv9_5_12_2_ProgressiveWithoutAnteReturned(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: MBSMegalinkTHBv9, kind: "progressive_without_ante",
		facts:  map[string]any{"seat": 4, "afterNoMoreBets": true},
		round:  round(pos(4, "progressive=500"), pos(5, "ante=1000")),
		action: WagerReturned,
		lines:  []string{"4 progressive 500 returned 500 0"},
		total:  500, pending: []string{"5 ante 1000"},
	})
}

// RWS 5.19: seats 2 and 3 examined intentionally besides seat 1.
func TestRWSCSPv2_5_19_AdditionalHandsInvalidated(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "additional_hand_examined",
		facts:  map[string]any{"firstViewedSeat": 1, "additionalSeats": []any{2, 3}, "intentional": true},
		round:  round(pos(1, "ante=1000"), pos(2, "ante=1000", "bet=2000"), pos(3, "ante=1000")),
		action: HandRemoved,
		lines:  []string{"2 ante 1000 returned 1000 0", "2 bet 2000 returned 2000 0", "3 ante 1000 returned 1000 0"},
		total:  4000, pending: []string{"1 ante 1000"},
	})
}

// MBS 5.1 via R12: a duplicate card voids the round, every wager back.
func TestMBSSSPv4_5_1_DuplicateCardVoid(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: MBSSSPv4, kind: "duplicate_card",
		round:  round(pos(1, "ante=1000", "progressivePlayer=100", "progressiveDealer=100")),
		action: RoundVoid,
		lines:  []string{"1 ante 1000 void 1000 0", "1 progressivePlayer 100 void 100 0", "1 progressiveDealer 100 void 100 0"},
		total:  1200, pending: []string{},
	})
}

// problems returns the fields of a refused event.
func problems(t *testing.T, err error) []string {
	t.Helper()
	var e *fault.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want *fault.Error", err)
	}
	var out []string
	for _, p := range e.Fields {
		out = append(out, p.Field)
	}
	return out
}

// TestRefused: unknown kinds, unknown, missing, mistyped and contradicting
// facts, and rounds that do not fit the facts are refused naming the
// field, never guessed at.
func TestRefused(t *testing.T) {
	cases := []struct {
		name, ruleset, kind string
		facts               map[string]any
		round               *Round
		fields              []string
	}{
		{"UnknownKind", RWSMLPCSPv2, "earthquake", nil, nil, []string{"kind"}},
		{"MissingFact", MBSMegalinkSSPv6, "power_failure", map[string]any{}, nil, []string{"facts.outcomeEstablished"}},
		{"UnknownFact", MBSMegalinkSSPv6, "power_failure", map[string]any{"outcomeEstablished": true, "voltage": 230}, nil, []string{"facts.voltage"}},
		{"MistypedBool", MBSMegalinkSSPv6, "power_failure", map[string]any{"outcomeEstablished": "yes"}, nil, []string{"facts.outcomeEstablished"}},
		{"IntNotWhole", MBSMegalinkSSPv6, "cards_exposed_in_deal", map[string]any{"cardsExposed": 1.5}, nil, []string{"facts.cardsExposed"}},
		{"IntOutOfRange", MBSMegalinkSSPv6, "cards_exposed_in_deal", map[string]any{"cardsExposed": 0}, nil, []string{"facts.cardsExposed"}},
		{"EnumValue", MBSMegalinkTHBv9, "player_absent", map[string]any{"seat": 1, "decision": "bet"}, nil, []string{"facts.decision"}},
		{"SeatOutOfRange", MBSMegalinkSSPv6, "player_absent", map[string]any{"seat": 8}, nil, []string{"facts.seat"}},
		{"SeatsRepeated", MBSMegalinkSSPv6, "multiple_hands_in_error", map[string]any{"seats": []any{2, 2}}, nil, []string{"facts.seats[1]"}},
		{"ViewedNotControlled_5_10", MBSMegalinkSSPv6, "multiple_hands_in_error", map[string]any{"seats": []any{2, 3}, "viewedSeats": []any{4}}, nil, []string{"facts.viewedSeats[0]"}},
		{"WithdrawWithOutcome_5_16_2", MBSMegalinkSSPv6, "power_failure", map[string]any{"outcomeEstablished": true, "withdrawnSeats": []any{1}}, nil, []string{"facts.withdrawnSeats"}},
		{"RemovedHandCannotWithdraw_5_7_1", MBSMegalinkSSPv6, "player_card_count_wrong", map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": false, "withdrawnSeats": []any{2}}, nil, []string{"facts.withdrawnSeats[0]"}},
		{"DealerCardOnlyButTwo_5_16", RWSMLPCSPv2, "cards_exposed_in_deal", map[string]any{"cardsExposed": 2, "playerSawCards": false, "dealerCardOnly": true}, nil, []string{"facts.dealerCardOnly", "facts.cardsExposed"}},
		{"FirstViewedAlsoAdditional_5_19", RWSMLPCSPv2, "additional_hand_examined", map[string]any{"firstViewedSeat": 2, "additionalSeats": []any{2}, "intentional": true}, nil, []string{"facts.additionalSeats[0]"}},
		{"SeatNotInRound", MBSMegalinkSSPv6, "player_absent", map[string]any{"seat": 4}, round(pos(1, "ante=1000")), []string{"facts.seat"}},
		{"WagerNotOfRuleset", MBSMegalinkSSPv6, "foreign_card", nil, round(pos(1, "ante=1000", "pairPlus=100")), []string{"round.positions[0].wagers.pairPlus"}},
		{"NegativeWager", MBSMegalinkSSPv6, "foreign_card", nil, round(pos(1, "ante=-1")), []string{"round.positions[0].wagers.ante"}},
		{"AbsurdWager", MBSMegalinkSSPv6, "foreign_card", nil, round(pos(1, "ante=1000000000001")), []string{"round.positions[0].wagers.ante"}},
		{"TwoPositionsOneSeat", MBSMegalinkSSPv6, "foreign_card", nil, round(pos(1, "ante=1"), pos(1, "ante=2")), []string{"round.positions[1].seat"}},
		{"NotOverMaximum_5_14", MBSMegalinkSSPv6, "wager_over_maximum", map[string]any{"seat": 1, "wager": "ante", "maximum": 10000}, round(pos(1, "ante=10000")), []string{"facts.maximum"}},
		{"NoSuchWagerAtSeat", MBSMegalinkSSPv6, "wager_over_maximum", map[string]any{"seat": 1, "wager": "bet", "maximum": 10000}, round(pos(1, "ante=10000")), []string{"facts.wager"}},
		{"AbsentButBetPlaced_5_11", MBSMegalinkSSPv6, "player_absent", map[string]any{"seat": 1}, round(pos(1, "ante=1000", "bet=2000")), []string{"facts.seat"}},
		{"AbsentWithoutAnte_5_11", MBSMegalinkTCPv6, "player_absent", map[string]any{"seat": 1}, round(pos(1, "pairPlus=1000")), []string{"facts.seat"}},
		{"AbsentForTurnWithoutFlop_5_11", MBSMegalinkTHBv9, "player_absent", map[string]any{"seat": 1, "decision": "turn"}, round(pos(1, "ante=1000")), []string{"facts.decision"}},
		{"AbsentForFlopButFlopPlaced_5_11", MBSMegalinkTHBv9, "player_absent", map[string]any{"seat": 1, "decision": "flop"}, round(pos(1, "ante=1000", "flop=2000")), []string{"facts.decision"}},
		{"DecisionsPendingButBetPlaced_5_5", RWSMLPCSPv2, "player_absent", map[string]any{"seat": 1, "decisionsPending": true}, round(pos(1, "ante=1000", "bet=2000")), []string{"facts.decisionsPending"}},
		{"ProgressiveHasAnte_5_12_2", MBSMegalinkSSPv6, "progressive_without_ante", map[string]any{"seat": 1, "afterNoMoreBets": true}, round(pos(1, "ante=1000", "progressive=100")), []string{"facts.seat"}},
		{"ProgressiveHasPairPlus_5_12_2", MBSMegalinkTCPv6, "progressive_without_ante", map[string]any{"seat": 1, "afterNoMoreBets": true}, round(pos(1, "pairPlus=1000", "progressive=100")), []string{"facts.seat"}},
		{"NoProgressive_5_4", RWSMLPCSPv2, "progressive_without_ante", map[string]any{"seat": 1}, round(pos(1, "bet=1000")), []string{"facts.seat"}},
		{"BetNotAbove_5_3_1", RWSMLPCSPv2, "bet_not_twice_ante", map[string]any{"seat": 1, "betComparedToTwiceAnte": "above"}, round(pos(1, "ante=1000", "bet=2000")), []string{"facts.betComparedToTwiceAnte"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs, _ := Catalogue(c.ruleset)
			_, err := Decide(rs, c.kind, c.facts, c.round)
			if got := problems(t, err); !slices.Equal(got, c.fields) {
				t.Errorf("fields = %q, want %q (%v)", got, c.fields, err)
			}
		})
	}
}

// A kind another ruleset covers but this one does not is referred, citing
// the ruleset's own general provision: MBS 6.1 for a jackpot-system
// failure (RWS 5.17-5.18 have no MBS counterpart); RWS 5.24 for a
// confidentiality breach (MBS 5.9 has no RWS counterpart).
func TestNotCoveredKindsReferred(t *testing.T) {
	for _, c := range []struct {
		ruleset, kind, rule, to string
		facts                   map[string]any
	}{
		{MBSMegalinkSSPv6, "burnt_card_not_discarded", "mbs-megalink-ssp-v6 6.1", "Gaming Shift Manager", map[string]any{"playerSawCards": true}},
		{MBSMegalinkTCPv6, "jackpot_system_failure", "mbs-megalink-tcp-v6 6.1", "Gaming Shift Manager", map[string]any{"playerSawCards": false}},
		{RWSMLPCSPv2, "multiple_hands_in_error", "rws-mlp-csp-v2 5.24", "Table Game Shift Manager", map[string]any{"seats": []any{1, 2}}},
	} {
		rs, _ := Catalogue(c.ruleset)
		got, err := Decide(rs, c.kind, c.facts, round(pos(1, "ante=1000")))
		if err != nil {
			t.Fatalf("%s %s: %v", c.ruleset, c.kind, err)
		}
		if got.Action != Referred || got.Covered || got.ReferTo != c.to || !slices.Equal(got.Rules, []string{c.rule}) {
			t.Errorf("%s %s: %+v", c.ruleset, c.kind, got)
		}
	}
	// With a round attached, every wager waits on the shift manager.
	rs6, _ := Catalogue(MBSMegalinkTHBv9)
	got6, err := Decide(rs6, "burnt_card_not_discarded", nil, round(pos(2, "ante=1000", "bonus=500")))
	if err != nil || got6.Settlement == nil || len(got6.Settlement.Lines) != 0 || !slices.Equal(pending(got6.Settlement.Pending), []string{"2 ante 1000", "2 bonus 500"}) ||
		got6.Settlement.Pending[0].Settles != "as the Gaming Shift Manager decides" {
		t.Errorf("referred with a round: %+v, %v", got6.Settlement, err)
	}
	// SSP v4 has no general provision: referred, citing ruling R25 (no
	// clause of the document), saying so.
	rs, _ := Catalogue(MBSSSPv4)
	got, err := Decide(rs, "jackpot_system_failure", nil, nil)
	if err != nil || got.Action != Referred || !slices.Equal(got.Rules, []string{"ruling R25"}) || !strings.Contains(got.Text, "no general provision") || !strings.Contains(got.Text, "ruling R25") {
		t.Errorf("SSP v4 not covered: %+v, %v", got, err)
	}
}

// SSP v4 3.5 (ruling R25): Jackpot Wagers with no Ante are returned, both
// the player-hand and the dealer-hand one.
func TestMBSSSPv4_3_5_JackpotWagersWithoutAnteReturned_R25(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: MBSSSPv4, kind: "progressive_without_ante",
		facts:  map[string]any{"seat": 3},
		round:  round(pos(3, "progressivePlayer=100", "progressiveDealer=200"), pos(4, "ante=1000")),
		action: WagerReturned,
		lines:  []string{"3 progressivePlayer 100 returned 100 0", "3 progressiveDealer 200 returned 200 0"},
		total:  300, pending: []string{"4 ante 1000"},
		lineRules: []string{"mbs-ssp-v4 3.5", "ruling R25"},
	})
}
