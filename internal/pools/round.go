package pools

import (
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// Place is where a round's progressive wager sits in the round as sent:
// its position's index and the wager's name.
type Place struct {
	Position int
	Wager    ruleset.Wager
}

// RoundOf settles a round (ruling R14: the service evaluates the cards
// itself) and returns what the pool needs of it: the accepted progressive
// wagers (a returned or void progressive wager is not accepted and does
// not contribute), where each sits in sr, and the jackpot hits with the
// cards they were evaluated from. Errors name fields of sr.
func RoundOf(sr settle.Round, table string, dealtAt time.Time) (jackpot.Round, []Place, error) {
	return roundOf(settle.Settler{Rulesets: ruleset.Standard()}, sr, table, dealtAt)
}

// RoundOf is RoundOf under the service's rulesets (Rules).
func (s *Service) RoundOf(sr settle.Round, table string, dealtAt time.Time) (jackpot.Round, []Place, error) {
	return roundOf(settle.Settler{Rulesets: s.Rules().Rulesets}, sr, table, dealtAt)
}

func roundOf(settler settle.Settler, sr settle.Round, table string, dealtAt time.Time) (jackpot.Round, []Place, error) {
	st, err := settler.Settle(sr)
	if err != nil {
		if _, ok := fault.As(err); ok {
			return jackpot.Round{}, nil, err // settle names fields of sr already
		}
		return jackpot.Round{}, nil, fault.InvalidField("", nil, "%s", err.Error())
	}
	if !jackpot.ValidID(sr.RoundID) {
		return jackpot.Round{}, nil, fault.InvalidField("roundId", sr.RoundID, "a pool needs the round id: 1-64 letters, digits, '-', '_', '.' or ':'")
	}
	r := jackpot.Round{Ruleset: sr.Ruleset, Table: table, Round: sr.RoundID, DealtAt: dealtAt, Currency: st.Currency,
		Wagers: []jackpot.ProgressiveWager{}, Hits: []jackpot.Hit{}, Void: st.Void, Irregularities: irregularitiesOf(st.Irregularities),
		ProgressiveUnit: sr.ProgressiveUnit}
	if st.Void {
		// Ruling R12: every wager returned; nothing reaches the pool. The
		// pool records why, and the hands that would have hit, for the
		// floor (issue 33 item 1).
		r.VoidHands = voidHands(settler, sr)
		return r, nil, nil
	}
	index := map[int]int{}
	for i, p := range sr.Positions {
		index[p.Seat] = i
	}
	var places []Place
	for _, p := range st.Positions {
		for _, l := range p.Lines {
			w, ok := progressiveWager(l.Wager)
			if !ok || l.Result == settle.Returned || l.Result == settle.Void {
				continue
			}
			r.Wagers = append(r.Wagers, jackpot.ProgressiveWager{Seat: p.Seat, Wager: w, Amount: l.Stake})
			places = append(places, Place{Position: index[p.Seat], Wager: l.Wager})
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
			return r, nil, fault.InvalidField("", nil, "%s", err.Error())
		}
		// Seats are numbered in dealing order from the dealer's left.
		r.Hits = append(r.Hits, jackpot.Hit{Seat: h.Seat, Dealt: h.Seat, Wager: w, Category: h.Category, Prize: prize,
			Stake: h.Stake, Rules: append([]string{}, h.Rules...), Cards: hitCards(sr, index, h.Seat, w)})
	}
	return r, places, nil
}

// hitCards are the cards a hit was evaluated from, as the jackpot lock
// shows them: the position's (the dealer's for a dealer-hand wager), then
// the community cards, if any.
func hitCards(sr settle.Round, index map[int]int, seat int, wager string) string {
	canon := func(s string) string {
		if cs, err := card.ParseList(s); err == nil {
			return card.Format(cs)
		}
		return s
	}
	cards := canon(sr.Dealer)
	if wager != jackpot.WagerDealer {
		if i, ok := index[seat]; ok {
			cards = canon(sr.Positions[i].Cards)
		}
	}
	if sr.Community != "" {
		cards += " / " + canon(sr.Community)
	}
	return cards
}

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

// irregularitiesOf are settlement's irregularities as the pool answers
// and records them: the same code, seat, wager, message and rules.
func irregularitiesOf(irs []settle.Irregularity) []jackpot.Irregularity {
	out := make([]jackpot.Irregularity, 0, len(irs))
	for _, ir := range irs {
		out = append(out, jackpot.Irregularity{Code: ir.Code, Seat: ir.Seat, Wager: string(ir.Wager), Message: ir.Message,
			Rules: append([]string{}, ir.Rules...)})
	}
	return out
}

// voidHands are the jackpot hands a void round held (issue 33 item 1):
// each position with a progressive wager settled alone with the dealer's
// and the community's cards, as if the round had not been void. A
// position whose cards are void on their own (the repeated card is its
// own, or the dealer's count is wrong) names none: nothing says which of
// its cards were dealt.
func voidHands(settler settle.Settler, sr settle.Round) []jackpot.VoidHand {
	var out []jackpot.VoidHand
	for i, p := range sr.Positions {
		alone := sr
		alone.Positions = []settle.Position{p}
		st, err := settler.Settle(alone)
		if err != nil || st.Void {
			continue
		}
		for _, h := range st.Hits() {
			w, ok := progressiveWager(h.Wager)
			if !ok || h.Kind != "hand" {
				continue
			}
			out = append(out, jackpot.VoidHand{Seat: h.Seat, Dealt: h.Seat, Wager: w, Category: h.Category,
				Cards: hitCards(sr, map[int]int{p.Seat: i}, h.Seat, w), Rules: append([]string{}, h.Rules...)})
		}
	}
	return out
}

// checkUnit applies ruling R22 to every round a pool takes: the
// progressiveUnit a table sends is the pool's unit. It is checked whether
// or not the round holds a progressive wager (issue 33 item 4: a round
// with unit 501 and no progressive wager was applied to a pool of unit
// 500), so a table keyed with the wrong unit is told on its first round,
// not on the first round someone plays the progressive. A round that sends
// no unit (it needs one only with a progressive wager: settle) passes.
func checkUnit(p jackpot.Pool, r jackpot.Round, field string) error {
	if r.ProgressiveUnit == 0 || r.ProgressiveUnit == p.Settings.Unit {
		return nil
	}
	c := p.Settings.Currency
	return fault.InvalidField(field, r.ProgressiveUnit, "progressiveUnit %s is not pool %s's unit %s: every round sent to the pool gives its unit, with or without a progressive wager (ruling R22)",
		c.Format(r.ProgressiveUnit), p.ID, c.Format(p.Settings.Unit)).Cite("ruling R22")
}
