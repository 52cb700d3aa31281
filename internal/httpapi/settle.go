package httpapi

import (
	"context"
	"net/http"
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/apispec"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// The settle operation's request types mirror the domain types of package
// settle field for field (Go converts between them directly, so a field
// added on one side and not the other does not compile), so that the
// spec's schema names are the settle group's own ("SettleRequest",
// "SettlePosition") and carry the request's bounds. The answer is settle's
// own types (apispec.SchemaName names them SettlePositionResult,
// SettleLine, SettleEligibility, SettleHand, SettleIrregularity,
// SettleTotals; their tags carry the spec's words) in a SettleResponse:
// copying each position, line and prize into a type of the edge was a
// fifth of a settle request's allocated bytes.

// SettleRequest is the body of POST /v1/rounds/settle.
type SettleRequest struct {
	Ruleset         string                 `json:"ruleset" doc:"The ruleset id."` // its enum is the catalogue's ids (rulesetEnum)
	RoundID         string                 `json:"roundId" maxLength:"128" doc:"The table's id of the round, echoed back."`
	Currency        string                 `json:"currency,omitempty" maxLength:"3" doc:"ISO 4217 code of every amount; default SGD. Rulesets with fixed prizes or caps in SGD (all but mbs-megalink-thb-v9 and mbs-ssp-v4) take SGD only."`
	Dealer          string                 `json:"dealer" maxLength:"200" doc:"The dealer's cards: 5 (stud games), 3 (TCP), the 2 hole cards (THB). Rank 2-10/T/J/Q/K/A then suit c/d/h/s or a suit symbol, any case, separated by spaces or commas."`
	Community       string                 `json:"community,omitempty" maxLength:"200" doc:"TCP: the 2 community cards; THB: the 5 community cards; absent in the stud games."`
	Limits          map[string]SettleLimit `json:"limits,omitempty" doc:"Table limits per wager name (ante, bet, ...), in minor units (ruling R11): a wager over the maximum settles as the maximum and the excess is returned; one under the minimum settles once and is flagged. Not for progressive (refused): its amount is the pool's unit, progressiveUnit (ruling R22)."`
	ProgressiveUnit money.Amount           `json:"progressiveUnit,omitempty" minimum:"0" doc:"The progressive pool's unit, minor units: required with a progressive wager in every ruleset but mbs-ssp-v4 (whose jackpot wagers are credits paid at odds). A progressive wager must equal it (ruling R22; rws-mlp-csp-v2 3.4); in mbs-megalink-thb-v9 it is 1-5 times it (3.5.3, ruling R17). Fixed prizes are paid per accepted wager of the unit (ruling R2); a unit at or above the smallest fixed prize is refused."`
	Positions       []SettlePosition       `json:"positions" minItems:"1" maxItems:"7" doc:"The playing positions with a wager, at most 7."`
	MagicCard       string                 `json:"magicCard,omitempty" maxLength:"8" doc:"mbs-ssp-v4 only, required with a jackpot wager: the system-selected Magic Card (4.3, ruling R13)."`
	LuckyPlayerSeat int                    `json:"luckyPlayerSeat,omitempty" minimum:"0" maximum:"7" doc:"mbs-ssp-v4 only, required with a jackpot wager: the seat the system selected as Lucky Player (4.4)."`
	LuckyDealer     *bool                  `json:"luckyDealer,omitempty" doc:"mbs-ssp-v4 only, required with a jackpot wager: whether this table's dealer is the Lucky Dealer (4.4.1)."`
}

// SettleLimit is a table's minimum and maximum for one wager.
type SettleLimit struct {
	Min money.Amount `json:"min,omitempty" minimum:"0" doc:"The table minimum, minor units."`
	Max money.Amount `json:"max,omitempty" minimum:"0" doc:"The table maximum, minor units (absent: none)."`
}

// SettlePosition is one playing position (betting box) and its wagers.
type SettlePosition struct {
	Seat                  int                     `json:"seat" minimum:"1" maximum:"7" doc:"1-7, dealing order from the dealer's left."`
	Cards                 string                  `json:"cards,omitempty" maxLength:"200" doc:"The player's cards: 5 (stud), 3 (TCP), the 2 hole cards (THB). May be empty only when exposed is false (ruling R8), for a folded hand with no jackpot or Pair Plus wager, or for an MBS player absent at the Bet/Play/Flop decision (5.11 returns the wagers; not with a THB bonus, which the hole cards decide)."`
	Wagers                map[string]money.Amount `json:"wagers" doc:"Wager name to amount in minor units: ante, bet, play, pairPlus, bonus, flop, turn, river, progressive (mbs-ssp-v4: progressivePlayer, progressiveDealer). A THB check is a missing turn or river; 0 is no wager. MBS continuation wagers are fixed multiples of the ante (ruling R20)."`
	Folded                bool                    `json:"folded,omitempty" doc:"The player folded (ruling R20: an ante with no continuation wager has folded anyway). Needs an ante: with none there is nothing to fold (TCP Pair Plus only, 3.9.3)."`
	Exposed               *bool                   `json:"exposed,omitempty" doc:"Default true. false: the player declined the comparison by not exposing the hand (ruling R8, R19)."`
	Absent                bool                    `json:"absent,omitempty" doc:"The player was not present to make a decision (MBS 5.11, RWS 5.5/5.6)."`
	ProgressiveMultiplier int                     `json:"progressiveMultiplier,omitempty" minimum:"0" maximum:"5" doc:"mbs-megalink-thb-v9 only, with a progressive wager: it is 1-5 times the minimum, progressiveUnit (3.5.3.1, ruling R17). Must equal progressive / progressiveUnit; absent: that quotient, which must be a whole 1 to 5."`
}

// SettleResponse is the answer of POST /v1/rounds/settle.
type SettleResponse struct {
	Ruleset        string                  `json:"ruleset"`
	RoundID        string                  `json:"roundId"`
	Currency       money.Currency          `json:"currency"`
	Void           bool                    `json:"void" doc:"The round is void: every wager returned (ruling R12)."`
	Dealer         *SettleDealer           `json:"dealer,omitempty" doc:"The dealer's hand; absent when the round is void."`
	Community      string                  `json:"community,omitempty" doc:"The community cards, canonical form."`
	Positions      []settle.PositionResult `json:"positions" doc:"One per position, in seat (dealing) order."`
	Irregularities []settle.Irregularity   `json:"irregularities" doc:"What the cards and wagers showed that the rules treat as irregular, and the outcome applied."`
	Totals         settle.Totals           `json:"totals"`
}

// SettleDealer is the dealer's hand and whether it qualifies.
type SettleDealer struct {
	Cards       string       `json:"cards"`
	Category    string       `json:"category"`
	Best        string       `json:"best"`
	Qualifies   bool         `json:"qualifies" doc:"Whether the dealer's hand qualifies (always true in THB, which has no qualifier)."`
	Progressive *settle.Hand `json:"progressive,omitempty" doc:"mbs-ssp-v4: the dealer's hand for the dealer-hand jackpot wager."`
	Rules       []string     `json:"rules"`
}

type settleInput struct {
	Body SettleRequest
}

type settleOutput struct {
	Body SettleResponse
}

// registerSettle adds the settle operations (the "settle" function).
func registerSettle(api huma.API, deps Deps) {
	cat := deps.rulesets()
	apispec.RulesetEnum(api, cat, reflect.TypeFor[SettleRequest]())
	settler := settle.Settler{Rulesets: cat}
	huma.Register(api, huma.Operation{
		OperationID: "settle-round",
		Method:      http.MethodPost,
		Path:        "/v1/rounds/settle",
		Summary:     "Settle a round",
		Description: "Settles one dealt round under one ruleset: what every wager pays and why (each line cites the rule or ruling it " +
			"applied), the dealer's hand and whether it qualifies, the jackpot prizes each position qualifies for (evaluated from " +
			"the cards), the irregularities the cards show, and the round's totals. Amounts are integers of the currency's minor " +
			"unit. Percentage-of-the-pool prizes are reported as eligibility for the pools service; fixed and odds prizes are paid " +
			"on the lines (rulings R2, R3). Stateless.",
		Tags: []string{"Settlement"},
		RequestBody: &huma.RequestBody{
			Required: true,
			Content: map[string]*huma.MediaType{"application/json": {
				Examples: map[string]*huma.Example{
					"ssp": {Summary: "Megalink Singapore Stud Poker, two seats", Value: exampleSettleSSP()},
					"tcp": {Summary: "Megalink Three Card Poker with Pair Plus and the jackpot", Value: exampleSettleTCP()},
				},
			}},
		},
	}, func(ctx context.Context, in *settleInput) (*settleOutput, error) {
		s, err := settler.Settle(in.Body.round())
		if err != nil {
			return nil, problemOf(ctx, err, "body")
		}
		return &settleOutput{Body: settleResponse(s)}, nil
	})
}

func (r *SettleRequest) round() settle.Round {
	out := settle.Round{
		Ruleset: r.Ruleset, RoundID: r.RoundID, Currency: r.Currency, Dealer: r.Dealer, Community: r.Community,
		MagicCard: r.MagicCard, LuckyPlayerSeat: r.LuckyPlayerSeat, LuckyDealer: r.LuckyDealer, ProgressiveUnit: r.ProgressiveUnit,
	}
	if r.Limits != nil {
		out.Limits = make(map[string]settle.Limit, len(r.Limits))
		for k, l := range r.Limits {
			out.Limits[k] = settle.Limit(l)
		}
	}
	out.Positions = make([]settle.Position, len(r.Positions))
	for i, p := range r.Positions {
		out.Positions[i] = settle.Position(p)
	}
	return out
}

// settleResponse is s as the API answers it. Its positions, their hands,
// lines and jackpot prizes, and its irregularities are settle's own (an
// empty list is written [], never null); only the dealer's hand has a
// shape of the edge's.
func settleResponse(s settle.Settlement) SettleResponse {
	out := SettleResponse{
		Ruleset: s.Ruleset, RoundID: s.RoundID, Currency: s.Currency, Void: s.Void, Community: s.Community,
		Positions: s.Positions, Irregularities: s.Irregularities, Totals: s.Totals,
	}
	if d := s.Dealer; d != nil {
		out.Dealer = &SettleDealer{Cards: d.Cards, Category: d.Category, Best: d.Best, Qualifies: d.Qualifies,
			Progressive: d.Progressive, Rules: d.Rules}
	}
	if out.Positions == nil {
		out.Positions = []settle.PositionResult{}
	}
	if out.Irregularities == nil {
		out.Irregularities = []settle.Irregularity{}
	}
	for i := range out.Positions {
		p := &out.Positions[i] // s's own: the settlement is this request's
		if p.Lines == nil {
			p.Lines = []settle.Line{}
		}
		if p.Jackpot == nil {
			p.Jackpot = []settle.Eligibility{}
		}
	}
	return out
}

func exampleSettleSSP() SettleRequest {
	return SettleRequest{
		Ruleset: "mbs-megalink-ssp-v6", RoundID: "T12-000123", Currency: "SGD",
		Dealer: "As Kd 7h 4c 2s", ProgressiveUnit: 100,
		Positions: []SettlePosition{
			{Seat: 1, Cards: "Qh Qd Qs 9c 9d", Wagers: map[string]money.Amount{"ante": 1000, "bet": 2000, "progressive": 100}},
			{Seat: 3, Cards: "Kc Qc 8s 5h 3d", Wagers: map[string]money.Amount{"ante": 1000}},
		},
	}
}

func exampleSettleTCP() SettleRequest {
	return SettleRequest{
		Ruleset: "mbs-megalink-tcp-v6", RoundID: "T07-004711",
		Dealer: "Qs 7d 3h", Community: "Ac As", ProgressiveUnit: 100,
		Limits: map[string]SettleLimit{"ante": {Min: 500, Max: 500000}},
		Positions: []SettlePosition{
			{Seat: 2, Cards: "Ah Ad 5c", Wagers: map[string]money.Amount{"ante": 1000, "play": 1000, "pairPlus": 500, "progressive": 100}},
		},
	}
}
