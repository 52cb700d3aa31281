package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
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
// and where each accepted progressive wager sits in the request (as
// "body.positions[i].wagers.w"). loc is where the round sits in the
// request ("body.", or "body.corrected." in a correction): a settlement
// error names its field there.
func jackpotRound(ctx context.Context, svc *pools.Service, b PoolRoundRequest, loc string) (jackpot.Round, []string, error) {
	r, places, err := svc.RoundOf(b.SettleRequest.round(), b.Table, b.DealtAt)
	if err != nil {
		return jackpot.Round{}, nil, poolError(ctx, err, loc)
	}
	locs := make([]string, len(places))
	for i, pl := range places {
		locs[i] = fmt.Sprintf("body.positions[%d].wagers.%s", pl.Position, pl.Wager)
	}
	return r, locs, nil
}

// ValidRoundID reports whether id can name a round in a pool.
func ValidRoundID(id string) bool { return jackpot.ValidID(id) }

// roundFingerprint identifies a round request by its parsed, canonical
// content, not its bytes: whitespace, key order, a wager of 0 (no wager)
// against one left out, "exposed": true against the default, and the
// spelling of the cards ("AS" or "As") do not make a retry a different
// round (409). What could change the settlement does.
func roundFingerprint(b PoolRoundRequest) string {
	c := b
	cards := func(s string) string {
		if cs, err := card.ParseList(s); err == nil {
			return card.Format(cs)
		}
		return s
	}
	c.Dealer, c.Community = cards(b.Dealer), cards(b.Community)
	c.DealtAt = b.DealtAt.UTC()
	if len(b.Limits) > 0 {
		c.Limits = map[string]SettleLimit{}
		for k, v := range b.Limits {
			if v != (SettleLimit{}) {
				c.Limits[k] = v
			}
		}
	}
	c.Positions = make([]SettlePosition, len(b.Positions))
	for i, p := range b.Positions {
		q := p
		q.Cards = cards(p.Cards)
		q.Wagers = map[string]money.Amount{}
		for k, v := range p.Wagers {
			if v != 0 {
				q.Wagers[k] = v
			}
		}
		if p.Exposed != nil && *p.Exposed {
			q.Exposed = nil
		}
		c.Positions[i] = q
	}
	body, _ := json.Marshal(c)
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}
