package irregularity

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// The round of the audit's RWS 5.10 finding: seat 1 (Ante 10.00, BET
// 20.00), seat 2 (Ante 10.00), seat 3 (Ante 10.00, BET 20.00, progressive
// 1.00).
func audit510Round() *Round {
	return round(pos(1, "ante=1000", "bet=2000"), pos(2, "ante=1000"), pos(3, "ante=1000", "bet=2000", "progressive=100"))
}

// settles returns "seat wager settles" for each pending wager.
func settles(ps []Pending) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Settles
	}
	return out
}

// RWS 5.10: "all affected Players" have the options, not every seat. Seat
// 3, the only one affected, withdraws: 31.00 returned; seats 1 and 2 are
// not offered anything and settle as usual.
func TestRWSCSPv2_5_10_OptionsToAffectedPlayersOnly(t *testing.T) {
	for _, c := range []struct {
		name, kind string
		facts      map[string]any
		rules      []string
	}{
		{"dealing_error", "dealing_error", map[string]any{"reconstructable": false}, []string{"5.10", "5.10.1", "5.10.3"}},
		{"5.10_cards_dealt_incorrectly_after_cards_seen", "cards_dealt_incorrectly", map[string]any{"playerSawCards": true, "reconstructable": false}, []string{"5.10", "5.10.1", "5.10.3"}},
		{"5.10_one_card_exposed_before_cards_seen", "cards_exposed_in_deal", map[string]any{"cardsExposed": 1, "playerSawCards": false}, []string{"5.10", "5.10.1", "5.10.3"}},
		// 5.12 after cards were seen offers no 5.10 options (ruling R23):
		// see TestRWSCSPv2_5_12_CardExposedAfterCardsSeenContinues_R23.
	} {
		t.Run(c.name, func(t *testing.T) {
			facts := map[string]any{"affectedSeats": []any{3}, "withdrawnSeats": []any{3}}
			for k, v := range c.facts {
				facts[k] = v
			}
			got := runSettle(t, settleCase{
				ruleset: RWSMLPCSPv2, kind: c.kind, facts: facts, round: audit510Round(),
				action: OfferOptions,
				lines:  []string{"3 ante 1000 returned 1000 0", "3 bet 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
				total:  3100, pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000"},
				lineRules: []string{"rws-mlp-csp-v2 5.10.3"},
			})
			if s := seatsString(got.Seats); s != "3:withdrawn" {
				t.Errorf("seats = %q, want only seat 3 (withdrawn)", s)
			}
			if got.OptionsTo != ScopeAffected {
				t.Errorf("optionsTo = %q", got.OptionsTo)
			}
			want := []string{}
			for _, r := range c.rules {
				want = append(want, "rws-mlp-csp-v2 "+r)
			}
			if !slices.Equal(got.Rules, want) {
				t.Errorf("rules = %q, want %q", got.Rules, want)
			}
			if s := settles(got.Settlement.Pending); !slices.Equal(s, []string{"as usual", "as usual", "as usual"}) {
				t.Errorf("unaffected seats settle %q, want as usual", s)
			}

			// Seat 2 affected too and not yet chosen: it alone is listed
			// with the options; seat 1 still settles as usual.
			facts["affectedSeats"] = []any{2, 3}
			got = runSettle(t, settleCase{
				ruleset: RWSMLPCSPv2, kind: c.kind, facts: facts, round: audit510Round(),
				action: OfferOptions,
				lines:  []string{"3 ante 1000 returned 1000 0", "3 bet 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
				total:  3100, pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000"},
			})
			if s := seatsString(got.Seats); s != "2:offer_options,3:withdrawn" {
				t.Errorf("seats = %q", s)
			}
			if s := settles(got.Settlement.Pending); !slices.Equal(s, []string{"as usual", "as usual", settlesText(OfferOptions)}) {
				t.Errorf("pending settle %q", s)
			}

			// A withdrawal by an unaffected seat contradicts the facts: the
			// refusal names that seat's element.
			rs, _ := Catalogue(RWSMLPCSPv2)
			facts["affectedSeats"], facts["withdrawnSeats"] = []any{3}, []any{1}
			_, err := Decide(rs, c.kind, facts, audit510Round())
			if f := problems(t, err); !slices.Equal(f, []string{"facts.withdrawnSeats[0]"}) {
				t.Errorf("unaffected withdrawal: fields %q (%v)", f, err)
			}
			// The affected seats are required.
			delete(facts, "affectedSeats")
			delete(facts, "withdrawnSeats")
			_, err = Decide(rs, c.kind, facts, nil)
			if f := problems(t, err); !slices.Equal(f, []string{"facts.affectedSeats"}) {
				t.Errorf("no affected seats: fields %q (%v)", f, err)
			}
		})
	}
}

// RWS 5.9 and 5.14.1 give the 5.10 options to "all Players" at the table:
// there every seat of the round is offered them.
func TestRWSCSPv2_5_14_1_SimultaneousCardsOptionsToAllPlayers(t *testing.T) {
	got := runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "simultaneous_cards",
		facts: map[string]any{"reconstructable": false, "withdrawnSeats": []any{3}}, round: audit510Round(),
		action: OfferOptions,
		lines:  []string{"3 ante 1000 returned 1000 0", "3 bet 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
		total:  3100, pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000"},
	})
	if s := seatsString(got.Seats); s != "1:offer_options,2:offer_options,3:withdrawn" {
		t.Errorf("seats = %q", s)
	}
}

// RWS 5.15 with 5.10: a wrong card count to a player is a dealing error
// not described in 5.8 (5.8.7 names the Dealer's Hand only) or 5.16, so
// 5.10 applies "regardless of whether Reconstruction is possible".
func TestRWSCSPv2_5_15_WrongPlayerCountIsA510DealingError(t *testing.T) {
	// Reconstructable: 5.15 invalidates nothing; seat 3, affected, withdraws
	// (31.00 back), seat 2 (the wrong count, affected) is offered the
	// options; seat 1 is not affected.
	got := runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "player_card_count_wrong",
		facts: map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true, "affectedSeats": []any{2, 3}, "withdrawnSeats": []any{3}},
		round: audit510Round(), action: OfferOptions,
		lines: []string{"3 ante 1000 returned 1000 0", "3 bet 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
		total: 3100, pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000"},
		lineRules: []string{"rws-mlp-csp-v2 5.10.3"},
	})
	if s := seatsString(got.Seats); s != "2:offer_options,3:withdrawn" {
		t.Errorf("seats = %q", s)
	}
	if want := []string{"rws-mlp-csp-v2 5.15", "rws-mlp-csp-v2 5.10", "rws-mlp-csp-v2 5.10.2", "rws-mlp-csp-v2 5.10.3"}; !slices.Equal(got.Rules, want) {
		t.Errorf("rules = %q", got.Rules)
	}
	if !slices.Equal(got.Options, []Option{ContinueReconstructed, Withdraw}) {
		t.Errorf("options = %v", got.Options)
	}

	// Not reconstructable: seat 2's Hand is invalidated (5.15: 10.00
	// back); seat 3, the other affected player, withdraws (31.00 back).
	got = runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "player_card_count_wrong",
		facts: map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": false, "affectedSeats": []any{2, 3}, "withdrawnSeats": []any{3}},
		round: audit510Round(), action: HandRemoved,
		lines: []string{"2 ante 1000 returned 1000 0", "3 ante 1000 returned 1000 0", "3 bet 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
		total: 4100, pending: []string{"1 ante 1000", "1 bet 2000"},
		lineRules: []string{"rws-mlp-csp-v2 5.15", "ruling R12"},
	})
	if s := seatsString(got.Seats); s != "2:hand_removed,3:withdrawn" {
		t.Errorf("seats = %q", s)
	}

	rs, _ := Catalogue(RWSMLPCSPv2)
	for _, c := range []struct {
		name  string
		facts map[string]any
		field string
	}{
		{"WrongCountSeatNotAffected", map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true, "affectedSeats": []any{3}}, "facts.affectedSeats"},
		{"InvalidatedHandCannotWithdraw", map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": false, "affectedSeats": []any{2}, "withdrawnSeats": []any{2}}, "facts.withdrawnSeats[0]"},
		{"AffectedSeatsRequired", map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true}, "facts.affectedSeats"},
	} {
		_, err := Decide(rs, "player_card_count_wrong", c.facts, nil)
		if f := problems(t, err); !slices.Equal(f, []string{c.field}) {
			t.Errorf("%s: fields %q (%v)", c.name, f, err)
		}
	}
}

