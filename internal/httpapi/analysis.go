package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/analysis"
	"github.com/tablesettle/tablesettle/internal/apispec"
	"github.com/tablesettle/tablesettle/internal/fault"
)

// registerAnalysis adds GET /v1/rulesets/{id}/analysis and
// POST /v1/paytables/analyze (the "paytables" function).
func registerAnalysis(api huma.API, deps Deps) {
	cat := deps.rulesets()
	huma.Register(api, huma.Operation{
		OperationID: "get-ruleset-analysis",
		Method:      http.MethodGet,
		Path:        "/v1/rulesets/{id}/analysis",
		Summary:     "The exact return of every wager of a ruleset",
		Description: "Exact fractions (and percentages for reading) from full enumeration with the service's own evaluator and paytables: " +
			"stud Ante+Bet under the optimal bet/fold decision and under \"bet on a pair or better\", element of risk, the dealer's chance to qualify; " +
			"TCP Pair Plus, Ante Bonus, Ante+Play under the optimal play/fold rule; THB Bonus; every progressive's fixed return, return per unit of meter and break-even meter. " +
			"The five-card stud figures are precomputed by `make analysis` and embedded.",
		Tags: []string{"Analysis"},
	}, func(ctx context.Context, in *rulesetAnalysisInput) (*analysisOutput, error) {
		figs, err := analysis.OfRuleset(ctx, cat, in.ID, in.Unit)
		if err != nil {
			return nil, analysisError(ctx, err, "path")
		}
		return &analysisOutput{Body: figs}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "analyze-paytable",
		Method:      http.MethodPost,
		Path:        "/v1/paytables/analyze",
		Summary:     "The exact return of a proposed paytable",
		Description: "What-if: the same figures as GET /v1/rulesets/{id}/analysis for a ruleset with some of its paytables replaced " +
			"(Pair Plus, Ante Bonus, THB Bonus, a progressive's prizes, the stud Bet table). A stud Bet table is analysed live over all " +
			"19,933,230,517,200 deals (about 1-3 s); a proposal whose computation would not finish well inside an API Gateway request (29 s) is refused with 422. " +
			"The THB Ante/Flop/Turn/River strategy (three decisions over about 55 trillion deals) is not offered for that reason.",
		Tags: []string{"Analysis"},
		// TCP Pair Plus at 40-30-6-4-1 instead of the document's table.
		RequestBody: apispec.BodyExample(map[string]any{
			"ruleset": "mbs-megalink-tcp-v6",
			"pairPlus": []any{
				map[string]any{"hand": "straight_flush", "num": 40}, map[string]any{"hand": "three_of_a_kind", "num": 30},
				map[string]any{"hand": "straight", "num": 6}, map[string]any{"hand": "flush", "num": 4},
				map[string]any{"hand": "one_pair", "num": 1},
			},
		}),
	}, func(ctx context.Context, in *analyzeInput) (*analysisOutput, error) {
		budget := deps.AnalysisBudget
		if budget == 0 {
			budget = analysis.StudBudget
		}
		if budget > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, budget)
			defer cancel()
		}
		figs, err := deps.AnalysisCache.Analyze(ctx, cat, in.Body)
		if err != nil {
			return nil, analysisError(ctx, err, "body")
		}
		return &analysisOutput{Body: figs}, nil
	})
}

type rulesetAnalysisInput struct {
	ID   string `path:"id" example:"mbs-megalink-tcp-v6" doc:"The ruleset id."`
	Unit int64  `query:"unit" minimum:"0" maximum:"100000000" doc:"The progressive wager unit in minor units, for the fixed prizes' return and the break-even meter (ruling R22: a pool's unit is its own setting). 0 or absent: 100 (1.00 of the currency)."`
}

type analysisOutput struct {
	Body analysis.Figures
}

type analyzeInput struct {
	Body analysis.Proposal
}

// analysisError maps a refusal of package analysis, its fields placed
// under prefix; a failure to compute answers 500 with its detail.
func analysisError(ctx context.Context, err error, prefix string) error {
	if e, ok := fault.As(err); ok && e.Kind == fault.Internal {
		return huma.Error500InternalServerError(e.Detail)
	}
	return problemOf(ctx, err, prefix)
}
