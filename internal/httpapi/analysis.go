package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/analysis"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/ruleset"
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
		return rulesetAnalysis(ctx, cat, in)
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
		RequestBody: bodyExample(map[string]any{
			"ruleset": "mbs-megalink-tcp-v6",
			"pairPlus": []any{
				map[string]any{"hand": "straight_flush", "num": 40}, map[string]any{"hand": "three_of_a_kind", "num": 30},
				map[string]any{"hand": "straight", "num": 6}, map[string]any{"hand": "flush", "num": 4},
				map[string]any{"hand": "one_pair", "num": 1},
			},
		}),
	}, func(ctx context.Context, in *analyzeInput) (*analysisOutput, error) {
		return deps.AnalysisCache.analyzeCached(func() (*analysisOutput, error) { return analyzeProposal(ctx, cat, in.Body) }, in.Body)
	})
}

type rulesetAnalysisInput struct {
	ID   string `path:"id" example:"mbs-megalink-tcp-v6" doc:"The ruleset id."`
	Unit int64  `query:"unit" minimum:"0" maximum:"100000000" doc:"The progressive wager unit in minor units, for the fixed prizes' return and the break-even meter (ruling R22: a pool's unit is its own setting). 0 or absent: 100 (1.00 of the currency)."`
}

type analysisOutput struct {
	Body analysis.Figures
}

func rulesetAnalysis(ctx context.Context, cat ruleset.Catalogue, in *rulesetAnalysisInput) (*analysisOutput, error) {
	rep, ok, err := analysis.PublishedFigures(in.ID)
	if err != nil {
		return nil, huma.Error500InternalServerError("the precomputed figures cannot be read")
	}
	if !ok {
		return nil, problemOf(ctx, &fault.Error{Kind: fault.NotFound, Detail: "no such ruleset",
			Fields: []fault.Problem{{Field: "path.id", Message: "unknown ruleset id", Value: in.ID}}}, "")
	}
	if in.Unit != 0 && in.Unit != analysis.DefaultUnit {
		r, _ := cat.Get(ruleset.ID(in.ID))
		spec, err := analysis.FromRuleset(r, in.Unit)
		if err != nil {
			return nil, huma.Error500InternalServerError("the ruleset cannot be analysed")
		}
		progs, err := analysis.Compute(ctx, []analysis.Spec{{Ruleset: spec.Ruleset, Game: spec.Game, Progressives: spec.Progressives}})
		if err != nil {
			return nil, huma.Error500InternalServerError("the progressive figures cannot be computed")
		}
		rep.Progressives = progs[0].Progressives
	}
	return &analysisOutput{Body: rep}, nil
}

// ProposedOddsLine is one line of a proposed fixed-odds paytable.
type ProposedOddsLine struct {
	Hand string `json:"hand" example:"straight_flush" doc:"A hand category (snake_case, e.g. straight_flush, one_pair, high_card) or, for the THB Bonus, a hole-card hand: aa_player_and_dealer, aa, ak_suited, aq_or_aj_suited, ak_unsuited, kk_qq_jj, aq_or_aj_unsuited, tt_to_22."`
	// OrLower lets a stud Bet line cover every lower category ("One Pair or Lower").
	OrLower bool  `json:"orLower,omitempty" doc:"Stud Bet only: the line also covers every lower category."`
	Num     int64 `json:"num" minimum:"0" maximum:"1000000" doc:"Pays num to den (ruling R2: the stake is returned on top)."`
	Den     int64 `json:"den,omitempty" minimum:"0" maximum:"1000000" doc:"Defaults to 1."`
}