// Ruling R23: cards reconstructed, play continues and no wager is
// withdrawn: MBS 5.7 and 5.7.1 apply only when the cards cannot be
// reconstructed. A withdrawal reported anyway is refused.
func TestMBSSSPv6_5_7_1_NoWithdrawalAfterReconstruction_R23(t *testing.T) {
	got := runSettle(t, settleCase{
		ruleset: MBSMegalinkSSPv6, kind: "player_card_count_wrong",
		facts: map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true},
		round: audit510Round(), action: PlayContinues,
		lines: []string{}, total: 0,
		pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000", "3 ante 1000", "3 bet 2000", "3 progressive 100"},
	})
	if !slices.Equal(got.Rules, []string{"ruling R23"}) || len(got.Options) != 0 || len(got.Seats) != 0 {
		t.Errorf("rules %v options %v seats %v", got.Rules, got.Options, got.Seats)
	}
	for _, p := range got.Settlement.Pending {
		if p.Settles != "as usual" {
			t.Errorf("seat %d %s settles %q", p.Seat, p.Wager, p.Settles)
		}
	}
	rs, _ := Catalogue(MBSMegalinkSSPv6)
	_, err := Decide(rs, "player_card_count_wrong", map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true, "withdrawnSeats": []any{3}}, audit510Round())
	if f := problems(t, err); !slices.Equal(f, []string{"facts.withdrawnSeats"}) {
		t.Errorf("withdrawal after reconstruction: fields %q (%v)", f, err)
	}
}

