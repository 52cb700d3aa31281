package ruleset

import "github.com/tablesettle/tablesettle/internal/card"

// HoleBonusHand names the THB v9 4.1.1 Bonus hand of a player's two hole
// cards, given the dealer's two hole cards (for "A-A in both the Player's
// hand and Dealer's hand"), or "" when the hole cards win no Bonus. Ruling
// R16: the Bonus settles on the hole cards whatever the hand's outcome.
//
// It needs exactly two cards on each side; with any other number it
// returns "".
func HoleBonusHand(player, dealer []card.Card) string {
	if len(player) != 2 {
		return ""
	}
	a, b := player[0], player[1]
	hi, lo := a.Rank(), b.Rank()
	if lo > hi {
		hi, lo = lo, hi
	}
	suited := a.Suit() == b.Suit()
	switch {
	case hi == card.Ace && lo == card.Ace:
		if len(dealer) == 2 && dealer[0].Rank() == card.Ace && dealer[1].Rank() == card.Ace {
			return HoleAAandDealerAA
		}
		return HoleAA
	case hi == card.Ace && lo == card.King:
		if suited {
			return HoleAKSuited
		}
		return HoleAKOffsuit
	case hi == card.Ace && (lo == card.Queen || lo == card.Jack):
		if suited {
			return HoleAQAJSuited
		}
		return HoleAQAJOffsuit
	case hi == lo && hi >= card.Jack:
		return HoleHighPair
	case hi == lo:
		return HoleLowPair
	}
	return ""
}
