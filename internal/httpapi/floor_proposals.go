package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/apispec"
	"github.com/tablesettle/tablesettle/internal/pools"
)

type proposalsInput struct {
	ID          string `path:"id" maxLength:"64"`
	IfNoneMatch string `header:"If-None-Match" doc:"An ETag of an earlier answer (or several, or *): 304 with no body while nothing changed."`
}
type proposalListOutput struct {
	ETag         string `header:"ETag" doc:"The answer's version: send it back as If-None-Match to poll."`
	CacheControl string `header:"Cache-Control"`
	Body         struct {
		Proposals []pools.OpenProposal `json:"proposals"`
	}
}

// registerProposalList adds the list of open proposals with their effects
// (issue 16; issue 24 item 4).
func registerProposalList(api huma.API, svc *pools.Service, tags []string) {
	op := huma.Operation{
		OperationID: "list-proposals", Method: http.MethodGet, Path: "/v1/pools/{id}/proposals",
		Summary: "Open proposals (dual control), with what each will do in money",
		Description: "The pool's adjustments, settings changes, corrections and voids waiting for a second principal's approval, not yet expired, oldest first: what each will do, who proposed it and when it expires, " +
			"and its effect: each meter before and after if it were approved now, the amount the house must recover from a winner, the reason, and a void's table, seat, hand and amount. " +
			"Poll with If-None-Match: 304 while nothing changed.",
		Tags: tags,
	}
	apispec.Conditional(&op)
	huma.Register(api, op, func(ctx context.Context, in *proposalsInput) (*proposalListOutput, error) {
		p, err := freshPool(ctx, svc, in.ID)
		if err != nil {
			return nil, err
		}
		tag := svc.Tag(p, "proposals")
		if matches(in.IfNoneMatch, tag) {
			return nil, notModified(tag)
		}
		out := &proposalListOutput{ETag: tag, CacheControl: "no-cache"}
		out.Body.Proposals = svc.OpenProposals(ctx, p)
		return out, nil
	})
}