// Ruling R23 (RWS 5.12): once a player has seen his cards, a card exposed
// in the deal is decided by 5.12 alone: the round continues, nothing is
// returned, and no 5.10 option (affected players, withdrawals) is taken.
func TestRWSCSPv2_5_12_CardExposedAfterCardsSeenContinues_R23(t *testing.T) {
	got := runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "cards_exposed_in_deal",
		facts: map[string]any{"cardsExposed": 1, "playerSawCards": true},
		round: audit510Round(), action: PlayContinues,
		lines: []string{}, total: 0,
		pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000", "3 ante 1000", "3 bet 2000", "3 progressive 100"},
	})
	if !slices.Equal(got.Rules, []string{"rws-mlp-csp-v2 5.12", "ruling R23"}) || len(got.Options) != 0 {
		t.Errorf("rules %v options %v", got.Rules, got.Options)
	}
	rs, _ := Catalogue(RWSMLPCSPv2)
	_, err := Decide(rs, "cards_exposed_in_deal", map[string]any{"cardsExposed": 1, "playerSawCards": true, "affectedSeats": []any{3}, "withdrawnSeats": []any{3}}, audit510Round())
	if f := problems(t, err); !slices.Equal(f, []string{"facts.affectedSeats", "facts.withdrawnSeats"}) {
		t.Errorf("5.10 options after cards seen: fields %q (%v)", f, err)
	}
}

