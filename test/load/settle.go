package main

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// settleScenario posts dealt rounds of all five rulesets, in turn, to
// POST /v1/rounds/settle, and checks each answer against settle.Settle on
// the same round.
//
// A round is what a table sends: 1-7 occupied seats, stakes from SGD 5 to
// SGD 100, the continuation wagers at the multiples the rules fix (ruling
// R20), decisions made the way players make them (continue on a decent
// hand, fold most weak ones), side and progressive wagers on some seats,
// SSP v4's system selections (ruling R13) when a jackpot wager is placed,
// and now and then a declined hand (R8) or an explicit fold.
type settleScenario struct{}

func (settleScenario) Name() string { return "settle" }

// SettlePath is the operation the scenario drives.
const SettlePath = "/v1/rounds/settle"

var roundRulesets = ruleset.IDs()

var antes = []money.Amount{500, 1000, 1000, 2000, 2500, 5000, 10000}

// progressiveUnit is the progressive wager's unit in these rounds (SGD 5).
const progressiveUnit money.Amount = 500

// GenerateRound is round i of a run seeded with seed: ruleset i mod 5, the
// rest drawn from rng(seed, i).
func GenerateRound(seed, i uint64) settle.Round {
	r := rng(seed, i)
	id := roundRulesets[i%uint64(len(roundRulesets))]
	rs, _ := ruleset.Get(id)
	deck := deal(r)
	take := func(n int) []card.Card {
		c := deck[:n]
		deck = deck[n:]
		return c
	}
	round := settle.Round{
		Ruleset:  string(id),
		RoundID:  "load-" + string(id) + "-" + itoa(seed) + "-" + itoa(i),
		Currency: "SGD",
		Limits: map[string]settle.Limit{
			"ante": {Min: 500, Max: 50000},
		},
	}
	if id != ruleset.SSPv4 {
		// Ruling R22 (THB: 1-5 times it, R17): a progressive wager is the
		// pool's unit, which settlement must be told; table limits do not
		// apply to it. SSP v4's jackpot wagers are credits at odds.
		round.ProgressiveUnit = progressiveUnit
	}
	seats := r.Perm(7)[:1+r.IntN(7)]
	slices.Sort(seats)
	jackpotPlaced := false
	for _, s := range seats {
		p := settle.Position{Seat: s + 1, Wagers: map[string]money.Amount{}}
		cards := take(rs.Hands.PlayerCards)
		p.Cards = card.Format(cards)
		ante := antes[r.IntN(len(antes))]
		p.Wagers["ante"] = ante
		if r.IntN(100) < 60 {
			if rs.MaxProgressiveMultiplier > 0 {
				p.ProgressiveMultiplier = 1 + r.IntN(rs.MaxProgressiveMultiplier)
				p.Wagers["progressive"] = money.Amount(p.ProgressiveMultiplier) * progressiveUnit
			} else if id == ruleset.SSPv4 {
				p.Wagers["progressivePlayer"] = progressiveUnit
				if r.IntN(3) == 0 {
					p.Wagers["progressiveDealer"] = progressiveUnit
				}
				jackpotPlaced = true
			} else {
				p.Wagers["progressive"] = progressiveUnit
			}
		}
		decide(r, &rs, cards, &p, ante)
		round.Positions = append(round.Positions, p)
	}
	round.Dealer = card.Format(take(rs.Hands.DealerCards))
	if n := rs.Hands.CommunityCards; n > 0 {
		round.Community = card.Format(take(n))
	}
	if jackpotPlaced {
		// The jackpot system's selections (ruling R13): any card of the
		// deck, any seat, the Lucky Dealer now and then.
		round.MagicCard = card.Deck()[r.IntN(card.NumCards)].String()
		round.LuckyPlayerSeat = 1 + r.IntN(7)
		lucky := r.IntN(10) == 0
		round.LuckyDealer = &lucky
	}
	return round
}

