package irregularity

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// The round must agree with the facts: each refused naming the fact.
func TestRoundContradictsFacts(t *testing.T) {
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
