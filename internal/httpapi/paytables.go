package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// registerPaytables adds the rulesets, paytables and hand evaluation
// operations (the "paytables" function).
func registerPaytables(api huma.API, deps Deps) {
	registerRulesets(api, deps.rulesets())
	registerRulings(api, deps.rulesets())
	registerEvaluate(api)
	registerAnalysis(api, deps)
}

// RulesetList is the answer of GET /v1/rulesets.
type RulesetList struct {
	Rulesets []ruleset.View `json:"rulesets" nullable:"false" doc:"Every ruleset, sorted by id."`
}

type rulesetsOutput struct {
	Body RulesetList
}

type rulesetInput struct {
	ID string `path:"id" maxLength:"64" example:"mbs-megalink-ssp-v6" doc:"A ruleset id: mbs-megalink-ssp-v6, mbs-ssp-v4, mbs-megalink-tcp-v6, mbs-megalink-thb-v9 or rws-mlp-csp-v2."`
}

type rulesetOutput struct {
	Body ruleset.View
}

func registerRulesets(api huma.API, cat ruleset.Catalogue) {
	huma.Register(api, huma.Operation{
		OperationID: "list-rulesets",
		Method:      http.MethodGet,
		Path:        "/v1/rulesets",
		Summary:     "List the rulesets and their paytables",
		Description: "Every ruleset the service settles: the document (casino, version, in-force date), what each hand is made of, " +
			"the dealer qualifier, and every wager's paytable with its odds as written in the document and the rule numbers.",
		Tags: []string{"Rulesets"},
	}, func(ctx context.Context, _ *struct{}) (*rulesetsOutput, error) {
		out := &rulesetsOutput{}
		for _, rs := range cat.All() {
			out.Body.Rulesets = append(out.Body.Rulesets, rs.View())
		}
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "get-ruleset",
		Method:      http.MethodGet,
		Path:        "/v1/rulesets/{id}",
		Summary:     "Get one ruleset and its paytables",
		Description: "One ruleset: its document, hands, qualifier and every wager's paytable. An unknown id answers 404 naming path.id.",
		Tags:        []string{"Rulesets"},
		Errors:      []int{http.StatusNotFound},
	}, func(ctx context.Context, in *rulesetInput) (*rulesetOutput, error) {
		rs, err := cat.Find(in.ID)
		if err != nil {
			return nil, problemOf(ctx, err, "path")
		}
		return &rulesetOutput{Body: rs.View()}, nil
	})
}