// MBS 5.3, 5.7 (and SSP v4 5.3) apply only to an error noticed before the
// next round began, and MBS has no clause like RWS 5.20: noticed later,
// the event is referred (6.1; SSP v4 has none), every wager left to the
// Gaming Shift Manager.
func TestMBS_5_3_5_7_NoticedLateReferred(t *testing.T) {
	for _, c := range []struct {
		ruleset, kind string
		facts         map[string]any
		rules         []string
	}{
		{MBSMegalinkTCPv6, "player_card_count_wrong", map[string]any{"seat": 1, "noticedBeforeNextRound": false, "reconstructable": false}, []string{"mbs-megalink-tcp-v6 6.1"}},
		{MBSMegalinkTHBv9, "community_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": false}, []string{"mbs-megalink-thb-v9 6.1"}},
		{MBSSSPv4, "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": false}, []string{"ruling R25"}}, // no 6.1 in SSP v4: ruling R25
		{RWSMLPCSPv2, "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": false}, []string{"rws-mlp-csp-v2 5.24"}},
	} {
		rs, _ := Catalogue(c.ruleset)
		got, err := Decide(rs, c.kind, c.facts, round(pos(1, "ante=1000")))
		if err != nil {
			t.Fatalf("%s %s: %v", c.ruleset, c.kind, err)
		}
		if got.Action != Referred || got.Covered || !slices.Equal(got.Rules, c.rules) || got.ReferTo == "" {
			t.Errorf("%s %s: %s %q referTo %q", c.ruleset, c.kind, got.Action, got.Rules, got.ReferTo)
		}
		if len(got.Settlement.Lines) != 0 || !slices.Equal(pending(got.Settlement.Pending), []string{"1 ante 1000"}) || !strings.Contains(got.Settlement.Pending[0].Settles, "decides") {
			t.Errorf("%s %s: settlement %+v", c.ruleset, c.kind, got.Settlement)
		}
	}
}

// Money facts are int64 minor units up to the bound settlement accepts
// (1e12), not int32: an Ante of 50,000,000.00 at a 30,000,000.00 maximum
// (MBS 5.14, ruling R11) returns 20,000,000.00.
func TestMBSSSPv6_5_14_MaximumBeyondInt32(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: MBSMegalinkSSPv6, kind: "wager_over_maximum",
		facts:  map[string]any{"seat": 1, "wager": "ante", "maximum": float64(3_000_000_000)},
		round:  round(pos(1, "ante=5000000000")),
		action: SettledToMaximum,
		lines:  []string{"1 ante 2000000000 returned 2000000000 0"},
		total:  2_000_000_000, pending: []string{"1 ante 3000000000"},
		lineRules: []string{"mbs-megalink-ssp-v6 5.14", "ruling R11"},
	})
	rs, _ := Catalogue(MBSMegalinkSSPv6)
	for _, c := range []struct {
		v    any
		want string
	}{
		{float64(1_000_000_000_001), "must be from 1 to 1,000,000,000,000 minor units"},
		{float64(0), "must be from 1 to 1,000,000,000,000 minor units"},
		{1.5, "must be a whole number of minor units"},
		{"100", "must be a whole number of minor units"},
	} {
		_, err := Decide(rs, "wager_over_maximum", map[string]any{"seat": 1, "wager": "ante", "maximum": c.v}, nil)
		var e *fault.Error
		if !errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0].Field != "facts.maximum" || e.Fields[0].Message != c.want {
			t.Errorf("maximum %v: %v, want facts.maximum %q", c.v, err, c.want)
		}
	}
	// The RWS minimum (5.2) takes the same amounts.
	rws, _ := Catalogue(RWSMLPCSPv2)
	if _, err := Decide(rws, "wager_under_minimum", map[string]any{"seat": 1, "wager": "ante", "minimum": float64(1_000_000_000_000), "noticedBeforeClose": false}, round(pos(1, "ante=999999999999"))); err != nil {
		t.Errorf("RWS minimum 1e12: %v", err)
	}
}

