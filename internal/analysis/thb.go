package analysis

import (
	"fmt"

	"github.com/tablesettle/tablesettle/internal/ruleset"

	"github.com/tablesettle/tablesettle/internal/card"
)

// bonusHands lists the Bonus hands in the document's order (4.1.1).
var bonusHands = []string{ruleset.HoleAAandDealerAA, ruleset.HoleAA, ruleset.HoleAKSuited, ruleset.HoleAQAJSuited, ruleset.HoleAKOffsuit, ruleset.HoleHighPair, ruleset.HoleAQAJOffsuit, ruleset.HoleLowPair}

// BonusClassifier names the Bonus hand of the player's and the dealer's hole
// cards, "" for none: the settlement's own function (ruleset.HoleBonusHand)
// is passed in so the figures come from the rule that settles rounds.
type BonusClassifier func(player, dealer []card.Card) string

// THBBonusDeals is the number of (player hole cards, dealer hole cards)
// deals: C(52,2) x C(50,2).
const THBBonusDeals = 1326 * 1225

// Table2 is a Bonus paytable: odds by Bonus hand name.
type Table2 map[string]PayOdds

// Validate reports the first unusable line.
func (t Table2) Validate() error {
	known := map[string]bool{}
	for _, h := range bonusHands {
		known[h] = true
	}
	for h, o := range t {
		if !known[h] {
			return fmt.Errorf("%q is not a Bonus hand of THB v9 4.1.1", h)
		}
		if !o.Valid() {
			return fmt.Errorf("the odds for %s (%d to %d) must have 0 <= num <= %d and 0 < den <= %d", h, o.Num, o.Den, MaxOddsTerm, MaxOddsTerm)
		}
	}
	return nil
}

// THBBonus is the Bonus return, by enumeration of every player and dealer
// pair of hole cards (the top line needs the dealer's). The Bonus is lost
// only on a fold (ruling R16); no hand the Bonus pays is ever folded under
// any sensible strategy (the optimal strategy folds only 2-3 to 2-7
// unsuited), so the figure is the Bonus on its own.
func THBBonus(classify BonusClassifier, t Table2, rule string) WagerReturn {
	counts := map[string]uint64{}
	var none uint64
	p := make([]card.Card, 2)
	d := make([]card.Card, 2)
	for a := 0; a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			p[0], p[1] = card.Card(a), card.Card(b)
			for c := 0; c < 52; c++ {
				if c == a || c == b {
					continue
				}
				for e := c + 1; e < 52; e++ {
					if e == a || e == b {
						continue
					}
					d[0], d[1] = card.Card(c), card.Card(e)
					if h := classify(p, d); h != "" {
						counts[h]++
					} else {
						none++
					}
				}
			}
		}
	}
	var names []string
	var cs []uint64
	var odds []*PayOdds
	for _, h := range bonusHands {
		names = append(names, h)
		cs = append(cs, counts[h])
		if o, ok := t[h]; ok {
			odds = append(odds, &o)
		} else {
			odds = append(odds, nil)
		}
	}
	names = append(names, "no_bonus_hand")
	cs = append(cs, none)
	odds = append(odds, nil)
	w := oddsReturn("bonus", rule, THBBonusDeals, names, cs, odds)
	w.Notes = []string{"Ruling R16: the Bonus settles on the hole cards whatever the hand's outcome and is lost only on a fold; no paying Bonus hand is ever folded, so the figure holds under any sensible play."}
	return w
}