// decide places the continuation and side wagers the way players do.
func decide(r *rand.Rand, rs *ruleset.Ruleset, cards []card.Card, p *settle.Position, ante money.Amount) {
	times := func(w ruleset.Wager) money.Amount {
		spec, _ := rs.Wager(w)
		return ante * money.Amount(spec.Multiple.Times)
	}
	fold := func() {
		if r.IntN(2) == 0 {
			p.Folded = true // explicit; otherwise ruling R20 makes it a fold
		}
	}
	switch rs.Game {
	case ruleset.GameStud:
		v := hand.EvalHand(cards)
		if hand.QualifiesStud(v) || r.IntN(5) == 0 {
			p.Wagers["bet"] = times(ruleset.Bet)
		} else {
			fold()
		}
	case ruleset.GameThreeCard:
		if r.IntN(2) == 0 {
			p.Wagers["pairPlus"] = ante
		}
		v := hand.Eval3(cards[0], cards[1], cards[2])
		if hand.QualifiesTCP(v) || r.IntN(4) == 0 {
			p.Wagers["play"] = times(ruleset.Play)
		} else {
			fold()
		}
	case ruleset.GameHoldem:
		if r.IntN(5) < 2 {
			p.Wagers["bonus"] = ante
		}
		strong := cards[0].Rank() == cards[1].Rank() || cards[0].Rank() >= card.Ten || cards[1].Rank() >= card.Ten
		if strong || r.IntN(3) > 0 {
			p.Wagers["flop"] = times(ruleset.Flop)
			if r.IntN(2) == 0 {
				p.Wagers["turn"] = times(ruleset.Turn)
			}
			if r.IntN(2) == 0 {
				p.Wagers["river"] = times(ruleset.River)
			}
		} else {
			fold()
		}
	}
	if !p.Folded && r.IntN(50) == 0 {
		declined := false
		p.Exposed = &declined // ruling R8: did not expose the hand
	}
}

func (settleScenario) Request(seed, i uint64) Request {
	round := GenerateRound(seed, i)
	body, _ := json.Marshal(round)
	want, err := settle.Settle(round)
	return Request{
		Label: round.Ruleset, Method: "POST", Path: SettlePath, Body: body,
		Check: func(_ int, got []byte) string {
			if err != nil {
				// The local engine refused the round: the generator made a
				// bad one, and the server must not have accepted it.
				return "mismatch: server accepted a round the engine refuses"
			}
			return CompareSettlement(want, got)
		},
	}
}

// CompareSettlement compares an answer with the local engine's settlement:
// totals, void, every position's lines and jackpot eligibility, and the
// irregularities. It names the first part that differs.
func CompareSettlement(want settle.Settlement, got []byte) string {
	var ans settle.Settlement
	if err := json.Unmarshal(got, &ans); err != nil {
		return "mismatch: undecodable answer"
	}
	// Compare as the wire carries it: nil and empty slices alike.
	var w settle.Settlement
	b, _ := json.Marshal(want)
	_ = json.Unmarshal(b, &w)
	switch {
	case ans.Ruleset != w.Ruleset || ans.RoundID != w.RoundID || ans.Currency != w.Currency:
		return "mismatch: round identity"
	case ans.Totals != w.Totals:
		return "mismatch: totals"
	case ans.Void != w.Void:
		return "mismatch: void"
	case len(ans.Positions) != len(w.Positions):
		return "mismatch: positions"
	}
	for k := range w.Positions {
		a, e := ans.Positions[k], w.Positions[k]
		switch {
		case a.Seat != e.Seat || a.Outcome != e.Outcome:
			return "mismatch: outcome"
		case !reflect.DeepEqual(a.Lines, e.Lines):
			return "mismatch: lines"
		case !reflect.DeepEqual(a.Jackpot, e.Jackpot):
			return "mismatch: jackpot"
		case a.Staked != e.Staked || a.Net != e.Net:
			return "mismatch: position totals"
		}
	}
	if !reflect.DeepEqual(ans.Irregularities, w.Irregularities) {
		return "mismatch: irregularities"
	}
	return ""
}

func itoa(u uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			return string(b[i:])
		}
	}
}