// ProposedPrizeLine is one line of a proposed progressive paytable.
type ProposedPrizeLine struct {
	Hand        string `json:"hand" example:"four_of_a_kind" doc:"A five-card category, snake_case."`
	Kind        string `json:"kind" enum:"to_one,for_one,fixed,pool_percent" doc:"to_one: odds, stake returned; for_one: odds times the stake in all; fixed: amount per wager of the unit; pool_percent: basis points of the pool."`
	Num         int64  `json:"num,omitempty" minimum:"0" maximum:"1000000" doc:"PayOdds numerator (to_one, for_one)."`
	Den         int64  `json:"den,omitempty" minimum:"0" maximum:"1000000" doc:"PayOdds denominator, default 1."`
	Amount      int64  `json:"amount,omitempty" minimum:"0" maximum:"1000000000000" doc:"Minor units (fixed)."`
	BasisPoints int64  `json:"basisPoints,omitempty" minimum:"0" maximum:"10000" doc:"10000 = 100% of the pool (pool_percent)."`
	Multiplied  bool   `json:"multiplied,omitempty" doc:"THB 3.5.3.1: the line scales with the wager's multiple of the unit."`
}

// ProgressiveProposal replaces one progressive wager's paytable.
type ProgressiveProposal struct {
	Wager  string              `json:"wager,omitempty" example:"progressive" doc:"Which progressive wager of the ruleset (progressive; SSP v4: progressivePlayer or progressiveDealer). Default: the ruleset's first."`
	Prizes []ProposedPrizeLine `json:"prizes" minItems:"1" maxItems:"10"`
}

// AnalyzeRequest is the body of POST /v1/paytables/analyze.
type AnalyzeRequest struct {
	Ruleset     string               `json:"ruleset" example:"mbs-megalink-tcp-v6" doc:"The ruleset whose other rules and paytables the proposal keeps."`
	PairPlus    []ProposedOddsLine   `json:"pairPlus,omitempty" maxItems:"6" doc:"TCP: a Pair Plus table (replaces 4.3). Hands not listed lose."`
	AnteBonus   []ProposedOddsLine   `json:"anteBonus,omitempty" maxItems:"6" doc:"TCP: an Ante Bonus table (replaces 4.2)."`
	Bonus       []ProposedOddsLine   `json:"bonus,omitempty" maxItems:"8" doc:"THB: a Bonus table (replaces 4.1.1's Bonus lines). Hands not listed lose."`
	StudBet     []ProposedOddsLine   `json:"studBet,omitempty" maxItems:"10" doc:"Stud: a Bet table; it must pay every category from high_card to royal_flush (use orLower for \"One Pair or Lower\")."`
	Progressive *ProgressiveProposal `json:"progressive,omitempty"`
	Unit        int64                `json:"unit,omitempty" minimum:"0" maximum:"100000000" doc:"The progressive wager unit, minor units; default 100."`
}

type analyzeInput struct {
	Body AnalyzeRequest
}

// unprocessable is the 422 of a proposal (errors.go maps it).
func unprocessable(loc, msg string, value any) error {
	return problemOf(context.Background(), fault.InvalidFields(msg, fault.Problem{Field: loc, Message: msg, Value: value}), "")
}

func oddsOf(l ProposedOddsLine) analysis.PayOdds {
	d := l.Den
	if d == 0 {
		d = 1
	}
	return analysis.PayOdds{Num: l.Num, Den: d}
}

var threeCard = map[hand.Category]bool{hand.StraightFlush: true, hand.ThreeOfAKind: true, hand.Straight: true, hand.Flush: true, hand.OnePair: true, hand.HighCard: true}

func table3Of(field string, lines []ProposedOddsLine) (analysis.Table3, error) {
	t := analysis.Table3{}
	for i, l := range lines {
		loc := fmt.Sprintf("body.%s[%d]", field, i)
		c, ok := hand.ParseCategory(l.Hand)
		if !ok || !threeCard[c] {
			return nil, unprocessable(loc+".hand", "not a three-card hand (TCP v6 3.14): straight_flush, three_of_a_kind, straight, flush, one_pair or high_card", l.Hand)
		}
		if _, dup := t[c]; dup {
			return nil, unprocessable(loc+".hand", "this hand is listed twice", l.Hand)
		}
		if l.OrLower {
			return nil, unprocessable(loc+".orLower", "orLower is for the stud Bet table only", true)
		}
		o := oddsOf(l)
		if !o.Valid() {
			return nil, unprocessable(loc, "odds must be num to den with 0 <= num <= 1000000 and 0 < den <= 1000000", l)
		}
		t[c] = o
	}
	return t, nil
}

