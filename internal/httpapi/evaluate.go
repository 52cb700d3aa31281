package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/hand"
)

// EvaluateRequest is the body of POST /v1/hands/evaluate.
type EvaluateRequest struct {
	Cards string `json:"cards" minLength:"1" maxLength:"200" example:"8C TS KC 9H 4S" doc:"The cards, separated by spaces or commas: rank 2-10, T, J, Q, K, A and suit c, d, h, s or ♣ ♦ ♥ ♠, any case."`
	Game  string `json:"game" enum:"five_card,three_card,holdem" example:"five_card" doc:"five_card: exactly 5 cards (rules 3.11-3.12 of the stud documents); three_card: exactly 3 (TCP v6 3.14-3.15); holdem: the best five of 5 to 7 cards (THB v9 3.10-3.12)."`
}

type evaluateInput struct {
	Body EvaluateRequest
}

type evaluateOutput struct {
	Body hand.Evaluation
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
		res, err := hand.Evaluate(in.Body.Cards, in.Body.Game)
		if err != nil {
			return nil, problemOf(ctx, err, "body")
		}
		return &evaluateOutput{Body: res}, nil
	})
}
