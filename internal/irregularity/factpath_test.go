package irregularity

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// TestRefusalNamesTheElementAtFault: issue 15 section 3, every 422 names
// the full path. Where one element of a list fact is at fault, the refusal
// names that element by its index in the list as the client sent it (the
// parsed fact is sorted: the index is the client's, not the sorted one's)
// and echoes that element; where the list as a whole is at fault (not a
// list, too short, a seat it lacks, a list the rule forbids) it names the
// fact. Each case cites the clause whose check refuses it.
func TestRefusalNamesTheElementAtFault(t *testing.T) {
	three := round(pos(1, "ante=1000"), pos(2, "ante=1000"), pos(3, "ante=1000"))
	cases := []struct {
		name    string
		ruleset string
		kind    string
		facts   map[string]any
		round   *Round
		field   string
		value   any // the value echoed; nil: not checked
	}{
		// Seats facts' own type: a list of distinct seats 1-7.
		{"SeatNotANumber_MBS_5_10", MBSMegalinkSSPv6, "multiple_hands_in_error",
			map[string]any{"seats": []any{2, "three"}}, nil, "facts.seats[1]", "three"},
		{"SeatOutOfRange_MBS_5_10", MBSMegalinkSSPv6, "multiple_hands_in_error",
			map[string]any{"seats": []any{2, 3, 8}}, nil, "facts.seats[2]", 8},
		{"SeatNotWhole_MBS_5_10", MBSMegalinkSSPv6, "multiple_hands_in_error",
			map[string]any{"seats": []any{2.5, 3}}, nil, "facts.seats[0]", 2.5},
		{"SeatRepeatedNamesTheRepeat_MBS_5_10", MBSMegalinkSSPv6, "multiple_hands_in_error",
			map[string]any{"seats": []any{4, 2, 4}}, nil, "facts.seats[2]", 4},
		{"SeatsNotAList_MBS_5_10", MBSMegalinkSSPv6, "multiple_hands_in_error",
			map[string]any{"seats": "2,3"}, nil, "facts.seats", "2,3"},
		{"TooFewSeats_MBS_5_10", MBSMegalinkSSPv6, "multiple_hands_in_error",
			map[string]any{"seats": []any{2}}, nil, "facts.seats", nil},
		// SubsetOf: a viewed seat the player does not control (MBS 5.10.1),
		// named at its place in the client's unsorted list.
		{"ViewedSeatNotControlled_MBS_5_10_1", MBSMegalinkSSPv6, "multiple_hands_in_error",
			map[string]any{"seats": []any{2, 3}, "viewedSeats": []any{3, 5, 2}}, nil, "facts.viewedSeats[1]", 5},
		// RWS 5.10: only affected players may withdraw.
		{"WithdrawnSeatNotAffected_RWS_5_10", RWSMLPCSPv2, "dealing_error",
			map[string]any{"reconstructable": false, "affectedSeats": []any{2, 3}, "withdrawnSeats": []any{3, 1}}, nil, "facts.withdrawnSeats[1]", 1},
		// Contradictions with a Has condition: the element equal to the seat.
		{"WrongCountSeatWithdraws_MBS_5_7_1", MBSMegalinkSSPv6, "player_card_count_wrong",
			map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": false, "withdrawnSeats": []any{1, 2, 3}}, nil, "facts.withdrawnSeats[1]", 2},
		{"InvalidatedHandWithdraws_RWS_5_15", RWSMLPCSPv2, "player_card_count_wrong",
			map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": false, "affectedSeats": []any{2, 4}, "withdrawnSeats": []any{4, 2}}, nil, "facts.withdrawnSeats[1]", 2},
		{"FirstViewedAlsoAdditional_RWS_5_19", RWSMLPCSPv2, "additional_hand_examined",
			map[string]any{"firstViewedSeat": 2, "additionalSeats": []any{5, 2}, "intentional": true}, nil, "facts.additionalSeats[1]", 2},
		// Contradictions on the list as a whole: a seat it lacks, or any
		// withdrawal where the rule offers none.
		{"AffectedLacksTheSeat_RWS_5_10", RWSMLPCSPv2, "player_card_count_wrong",
			map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true, "affectedSeats": []any{3, 4}}, nil, "facts.affectedSeats", nil},
		{"WithdrawWithOutcome_MBS_5_16_2", MBSMegalinkSSPv6, "power_failure",
			map[string]any{"outcomeEstablished": true, "withdrawnSeats": []any{1, 2}}, nil, "facts.withdrawnSeats", nil},
		// The attached round: a listed seat with no position in it.
		{"WithdrawnSeatNotInRound_MBS_5_16_1", MBSMegalinkSSPv6, "power_failure",
			map[string]any{"outcomeEstablished": false, "withdrawnSeats": []any{1, 5}}, three, "facts.withdrawnSeats[1]", 5},
		{"ControlledSeatNotInRound_MBS_5_10", MBSMegalinkSSPv6, "multiple_hands_in_error",
			map[string]any{"seats": []any{6, 2}}, three, "facts.seats[0]", 6},
		// A kind this ruleset refers (MBS 6.1) still has its facts' types
		// checked, element by element.
		{"ReferredKindSeatNotANumber_MBS_6_1", MBSMegalinkSSPv6, "additional_hand_examined",
			map[string]any{"additionalSeats": []any{3, true}}, nil, "facts.additionalSeats[1]", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs, ok := Catalogue(c.ruleset)
			if !ok {
				t.Fatalf("no ruleset %s", c.ruleset)
			}
			_, err := Decide(rs, c.kind, c.facts, c.round)
			var e *fault.Error
			if !errors.As(err, &e) || e.Kind != fault.Invalid {
				t.Fatalf("err = %v, want an invalid *fault.Error", err)
			}
			if len(e.Fields) != 1 || e.Fields[0].Field != c.field {
				t.Fatalf("fields = %+v, want one at %s", e.Fields, c.field)
			}
			if c.value != nil && fmt.Sprint(e.Fields[0].Value) != fmt.Sprint(c.value) {
				t.Errorf("value = %#v, want %#v (the element at fault)", e.Fields[0].Value, c.value)
			}
		})
	}
}

// TestReportRefusalNamesTheElementUnderItsEvent: ruling R28, a report of
// several irregularities; an additional event's element at fault is named
// under additional[i].
func TestReportRefusalNamesTheElementUnderItsEvent(t *testing.T) {
	rs, _ := Catalogue(MBSMegalinkSSPv6)
	_, err := DecideReport(rs, Event{Kind: "power_failure", Facts: map[string]any{"outcomeEstablished": false}},
		[]Event{{Kind: "multiple_hands_in_error", Facts: map[string]any{"seats": []any{2, 9}}}}, nil)
	if f := problems(t, err); len(f) != 1 || f[0] != "additional[0].facts.seats[1]" {
		t.Errorf("fields = %q, want [additional[0].facts.seats[1]]", f)
	}
}