func applyProposal(r ruleset.Ruleset, req AnalyzeRequest, spec *analysis.Spec) error {
	game := r.Game
	if req.PairPlus != nil || req.AnteBonus != nil {
		if game != ruleset.GameThreeCard {
			f := "pairPlus"
			if req.PairPlus == nil {
				f = "anteBonus"
			}
			return unprocessable("body."+f, "only Three Card Poker (mbs-megalink-tcp-v6) has this wager", req.Ruleset)
		}
	}
	if req.PairPlus != nil {
		t, err := table3Of("pairPlus", req.PairPlus)
		if err != nil {
			return err
		}
		spec.PairPlus, spec.PairPlusRule = t, "proposed"
	}
	if req.AnteBonus != nil {
		t, err := table3Of("anteBonus", req.AnteBonus)
		if err != nil {
			return err
		}
		spec.AnteBonus, spec.AnteBonusRule = t, "proposed"
	}
	if req.Bonus != nil {
		if game != ruleset.GameHoldem {
			return unprocessable("body.bonus", "only Texas Hold'em Bonus (mbs-megalink-thb-v9) has the Bonus wager", req.Ruleset)
		}
		t := analysis.Table2{}
		for i, l := range req.Bonus {
			loc := fmt.Sprintf("body.bonus[%d]", i)
			t[l.Hand] = oddsOf(l)
			if err := (analysis.Table2{l.Hand: oddsOf(l)}).Validate(); err != nil {
				return unprocessable(loc, err.Error(), l)
			}
			if l.OrLower {
				return unprocessable(loc+".orLower", "orLower is for the stud Bet table only", true)
			}
		}
		if len(t) != len(req.Bonus) {
			return unprocessable("body.bonus", "a Bonus hand is listed twice", nil)
		}
		spec.Bonus, spec.BonusRule = t, "proposed"
	}
	if req.StudBet != nil {
		if game != ruleset.GameStud {
			return unprocessable("body.studBet", "only the five-card stud rulesets have the Bet wager", req.Ruleset)
		}
		var b analysis.StudBet
		set := map[hand.Category]bool{}
		for i, l := range req.StudBet {
			loc := fmt.Sprintf("body.studBet[%d]", i)
			c, ok := hand.ParseCategory(l.Hand)
			if !ok {
				return unprocessable(loc+".hand", "not a five-card category (high_card ... royal_flush)", l.Hand)
			}
			o := oddsOf(l)
			if !o.Valid() {
				return unprocessable(loc, "odds must be num to den with 0 <= num <= 1000000 and 0 < den <= 1000000", l)
			}
			lo := c
			if l.OrLower {
				lo = hand.HighCard
			}
			for k := lo; k <= c; k++ {
				if set[k] {
					return unprocessable(loc+".hand", fmt.Sprintf("%s is already paid by an earlier line", k), l.Hand)
				}
				set[k] = true
				b[k] = o
			}
		}
		for _, c := range hand.Categories() {
			if !set[c] {
				return unprocessable("body.studBet", fmt.Sprintf("the Bet table must pay every category; %s is missing (a winning Bet always pays)", c), nil)
			}
		}
		spec.StudBet, spec.StudRule = &b, "proposed"
	}
	if req.Progressive != nil {
		if len(spec.Progressives) == 0 {
			return unprocessable("body.progressive", "the ruleset has no progressive wager", req.Ruleset)
		}
		idx := 0
		if req.Progressive.Wager != "" {
			idx = -1
			for i, p := range spec.Progressives {
				if p.Wager == req.Progressive.Wager {
					idx = i
				}
			}
			if idx < 0 {
				return unprocessable("body.progressive.wager", "the ruleset has no such progressive wager", req.Progressive.Wager)
			}
		}
		p := spec.Progressives[idx]
		p.Prizes = nil
		for i, z := range req.Progressive.Prizes {
			loc := fmt.Sprintf("body.progressive.prizes[%d]", i)
			c, ok := hand.ParseCategory(z.Hand)
			if !ok {
				return unprocessable(loc+".hand", "not a five-card category (high_card ... royal_flush)", z.Hand)
			}
			d := z.Den
			if d == 0 {
				d = 1
			}
			p.Prizes = append(p.Prizes, analysis.Prize{Category: c, Hand: z.Hand, Kind: analysis.PrizeKind(z.Kind),
				Odds: analysis.PayOdds{Num: z.Num, Den: d}, Amount: z.Amount, BasisPoints: z.BasisPoints, Multiplied: z.Multiplied, Rule: "proposed"})
			one := analysis.Progressive{Unit: p.Unit, Prizes: p.Prizes[len(p.Prizes)-1:]}
			if err := one.Validate(); err != nil {
				return unprocessable(loc, err.Error(), z)
			}
		}
		if err := p.Validate(); err != nil {
			return unprocessable("body.progressive.prizes", err.Error(), nil)
		}
		p.Rule = "proposed"
		spec.Progressives = []analysis.Progressive{p}
	}
	return nil
}

