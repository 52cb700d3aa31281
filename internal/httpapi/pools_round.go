package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// PoolRoundRequest is the body of POST /v1/pools/{id}/rounds: the round as
// sent to settle, with the table that dealt it and when.
type PoolRoundRequest struct {
	SettleRequest
	Table   string    `json:"table" minLength:"1" maxLength:"64" pattern:"^[A-Za-z0-9._:-]+$" example:"T12" doc:"The table's id: with roundId it names the round forever (a replay returns the first answer)."`
	DealtAt time.Time `json:"dealtAt" doc:"When the table dealt the round (ruling R7: RWS pays major hits in dealt order; MBS records it for audit)."`
}

// jackpotRound settles the round (ruling R14: the service evaluates the
// cards itself) and returns what the pool needs of it: the accepted
// progressive wagers (a returned or void progressive wager is not
// accepted and does not contribute) and the jackpot hits.
func jackpotRound(b PoolRoundRequest) (jackpot.Round, []string, error) {
	round := b.SettleRequest.round()
	st, err := settle.Settle(round)
	if err != nil {
		if fe, ok := settle.AsFieldError(err); ok {
			return jackpot.Round{}, nil, fieldErr("body."+fe.Field, fe.Msg, fe.Value)
		}
		return jackpot.Round{}, nil, fieldErr("body", err.Error(), nil)
	}
	if !ValidRoundID(b.RoundID) {
		return jackpot.Round{}, nil, fieldErr("body.roundId", "a pool needs the round id: 1-64 letters, digits, '-', '_', '.' or ':'", b.RoundID)
	}
	r := jackpot.Round{Ruleset: b.Ruleset, Table: b.Table, Round: b.RoundID, DealtAt: b.DealtAt, Currency: st.Currency,
		Wagers: []jackpot.ProgressiveWager{}, Hits: []jackpot.Hit{}}
	if st.Void {
		// Ruling R12: every wager returned; nothing reaches the pool.
		return r, nil, nil
	}
	// locs[i] is where the request carries r.Wagers[i].
	index := map[int]int{}
	for i, p := range b.Positions {
		index[p.Seat] = i
	}
	var locs []string
	for _, p := range st.Positions {
		for _, l := range p.Lines {
			w, ok := progressiveWager(l.Wager)
			if !ok || l.Result == settle.Returned || l.Result == settle.Void {
				continue
			}
			r.Wagers = append(r.Wagers, jackpot.ProgressiveWager{Seat: p.Seat, Wager: w, Amount: l.Stake})
			locs = append(locs, fmt.Sprintf("body.positions[%d].wagers.%s", index[p.Seat], l.Wager))
		}
	}
	for _, h := range st.Hits() {
		w, ok := progressiveWager(h.Wager)
		if !ok || h.Kind != "hand" {
			// SSP v4's Magic Card and Lucky prizes are the house's, paid on
			// the settlement's lines (R13, R18); they do not touch the pool.
			continue
		}
		prize, err := prizeOf(h.Prize)
		if err != nil {
			return r, nil, fieldErr("body", err.Error(), nil)
		}
		// Seats are numbered in dealing order from the dealer's left.
		r.Hits = append(r.Hits, jackpot.Hit{Seat: h.Seat, Dealt: h.Seat, Wager: w, Category: h.Category, Prize: prize,
			Stake: h.Stake, Rules: append([]string{}, h.Rules...), Cards: hitCards(b, index, h.Seat, w)})
	}
	return r, locs, nil
}

// hitCards are the cards a hit was evaluated from, as the jackpot lock
// shows them: the position's (the dealer's for a dealer-hand wager), then
// the community cards, if any.
func hitCards(b PoolRoundRequest, index map[int]int, seat int, wager string) string {
	canon := func(s string) string {
		if cs, err := card.ParseList(s); err == nil {
			return card.Format(cs)
		}
		return s
	}
	cards := canon(b.Dealer)
	if wager != jackpot.WagerDealer {
		if i, ok := index[seat]; ok {
			cards = canon(b.Positions[i].Cards)
		}
	}
	if b.Community != "" {
		cards += " / " + canon(b.Community)
	}
	return cards
}

// ValidRoundID reports whether id can name a round in a pool.
func ValidRoundID(id string) bool { return jackpot.ValidID(id) }

func progressiveWager(w ruleset.Wager) (string, bool) {
	switch w {
	case ruleset.Progressive, ruleset.ProgressivePlayer:
		return jackpot.WagerPlayer, true
	case ruleset.ProgressiveDealer:
		return jackpot.WagerDealer, true
	}
	return "", false
}

func prizeOf(p ruleset.Pay) (jackpot.Prize, error) {
	switch p.Kind {
	case ruleset.PoolPercent:
		return jackpot.Prize{Kind: jackpot.PrizePercent, BP: p.BasisPoints}, nil
	case ruleset.Fixed:
		return jackpot.Prize{Kind: jackpot.PrizeFixed, Amount: p.Amount}, nil
	case ruleset.ToOne:
		return jackpot.Prize{Kind: jackpot.PrizeOddsTo, Odds: p.Odds}, nil
	case ruleset.ForOne:
		return jackpot.Prize{Kind: jackpot.PrizeOddsFor, Odds: p.Odds}, nil
	}
	return jackpot.Prize{}, fmt.Errorf("unknown prize kind %q", p.Kind)
}

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
