package httpapi

import (
	"fmt"
	"sort"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
)

// progressiveLine is one line of a progressive paytable.
type progressiveLine struct {
	cat   hand.Category
	prize jackpot.Prize
}

func pct(bp money.BasisPoints) jackpot.Prize {
	return jackpot.Prize{Kind: jackpot.PrizePercent, BP: bp}
}
func fixed(a money.Amount) jackpot.Prize { return jackpot.Prize{Kind: jackpot.PrizeFixed, Amount: a} }
func oddsTo(n int64) jackpot.Prize {
	return jackpot.Prize{Kind: jackpot.PrizeOddsTo, Odds: money.Ratio{Num: n, Den: 1}}
}
func oddsFor(n int64) jackpot.Prize {
	return jackpot.Prize{Kind: jackpot.PrizeOddsFor, Odds: money.Ratio{Num: n, Den: 1}}
}

// progressivePaytables are the rule documents' progressive pay tables, with
// the clause each cites. Fixed amounts are SGD minor units (R1).
var progressivePaytables = map[string]struct {
	clause string
	lines  []progressiveLine
}{
	"mbs-megalink-ssp-v6": {"4.2", []progressiveLine{{hand.RoyalFlush, pct(10000)}, {hand.StraightFlush, pct(1000)}, {hand.FourOfAKind, fixed(200_000)}, {hand.FullHouse, fixed(20_000)}, {hand.Flush, fixed(10_000)}}},
	"mbs-megalink-tcp-v6": {"4.4", []progressiveLine{{hand.RoyalFlush, pct(10000)}, {hand.StraightFlush, pct(1000)}, {hand.FourOfAKind, fixed(200_000)}, {hand.FullHouse, fixed(20_000)}, {hand.Flush, fixed(10_000)}}},
	"mbs-megalink-thb-v9": {"4.2", []progressiveLine{{hand.RoyalFlush, pct(10000)}, {hand.StraightFlush, pct(1000)}, {hand.FourOfAKind, oddsFor(400)}, {hand.FullHouse, oddsFor(80)}, {hand.Flush, oddsFor(40)}, {hand.Straight, oddsFor(20)}}},
	"mbs-ssp-v4":          {"4.2", []progressiveLine{{hand.RoyalFlush, pct(10000)}, {hand.StraightFlush, pct(1000)}, {hand.FourOfAKind, oddsTo(500)}, {hand.FullHouse, oddsTo(100)}, {hand.Flush, oddsTo(50)}}},
	"rws-mlp-csp-v2":      {"4.2", []progressiveLine{{hand.RoyalFlush, pct(10000)}, {hand.StraightFlush, pct(1000)}, {hand.FourOfAKind, fixed(200_000)}, {hand.FullHouse, fixed(20_000)}, {hand.Flush, fixed(10_000)}}},
}

// progressiveHand returns the five cards of a position's progressive hand
// (README "What each hand is made of"): SSP/RWS the player's 5; TCP the
// player's 3 and the 2 community cards; THB the 2 hole cards and the flop.
func progressiveHand(ruleset string, own, community []card.Card) ([]card.Card, string) {
	switch ruleset {
	case "mbs-megalink-tcp-v6":
		if len(own) != 3 || len(community) != 2 {
			return nil, "TCP's progressive hand is the player's 3 cards and the 2 community cards (mbs-megalink-tcp-v6 4.4)"
		}
		return append(append([]card.Card{}, own...), community...), ""
	case "mbs-megalink-thb-v9":
		if len(own) != 2 || len(community) < 3 {
			return nil, "THB's progressive hand is the 2 hole cards and the flop (mbs-megalink-thb-v9 4.2)"
		}
		return append(append([]card.Card{}, own...), community[:3]...), ""
	default:
		if len(own) != 5 {
			return nil, "the progressive hand is the 5 dealt cards"
		}
		return own, ""
	}
}