// The round must agree with the facts: each refused naming the fact.
func TestAuditRoundContradictsFacts(t *testing.T) {
	for _, c := range []struct {
		name, ruleset, kind string
		facts               map[string]any
		round               *Round
		field, msg          string
	}{
		// RWS 5.3 compares a placed BET with its Ante.
		{"RWS_5_3_2_BelowButNoBet", RWSMLPCSPv2, "bet_not_twice_ante", map[string]any{"seat": 1, "betComparedToTwiceAnte": "below"}, round(pos(1, "ante=1000")), "facts.betComparedToTwiceAnte", "bet not placed"},
		{"RWS_5_3_1_AboveButNoAnte", RWSMLPCSPv2, "bet_not_twice_ante", map[string]any{"seat": 1, "betComparedToTwiceAnte": "above"}, round(pos(1, "bet=1000")), "facts.betComparedToTwiceAnte", "ante not placed"},
		// SSP v4 3.5: the seat must have a Jackpot Wager.
		{"SSPv4_3_5_NoJackpotWager", MBSSSPv4, "progressive_without_ante", map[string]any{"seat": 3}, round(pos(3, "bet=1000")), "facts.seat", "no Jackpot Wager"},
		// RWS 5.5 and 5.6: the player placed an Ante.
		{"RWS_5_5_AbsentWithoutAnte", RWSMLPCSPv2, "player_absent", map[string]any{"seat": 1, "decisionsPending": true}, round(pos(1, "progressive=100")), "facts.seat", "ante not placed"},
		{"RWS_5_6_AbsentWithoutAnte", RWSMLPCSPv2, "player_absent", map[string]any{"seat": 1, "decisionsPending": false}, round(pos(1, "progressive=100")), "facts.seat", "ante not placed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs, _ := Catalogue(c.ruleset)
			_, err := Decide(rs, c.kind, c.facts, c.round)
			var e *fault.Error
			if !errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0].Field != c.field || !strings.Contains(e.Fields[0].Message, c.msg) {
				t.Errorf("got %v, want %s mentioning %q", err, c.field, c.msg)
			}
		})
	}
	// The SSP v4 Jackpot Wager on the dealer's hand alone is enough.
	runSettle(t, settleCase{
		ruleset: MBSSSPv4, kind: "progressive_without_ante", facts: map[string]any{"seat": 3},
		round: round(pos(3, "progressiveDealer=200")), action: WagerReturned,
		lines: []string{"3 progressiveDealer 200 returned 200 0"}, total: 200, pending: []string{},
	})
}

// Kinds that cannot occur in a game are refused, not referred: MBS
// continuation wagers are fixed multiples of the Ante (ruling R20), and
// only TCP and THB name community cards in their 5.3.
func TestInapplicableKindsRefused(t *testing.T) {
	for _, c := range []struct {
		ruleset, kind, mention string
	}{
		{MBSMegalinkSSPv6, "bet_not_twice_ante", "ruling R20"},
		{MBSMegalinkTCPv6, "bet_not_twice_ante", "ruling R20"},
		{MBSMegalinkTHBv9, "bet_not_twice_ante", "ruling R20"},
		{MBSSSPv4, "bet_not_twice_ante", "ruling R20"},
		{MBSMegalinkSSPv6, "community_card_count_wrong", "no community cards"},
		{MBSSSPv4, "community_card_count_wrong", "no community cards"},
		{RWSMLPCSPv2, "community_card_count_wrong", "no community cards"},
	} {
		rs, _ := Catalogue(c.ruleset)
		_, err := Decide(rs, c.kind, map[string]any{"seat": 1}, nil)
		var e *fault.Error
		if !errors.As(err, &e) || e.Detail != "kind does not apply to this ruleset" || len(e.Fields) != 1 || e.Fields[0].Field != "kind" || !strings.Contains(e.Fields[0].Message, c.mention) {
			t.Errorf("%s %s: %v", c.ruleset, c.kind, err)
		}
		if slices.Contains(rs.ReferredKinds, c.kind) || !slices.ContainsFunc(rs.InapplicableKinds, func(in Inapplicable) bool { return in.Kind == c.kind }) {
			t.Errorf("%s %s: the catalogue lists it as referred, or not as inapplicable", c.ruleset, c.kind)
		}
	}
}