func analyzeProposal(ctx context.Context, cat ruleset.Catalogue, req AnalyzeRequest) (*analysisOutput, error) {
	r, ok := cat.Get(ruleset.ID(req.Ruleset))
	if !ok {
		return nil, unprocessable("body.ruleset", "unknown ruleset id", req.Ruleset)
	}
	if req.PairPlus == nil && req.AnteBonus == nil && req.Bonus == nil && req.StudBet == nil && req.Progressive == nil {
		return nil, unprocessable("body", "propose at least one paytable: pairPlus, anteBonus, bonus, studBet or progressive", nil)
	}
	unit := req.Unit
	if unit == 0 {
		unit = analysis.DefaultUnit
	}
	spec, err := analysis.FromRuleset(r, unit)
	if err != nil {
		return nil, huma.Error500InternalServerError("the ruleset cannot be analysed")
	}
	published, _, err := analysis.PublishedFigures(req.Ruleset)
	if err != nil {
		return nil, huma.Error500InternalServerError("the precomputed figures cannot be read")
	}
	proposedStud := req.StudBet != nil
	if err := applyProposal(r, req, &spec); err != nil {
		return nil, err
	}
	if !proposedStud {
		spec.StudBet = nil // the document's Bet table: its figures are precomputed
	}
	cctx, cancel := context.WithTimeout(ctx, analysis.StudBudget)
	defer cancel()
	reps, err := analysis.Compute(cctx, []analysis.Spec{spec})
	if errors.Is(err, analysis.ErrTooSlow) {
		return nil, unprocessable("body.studBet", fmt.Sprintf("the analysis would not finish inside %v, well inside an API Gateway request (29 s); try again when the service is less busy", analysis.StudBudget), nil)
	}
	if err != nil {
		return nil, huma.Error500InternalServerError("the analysis failed")
	}
	rep := reps[0]
	if !proposedStud && r.Game == ruleset.GameStud {
		rep.AnteBet, rep.StudBetTable, rep.StudBetRule, rep.DealerQualifies = published.AnteBet, published.StudBetTable, published.StudBetRule, published.DealerQualifies
		rep.Notes = append(published.Notes, rep.Notes...)
	}
	rep.Notes = append(rep.Notes, "What-if analysis of a proposed paytable; lines marked rule \"proposed\" are the caller's, the rest are the ruleset's.")
	return &analysisOutput{Body: rep}, nil
}