// jackpotRound turns a round as sent to settle into what the pool needs:
// the accepted progressive wagers, and the hits evaluated from the cards by
// the service itself (ruling R14).
func jackpotRound(b PoolRoundRequest, s jackpot.Settings) (jackpot.Round, error) {
	pt, ok := progressivePaytables[b.Ruleset]
	if !ok || !s.Serves(b.Ruleset) {
		return jackpot.Round{}, fieldErr("body.ruleset", fmt.Sprintf("the pool does not serve ruleset %q", b.Ruleset), b.Ruleset)
	}
	r := jackpot.Round{Ruleset: b.Ruleset, Table: b.Table, Round: b.Round, DealtAt: b.DealtAt, Currency: b.Currency,
		Wagers: []jackpot.ProgressiveWager{}, Hits: []jackpot.Hit{}}
	community, err := card.ParseList(b.Community)
	if err != nil {
		return r, fieldErr("body.community", err.Error(), b.Community)
	}
	dealer, err := card.ParseList(b.Dealer)
	if err != nil {
		return r, fieldErr("body.dealer", err.Error(), b.Dealer)
	}
	all := [][]card.Card{community, dealer}
	positions := append([]RoundPosition(nil), b.Positions...)
	idx := make([]int, len(positions))
	for i := range idx {
		idx[i] = i
	}
	// Dealing order: clockwise from the dealer's left, i.e. by seat.
	sort.SliceStable(idx, func(i, j int) bool { return positions[idx[i]].Seat < positions[idx[j]].Seat })
	dealt := map[int]int{}
	for k, i := range idx {
		if _, dup := dealt[positions[i].Seat]; dup {
			return r, fieldErr(fmt.Sprintf("body.positions[%d].seat", i), "a seat appears twice", positions[i].Seat)
		}
		dealt[positions[i].Seat] = k + 1
	}
	eval := func(cards []card.Card, loc string) (hand.Category, error) {
		five, msg := progressiveHand(b.Ruleset, cards, community)
		if msg != "" {
			return hand.Invalid, fieldErr(loc, msg, card.Format(cards))
		}
		return hand.EvalHand(five).Category(), nil
	}
	hitFor := func(cat hand.Category, seat int, wager string, stake money.Amount) {
		for _, l := range pt.lines {
			if l.cat == cat {
				r.Hits = append(r.Hits, jackpot.Hit{Seat: seat, Dealt: dealt[seat], Wager: wager, Category: cat.String(), Prize: l.prize,
					Stake: stake, Rules: []string{b.Ruleset + " " + pt.clause, "ruling R14"}})
			}
		}
	}
	var dealerCat hand.Category
	if len(dealer) > 0 && b.Ruleset == "mbs-ssp-v4" {
		if len(dealer) != 5 {
			return r, fieldErr("body.dealer", "the dealer's hand is 5 cards", b.Dealer)
		}
		dealerCat = hand.EvalHand(dealer).Category()
	}
	for i, p := range positions {
		loc := fmt.Sprintf("body.positions[%d]", i)
		cards, err := card.ParseList(p.Cards)
		if err != nil {
			return r, fieldErr(loc+".cards", err.Error(), p.Cards)
		}
		all = append(all, cards)
		if p.Progressive > 0 {
			r.Wagers = append(r.Wagers, jackpot.ProgressiveWager{Seat: p.Seat, Wager: jackpot.WagerPlayer, Amount: p.Progressive})
			// R8: a declined hand, or one whose cards are not supplied, has
			// no jackpot combination.
			if !p.Declined && len(cards) > 0 {
				cat, err := eval(cards, loc+".cards")
				if err != nil {
					return r, err
				}
				hitFor(cat, p.Seat, jackpot.WagerPlayer, p.Progressive)
			}
		}
		if p.DealerProgressive > 0 {
			if b.Ruleset != "mbs-ssp-v4" {
				return r, fieldErr(loc+".dealer_progressive", "only SSP v4 takes a dealer-hand jackpot wager (mbs-ssp-v4 3.5)", p.DealerProgressive)
			}
			r.Wagers = append(r.Wagers, jackpot.ProgressiveWager{Seat: p.Seat, Wager: jackpot.WagerDealer, Amount: p.DealerProgressive})
			// R22: every dealer-hand wager at the table wins a dealer-hand hit.
			if dealerCat != hand.Invalid {
				hitFor(dealerCat, p.Seat, jackpot.WagerDealer, p.DealerProgressive)
			}
		}
	}
	// R12: the same card twice voids the round; a void round does not
	// reach the pool.
	if c, dup := card.Duplicate(all...); dup {
		return r, fieldErr("body", fmt.Sprintf("%s appears twice: the round is void (ruling R12) and does not reach the pool", c), nil)
	}
	return r, nil
}
