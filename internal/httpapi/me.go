package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// Me is the authenticated caller as the service knows it.
type Me struct {
	ID     string           `json:"id" example:"local-supervisor" doc:"The principal's id: a name from the principals file, or the caller's IAM ARN. Every ledger entry the principal causes names it."`
	Roles  []principal.Role `json:"roles" nullable:"false" doc:"What the principal may do (table, supervisor, cage, controller, admin)."`
	Tables []string         `json:"tables" nullable:"false" doc:"The table ids a table principal may report for."`
}

type meOutput struct{ Body Me }

// registerMe adds GET /v1/me: who the request's credentials name, so a
// client (the floor console) shows what its principal may do. It reads
// only the credentials already checked by the middleware.
func registerMe(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "get-me", Method: http.MethodGet, Path: "/v1/me",
		Summary:     "Who the credentials name",
		Description: "The authenticated principal: its id, roles and bound tables (issue 16). 401 without credentials, on every host.",
	}, func(ctx context.Context, _ *struct{}) (*meOutput, error) {
		p, ok := principal.FromContext(ctx)
		if !ok {
			return nil, problemOf(ctx, fault.New(fault.Unauthenticated, "GET /v1/me needs credentials"), "")
		}
		return &meOutput{Body: Me{ID: p.ID, Roles: append([]principal.Role{}, p.Roles...), Tables: append([]string{}, p.Tables...)}}, nil
	})
}
