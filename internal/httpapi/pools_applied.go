package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/go-json-experiment/json"

	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// A round applied to a pool, read back for its correction (issue 35 item
// 2).

type appliedRoundInput struct {
	ID    string `path:"id" maxLength:"64"`
	Table string `path:"table" maxLength:"64"`
	Round string `path:"round" maxLength:"64"`
}

// AppliedRound is a round applied to a pool: the request as the table sent
// it and the answer it was given.
type AppliedRound struct {
	Pool   string              `json:"pool"`
	Table  string              `json:"table"`
	Round  string              `json:"round"`
	Sent   *PoolRoundRequest   `json:"sent,omitempty" doc:"The round as the table sent it (POST /v1/pools/{id}/rounds' body): the start of a correction. Absent for rounds applied before it was kept."`
	Result jackpot.RoundResult `json:"result" doc:"The answer the round was given when it was applied."`
}
type appliedRoundOutput struct {
	Body AppliedRound
}

// sentJSON is b as the round's record keeps it (the request, JSON).
func sentJSON(b PoolRoundRequest) []byte {
	out, _ := json.Marshal(b, apijson.EncodeOptions)
	return out
}

// registerAppliedRound adds the read of an applied round.
func registerAppliedRound(api huma.API, svc *pools.Service, tags []string) {
	huma.Register(api, huma.Operation{
		OperationID: "get-pool-round", Method: http.MethodGet, Path: "/v1/pools/{id}/rounds/{table}/{round}",
		Summary:     "A round applied to a pool: as sent, and its answer",
		Description: "The round as the table sent it (its cards and wagers) and the answer it was given: where a correction of the round starts (POST .../correction with the round edited). Rounds applied before the request was kept have no sent. 404 for no such round.",
		Tags:        tags,
	}, func(ctx context.Context, in *appliedRoundInput) (*appliedRoundOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		rec, err := svc.AppliedRound(ctx, in.ID, in.Table, in.Round)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		out := &appliedRoundOutput{Body: AppliedRound{Pool: in.ID, Table: in.Table, Round: in.Round, Result: rec.Result}}
		if len(rec.Sent) > 0 {
			var sent PoolRoundRequest
			if json.Unmarshal(rec.Sent, &sent) == nil {
				out.Body.Sent = &sent
			}
		}
		return out, nil
	})
}
