package httpapi

import (
	"context"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// PoolRoundRequest is the body of POST /v1/pools/{id}/rounds: the round as
// sent to settle, with the table that dealt it and when.
type PoolRoundRequest struct {
	SettleRequest
	Table   string    `json:"table" minLength:"1" maxLength:"64" pattern:"^[A-Za-z0-9._:-]+$" example:"T12" doc:"The table's id: with roundId it names the round forever (a replay returns the first answer)."`
	DealtAt time.Time `json:"dealtAt" doc:"When the table dealt the round (ruling R7: RWS pays major hits in dealt order; MBS records it for audit)."`
}

// jackpotRound translates the request to the round svc.RoundOf settles,
// and where each accepted progressive wager sits in the request
// (pools.AtRoundRequest). loc is where the round sits in the request
// ("body.", or "body.corrected." in a correction): a settlement error
// names its field there.
func jackpotRound(ctx context.Context, svc *pools.Service, b PoolRoundRequest, loc string) (jackpot.Round, []pools.Place, error) {
	r, places, err := svc.RoundOf(b.SettleRequest.round(), b.Table, b.DealtAt)
	if err != nil {
		return jackpot.Round{}, nil, poolError(ctx, err, loc)
	}
	return r, places, nil
}

// roundFingerprint is the round's replay identity, decided by pools.
func roundFingerprint(b PoolRoundRequest) string {
	return pools.RoundFingerprint(b.SettleRequest.round(), b.Table, b.DealtAt)
}
