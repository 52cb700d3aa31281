package pools

import (
	"fmt"
	"strings"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// AtRoundRequest rewrites the field of an error about round r (made by
// RoundOf, whose places say where each wager sits) to where the round
// request carries it: "wagers[i]..." and "hits[i]..." (a hit is on a
// wager) to that wager's place, "positions[p].wagers.w", "wagers" and
// "hits" to positions, "round" to roundId. Every field a round's refusal
// names is then one of the request's. Other errors are returned as they
// are.
func AtRoundRequest(err error, r jackpot.Round, places []Place) error {
	locs := make([]string, len(places))
	for i, pl := range places {
		locs[i] = fmt.Sprintf("positions[%d].wagers.%s", pl.Position, pl.Wager)
	}
	e, ok := fault.As(err)
	if !ok || len(e.Fields) == 0 {
		return err
	}
	field := e.Field()
	to := field
	var i int
	switch {
	case field == "round":
		to = "roundId"
	case field == "wagers" || field == "hits":
		to = "positions"
	case strings.HasPrefix(field, "wagers["):
		if _, scanErr := fmt.Sscanf(field, "wagers[%d]", &i); scanErr != nil || i < 0 || i >= len(locs) {
			to = "positions"
			break
		}
		to = locs[i]
	case strings.HasPrefix(field, "hits["):
		to = "positions"
		if _, scanErr := fmt.Sscanf(field, "hits[%d]", &i); scanErr != nil || i < 0 || i >= len(r.Hits) {
			break
		}
		h := r.Hits[i]
		for j, w := range r.Wagers {
			if j < len(locs) && w.Seat == h.Seat && w.Wager == h.Wager {
				to = locs[j]
			}
		}
	default:
		return err
	}
	c := *e
	c.Fields = append([]fault.Problem(nil), e.Fields...)
	c.Fields[0].Field = to
	return &c
}

// AtCorrectionRequest is AtRoundRequest for a correction, whose corrected
// round sits under "corrected": a field under it is rewritten to where
// the corrected round carries it, still under "corrected".
func AtCorrectionRequest(err error, r jackpot.Round, places []Place) error {
	e, ok := fault.As(err)
	if !ok || !strings.HasPrefix(e.Field(), "corrected.") {
		return err
	}
	inner := *e
	inner.Fields = append([]fault.Problem(nil), e.Fields...)
	inner.Fields[0].Field = strings.TrimPrefix(e.Field(), "corrected.")
	return fault.Under(AtRoundRequest(&inner, r, places), "corrected")
}