// A referred kind's facts are still read: names no ruleset's kind has, and
// mistyped values, are refused.
func TestReferredKindFactsValidated(t *testing.T) {
	rs, _ := Catalogue(MBSMegalinkSSPv6)
	for _, c := range []struct {
		facts map[string]any
		field string
	}{
		{map[string]any{"playerSawCards": true, "voltage": 230}, "facts.voltage"},
		{map[string]any{"playerSawCards": "yes"}, "facts.playerSawCards"},
	} {
		_, err := Decide(rs, "jackpot_system_failure", c.facts, nil)
		if f := problems(t, err); !slices.Equal(f, []string{c.field}) {
			t.Errorf("%v: fields %q (%v)", c.facts, f, err)
		}
	}
	if got, err := Decide(rs, "jackpot_system_failure", map[string]any{"playerSawCards": true}, nil); err != nil || got.Action != Referred {
		t.Errorf("valid facts: %+v %v", got, err)
	}
}

// RWS 5.1 limits "the total Bets placed on" a betting box: a box with an
// Ante of 400.00 and a progressive of 200.00 (600.00) at a 500.00 box
// maximum has 100.00 of excess, returned from the Ante, though the Ante
// alone is under the maximum; 5.1.1 with ruling R11 returns the same excess
// and settles the rest.
func TestRWSCSPv2_5_1_BoxTotalOverMaximum(t *testing.T) {
	for _, c := range []struct {
		noticed bool
		action  Action
		rules   []string
	}{
		{true, WagerReturned, []string{"rws-mlp-csp-v2 5.1"}},
		{false, SettledToMaximum, []string{"rws-mlp-csp-v2 5.1.1", "ruling R11"}},
	} {
		runSettle(t, settleCase{
			ruleset: RWSMLPCSPv2, kind: "wager_over_maximum",
			facts:  map[string]any{"seat": 2, "wager": "ante", "maximum": 50000, "boxTotal": 60000, "noticedBeforeClose": c.noticed},
			round:  round(pos(2, "ante=40000", "progressive=20000"), pos(4, "ante=1000")),
			action: c.action,
			lines:  []string{"2 ante 10000 returned 10000 0"},
			total:  10000, pending: []string{"2 ante 30000", "2 progressive 20000", "4 ante 1000"},
			lineRules: c.rules,
		})
	}
	rs, _ := Catalogue(RWSMLPCSPv2)
	for _, c := range []struct {
		name  string
		facts map[string]any
		round *Round
		field string
	}{
		{"NotOver", map[string]any{"seat": 2, "wager": "ante", "maximum": 50000, "boxTotal": 50000, "noticedBeforeClose": true}, nil, "facts.boxTotal"},
		{"MoreThanTheRound", map[string]any{"seat": 2, "wager": "ante", "maximum": 50000, "boxTotal": 70000, "noticedBeforeClose": true}, round(pos(2, "ante=40000", "progressive=20000")), "facts.boxTotal"},
		{"ExcessMoreThanTheWager", map[string]any{"seat": 2, "wager": "progressive", "maximum": 30000, "boxTotal": 60000, "noticedBeforeClose": true}, round(pos(2, "ante=40000", "progressive=20000")), "facts.boxTotal"},
		{"BoxTotalRequired", map[string]any{"seat": 2, "wager": "ante", "maximum": 50000, "noticedBeforeClose": true}, nil, "facts.boxTotal"},
	} {
		_, err := Decide(rs, "wager_over_maximum", c.facts, c.round)
		if f := problems(t, err); !slices.Equal(f, []string{c.field}) {
			t.Errorf("%s: fields %q (%v)", c.name, f, err)
		}
	}
}
