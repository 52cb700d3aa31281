package pools_test

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// TestRoundErrorsNameRequestFields: every field a round's refusal names is
// one of the request's (never body.hits or body.wagers, which it has not).
func TestRoundErrorsNameRequestFields(t *testing.T) {
	r := jackpot.Round{
		Wagers: []jackpot.ProgressiveWager{{Seat: 2, Wager: "player", Amount: 500}, {Seat: 5, Wager: "player", Amount: 500}},
		Hits:   []jackpot.Hit{{Seat: 5, Wager: "player"}},
	}
	places := []pools.Place{{Position: 0, Wager: "progressive"}, {Position: 1, Wager: "progressive"}}
	for field, want := range map[string]string{
		"hits[0]":          "positions[1].wagers.progressive",
		"hits[0].category": "positions[1].wagers.progressive",
		"hits[7]":          "positions",
		"wagers[0].amount": "positions[0].wagers.progressive",
		"wagers":           "positions",
		"round":            "roundId",
		"dealtAt":          "dealtAt",
	} {
		err := pools.AtRoundRequest(fault.InvalidField(field, nil, "x"), r, places)
		if e, _ := fault.As(err); e.Field() != want {
			got := e.Field()
			t.Errorf("%s -> %s, want %s", field, got, want)
		}
	}
}

// A correction's refusal about its corrected round names the corrected
// round's field, under corrected; any other refusal is left as it is.
func TestCorrectionErrorsNameRequestFields(t *testing.T) {
	r := jackpot.Round{Wagers: []jackpot.ProgressiveWager{{Seat: 4, Wager: "progressive", Amount: 500}}}
	places := []pools.Place{{Position: 2, Wager: "progressive"}}
	for field, want := range map[string]string{
		"corrected.wagers[0].amount": "corrected.positions[2].wagers.progressive",
		"corrected.round":            "corrected.roundId",
		"reason":                     "reason",
	} {
		e, _ := fault.As(pools.AtCorrectionRequest(fault.InvalidField(field, nil, "x"), r, places))
		if e.Field() != want {
			t.Errorf("%s -> %s, want %s", field, e.Field(), want)
		}
	}
}
