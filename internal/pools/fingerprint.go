package pools

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// RoundFingerprint is what makes a retry of a round a replay: it
// identifies a round by its parsed, canonical content, not its bytes.
// Whitespace, key order, a wager of 0 (no wager) against one left out,
// "exposed": true against the default, a limit of 0/0 against none, the
// spelling of the cards ("AS" or "As") and the zone of dealtAt do not make
// a retry a different round (409). What could change the settlement does.
//
// Every applied round's record stores it, so its bytes are fixed forever:
// the JSON below is the request body as the HTTP edge declared it when the
// fingerprint was first stored (TestRoundFingerprintIsPinned).
func RoundFingerprint(r settle.Round, table string, dealtAt time.Time) string {
	cards := func(s string) string {
		if cs, err := card.ParseList(s); err == nil {
			return card.Format(cs)
		}
		return s
	}
	c := fingerprintRound{
		Ruleset: r.Ruleset, RoundID: r.RoundID, Currency: r.Currency,
		Dealer: cards(r.Dealer), Community: cards(r.Community),
		ProgressiveUnit: r.ProgressiveUnit, MagicCard: r.MagicCard,
		LuckyPlayerSeat: r.LuckyPlayerSeat, LuckyDealer: r.LuckyDealer,
		Table: table, DealtAt: dealtAt.UTC(),
	}
	if len(r.Limits) > 0 {
		c.Limits = map[string]fingerprintLimit{}
		for k, v := range r.Limits {
			if v != (settle.Limit{}) {
				c.Limits[k] = fingerprintLimit(v)
			}
		}
	}
	c.Positions = make([]fingerprintPosition, len(r.Positions))
	for i, p := range r.Positions {
		q := fingerprintPosition(p)
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

// fingerprintRound, fingerprintLimit and fingerprintPosition fix the
// fingerprint's JSON: names, order and omitempty exactly as the round
// request's body had them. Do not edit; a new field of the request that
// can change the settlement needs a new fingerprint version, not a field
// here (that would make every stored round a different round).
type fingerprintRound struct {
	Ruleset         string                      `json:"ruleset"`
	RoundID         string                      `json:"roundId"`
	Currency        string                      `json:"currency,omitempty"`
	Dealer          string                      `json:"dealer"`
	Community       string                      `json:"community,omitempty"`
	Limits          map[string]fingerprintLimit `json:"limits,omitempty"`
	ProgressiveUnit money.Amount                `json:"progressiveUnit,omitempty"`
	Positions       []fingerprintPosition       `json:"positions"`
	MagicCard       string                      `json:"magicCard,omitempty"`
	LuckyPlayerSeat int                         `json:"luckyPlayerSeat,omitempty"`
	LuckyDealer     *bool                       `json:"luckyDealer,omitempty"`
	Table           string                      `json:"table"`
	DealtAt         time.Time                   `json:"dealtAt"`
}

type fingerprintLimit struct {
	Min money.Amount `json:"min,omitempty"`
	Max money.Amount `json:"max,omitempty"`
}

type fingerprintPosition struct {
	Seat                  int                     `json:"seat"`
	Cards                 string                  `json:"cards,omitempty"`
	Wagers                map[string]money.Amount `json:"wagers"`
	Folded                bool                    `json:"folded,omitempty"`
	Exposed               *bool                   `json:"exposed,omitempty"`
	Absent                bool                    `json:"absent,omitempty"`
	ProgressiveMultiplier int                     `json:"progressiveMultiplier,omitempty"`
}
