package httpapi

import (
	"context"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// EvaluateRequest is the body of POST /v1/hands/evaluate.
type EvaluateRequest struct {
	Cards string `json:"cards" minLength:"1" maxLength:"200" example:"8C TS KC 9H 4S" doc:"The cards, separated by spaces or commas: rank 2-10, T, J, Q, K, A and suit c, d, h, s or ♣ ♦ ♥ ♠, any case."`
	Game  string `json:"game" enum:"five_card,three_card,holdem" example:"five_card" doc:"five_card: exactly 5 cards (rules 3.11-3.12 of the stud documents); three_card: exactly 3 (TCP v6 3.14-3.15); holdem: the best five of 5 to 7 cards (THB v9 3.10-3.12)."`
}

// EvaluateResponse is the answer of POST /v1/hands/evaluate.
type EvaluateResponse struct {
	Category string   `json:"category" example:"high_card" doc:"The order of hands: royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, one_pair or high_card."`
	Rank     int64    `json:"rank" doc:"Orders hands of the same game exactly as the rules do: higher beats lower, equal is a stand-off. Compare only ranks of the same game."`
	Best     string   `json:"best" example:"Kc Ts 9h 8c 4s" doc:"The cards that make the hand, in canonical form (the best five for holdem)."`
	Rules    []string `json:"rules" doc:"The rules that ranked the hand."`
}

type evaluateInput struct {
	Body EvaluateRequest
}

type evaluateOutput struct {
	Body EvaluateResponse
}

func registerEvaluate(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "evaluate-hand",
		Method:      http.MethodPost,
		Path:        "/v1/hands/evaluate",
		Summary:     "Evaluate a poker hand",
		Description: "Ranks a five-card, three-card or Hold'em hand exactly as the rule documents order hands.",
		Tags:        []string{"Hands"},
	}, func(ctx context.Context, in *evaluateInput) (*evaluateOutput, error) {
		res, err := evaluate(in.Body)
		if err != nil {
			return nil, problemOf(ctx, err, "")
		}
		return &evaluateOutput{Body: res}, nil
	})
}

func evaluate(req EvaluateRequest) (EvaluateResponse, error) {
	cards, err := card.ParseList(req.Cards)
	if err != nil {
		return EvaluateResponse{}, fault.InvalidFields("a card cannot be read",
			fault.Problem{Field: "body.cards", Message: err.Error(), Value: req.Cards})
	}
	if c, dup := card.Duplicate(cards); dup {
		return EvaluateResponse{}, fault.InvalidFields("a card is repeated",
			fault.Problem{Field: "body.cards", Message: fmt.Sprintf("%s appears more than once", c), Value: req.Cards})
	}
	count := func(want string) error {
		return fault.InvalidFields("wrong number of cards",
			fault.Problem{Field: "body.cards", Message: fmt.Sprintf("game %s takes %s cards, got %d", req.Game, want, len(cards)), Value: req.Cards})
	}
	switch req.Game {
	case "five_card":
		if len(cards) != 5 {
			return EvaluateResponse{}, count("5")
		}
		v := hand.EvalHand(cards)
		return EvaluateResponse{Category: v.Category().String(), Rank: int64(v), Best: card.Format(sortForDisplay(cards)),
			Rules: []string{"mbs-megalink-ssp-v6 3.11", "mbs-megalink-ssp-v6 3.12"}}, nil
	case "three_card":
		if len(cards) != 3 {
			return EvaluateResponse{}, count("3")
		}
		v := hand.Eval3(cards[0], cards[1], cards[2])
		return EvaluateResponse{Category: v.Category().String(), Rank: int64(v), Best: card.Format(sortForDisplay(cards)),
			Rules: []string{"mbs-megalink-tcp-v6 3.14", "mbs-megalink-tcp-v6 3.15"}}, nil
	case "holdem":
		if len(cards) < 5 || len(cards) > 7 {
			return EvaluateResponse{}, count("5 to 7")
		}
		v, best := hand.Best(cards)
		return EvaluateResponse{Category: v.Category().String(), Rank: int64(v), Best: card.Format(sortForDisplay(best[:])),
			Rules: []string{"mbs-megalink-thb-v9 3.10", "mbs-megalink-thb-v9 3.11", "mbs-megalink-thb-v9 3.12"}}, nil
	}
	return EvaluateResponse{}, fault.InvalidFields("unknown game",
		fault.Problem{Field: "body.game", Message: "game must be five_card, three_card or holdem", Value: req.Game})
}

// sortForDisplay returns a copy of cards ordered by rank, highest first
// (suit order breaks ties so the output is canonical).
func sortForDisplay(cards []card.Card) []card.Card {
	out := append([]card.Card(nil), cards...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] > out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
