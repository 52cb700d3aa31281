package hand

import (
	"fmt"
	"slices"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/fault"
)

// Evaluation is a hand as a game ranks it (POST /v1/hands/evaluate).
type Evaluation struct {
	Category string   `json:"category" example:"high_card" doc:"The order of hands: royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, one_pair or high_card."`
	Rank     int64    `json:"rank" doc:"Orders hands of the same game exactly as the rules do: higher beats lower, equal is a stand-off. Compare only ranks of the same game."`
	Best     string   `json:"best" example:"Kc Ts 9h 8c 4s" doc:"The cards that make the hand, in canonical form (the best five for holdem)."`
	Rules    []string `json:"rules" doc:"The rules that ranked the hand."`
}

// Evaluate ranks cards (as card.ParseList reads them) as game ranks them:
// five_card, exactly 5 cards (rules 3.11-3.12 of the stud documents);
// three_card, exactly 3 (TCP v6 3.14-3.15); holdem, the best five of 5 to
// 7 (THB v9 3.10-3.12). Cards that cannot be read, repeat or do not fit
// the game are fault.Invalid at field "cards", an unknown game at "game".
func Evaluate(cardsText, game string) (Evaluation, error) {
	cards, err := card.ParseList(cardsText)
	if err != nil {
		return Evaluation{}, fault.InvalidFields("a card cannot be read",
			fault.Problem{Field: "cards", Message: err.Error(), Value: cardsText})
	}
	if c, dup := card.Duplicate(cards); dup {
		return Evaluation{}, fault.InvalidFields("a card is repeated",
			fault.Problem{Field: "cards", Message: fmt.Sprintf("%s appears more than once", c), Value: cardsText})
	}
	count := func(want string) error {
		return fault.InvalidFields("wrong number of cards",
			fault.Problem{Field: "cards", Message: fmt.Sprintf("game %s takes %s cards, got %d", game, want, len(cards)), Value: cardsText})
	}
	switch game {
	case "five_card":
		if len(cards) != 5 {
			return Evaluation{}, count("5")
		}
		v := EvalHand(cards)
		return Evaluation{Category: v.Category().String(), Rank: int64(v), Best: card.Format(sortForDisplay(cards)),
			Rules: []string{"mbs-megalink-ssp-v6 3.11", "mbs-megalink-ssp-v6 3.12"}}, nil
	case "three_card":
		if len(cards) != 3 {
			return Evaluation{}, count("3")
		}
		v := Eval3(cards[0], cards[1], cards[2])
		return Evaluation{Category: v.Category().String(), Rank: int64(v), Best: card.Format(sortForDisplay(cards)),
			Rules: []string{"mbs-megalink-tcp-v6 3.14", "mbs-megalink-tcp-v6 3.15"}}, nil
	case "holdem":
		if len(cards) < 5 || len(cards) > 7 {
			return Evaluation{}, count("5 to 7")
		}
		v, best := Best(cards)
		return Evaluation{Category: v.Category().String(), Rank: int64(v), Best: card.Format(sortForDisplay(best[:])),
			Rules: []string{"mbs-megalink-thb-v9 3.10", "mbs-megalink-thb-v9 3.11", "mbs-megalink-thb-v9 3.12"}}, nil
	}
	return Evaluation{}, fault.InvalidFields("unknown game",
		fault.Problem{Field: "game", Message: "game must be five_card, three_card or holdem", Value: game})
}

// sortForDisplay returns a copy of cards ordered by rank, highest first
// (suit order breaks ties so the output is canonical).
func sortForDisplay(cards []card.Card) []card.Card {
	out := slices.Clone(cards)
	slices.Sort(out)
	slices.Reverse(out)
	return out
}
