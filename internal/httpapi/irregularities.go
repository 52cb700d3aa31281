package httpapi

import (
	"context"
	"net/http"
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tablesettle/tablesettle/internal/apispec"
	"github.com/tablesettle/tablesettle/internal/irregularity"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// IrregularityRequest is the body of POST /v1/irregularities.
type IrregularityRequest struct {
	Ruleset string         `json:"ruleset" example:"mbs-megalink-ssp-v6" doc:"The ruleset the round is played under."` // its enum is the catalogue's ids (rulesetEnum)
	Kind    string         `json:"kind" minLength:"1" maxLength:"64" example:"power_failure" doc:"The event kind, as listed by GET /v1/rulesets/{id}/irregularities. A kind another ruleset covers but this one does not is referred to the shift manager; an unknown kind is refused."`
	Facts   map[string]any `json:"facts,omitempty" doc:"The event's facts, by name: true/false, whole numbers, enum strings, or lists of seat numbers, as the catalogue types them."`
	Round   *RoundInput    `json:"round,omitempty" doc:"Optional: the round as sent to POST /v1/rounds/settle. With it the answer carries the settlement lines the outcome decides (returned wagers and their amounts, per seat)."`
	// Additional are further irregularities of the same round (ruling R28).
	Additional []IrregularityEvent `json:"additional,omitempty" maxItems:"16" doc:"Optional: further irregularities of the same round, reported with this one (ruling R28). Each is decided and listed in the answer's events; where they conflict the outcome that voids or returns most wins."`
}

// IrregularityEvent is one further irregularity of a report (ruling R28).
type IrregularityEvent struct {
	Kind  string         `json:"kind" minLength:"1" maxLength:"64" doc:"The event kind, as for the report's kind."`
	Facts map[string]any `json:"facts,omitempty" doc:"The event's facts, as for the report's facts."`
}

// RoundInput is the part of a settle round an irregularity outcome reads:
// the positions and their wagers. Every other field of the settle round
// (dealer, community, cards, limits...) is accepted and ignored, so the
// round can be sent exactly as it was sent to settle.
type RoundInput struct {
	Ruleset         string          `json:"ruleset,omitempty" doc:"If given, must be the request's ruleset."`
	RoundID         string          `json:"roundId,omitempty" maxLength:"128" doc:"The round's id, echoed in the settlement."`
	Currency        string          `json:"currency,omitempty" default:"SGD" pattern:"^[A-Z]{3}$" doc:"ISO 4217 code of the amounts (default SGD)."`
	ProgressiveUnit int64           `json:"progressiveUnit,omitempty" minimum:"0" maximum:"1000000000000" doc:"Optional: the progressive pool's unit in minor units, as sent to settle. With it every progressive wager must be the unit (mbs-megalink-thb-v9: 1-5 times it), ruling R22, R17; without it the progressive wagers of one round must agree."`
	Positions       []PositionInput `json:"positions" minItems:"1" maxItems:"7" doc:"One entry per betting position."`
	_               struct{}        `additionalProperties:"true"`
}

// UnmarshalJSONFrom reads the round as its schema says: further members
// (of the settle round) are taken and ignored, here and in its positions,
// so the codec's RejectUnknownMembers (internal/apijson) is lifted for it.
//
// A member that differs only in case from a name the round reads
// ("RoundId", "CURRENCY") is refused as unexpected, as everywhere else:
// taken and ignored, it would leave the field it was meant for unset.
func (r *RoundInput) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	type plain RoundInput
	val, err := dec.ReadValue()
	if err != nil {
		return err
	}
	var members map[string]jsontext.Value
	if json.Unmarshal(val, &members) == nil {
		for name := range members {
			for _, known := range roundInputNames {
				if name != known && strings.EqualFold(name, known) {
					return &json.SemanticError{JSONPointer: dec.StackPointer().AppendToken(name), Err: json.ErrUnknownName}
				}
			}
		}
	}
	return json.Unmarshal(val, (*plain)(r), json.RejectUnknownMembers(false))
}

// roundInputNames are the members RoundInput reads.
var roundInputNames = []string{"ruleset", "roundId", "currency", "progressiveUnit", "positions"}

// PositionInput is one position of the round: its seat and wagers.
type PositionInput struct {
	Seat   int              `json:"seat" minimum:"1" maximum:"7" doc:"1-7, in dealing order from the dealer's left."`
	Wagers map[string]int64 `json:"wagers" doc:"Wager name to amount in minor units (ante, bet, play, pairPlus, bonus, flop, turn, river, progressive; SSP v4 progressivePlayer, progressiveDealer)."`
	_      struct{}         `additionalProperties:"true"`
}

type irregularityInput struct {
	Body IrregularityRequest
}

type irregularityOutput struct {
	Body irregularity.Outcome
}

type catalogueInput struct {
	ID string `path:"id" doc:"The ruleset id, e.g. mbs-megalink-ssp-v6."`
}

type catalogueOutput struct {
	Body irregularity.Ruleset
}

// registerIrregularities adds the irregularities operations (the "irregularities" function).
func registerIrregularities(api huma.API, deps Deps) {
	cat := deps.rulesets()
	apispec.RulesetEnum(api, cat, reflect.TypeFor[IrregularityRequest]())
	huma.Register(api, huma.Operation{
		OperationID: "list-irregularities",
		Method:      http.MethodGet,
		Path:        "/v1/rulesets/{id}/irregularities",
		Summary:     "The irregularities a ruleset covers",
		Description: "The event kinds of the ruleset's section 5 (and 6.1 / RWS 5.24), each with the facts it needs and its decision table citing the rules, and the clauses that name no event, with the reason.",
		Tags:        []string{"Irregularities"},
		Errors:      []int{http.StatusNotFound},
	}, func(ctx context.Context, in *catalogueInput) (*catalogueOutput, error) {
		rs, err := irregularity.Find(cat, in.ID)
		if err != nil {
			return nil, problemOf(ctx, err, "path")
		}
		return &catalogueOutput{Body: *rs}, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "decide-irregularity",
		Method:      http.MethodPost,
		Path:        "/v1/irregularities",
		Summary:     "What an irregularity means for the round",
		Description: "Reports an event and its facts; answers the outcome the ruleset prescribes (round void, hand removed, play continues, options to offer, settled to the maximum, or referred to the shift manager), citing the rules, and with a round attached the wagers it returns.",
		Tags:        []string{"Irregularities"},
		Errors:      []int{http.StatusUnprocessableEntity},
		// A power failure before any outcome at MBS (SSP v6 5.16.1): seat 3
		// takes the option to withdraw; the answer returns its wagers.
		RequestBody: apispec.BodyExample(map[string]any{
			"ruleset": "mbs-megalink-ssp-v6", "kind": "power_failure",
			"facts": map[string]any{"outcomeEstablished": false, "withdrawnSeats": []int{3}},
			"round": map[string]any{"roundId": "T1-0007", "positions": []any{
				map[string]any{"seat": 1, "wagers": map[string]any{"ante": 1000}},
				map[string]any{"seat": 3, "wagers": map[string]any{"ante": 2000, "bet": 4000, "progressive": 100}},
			}},
		}),
	}, func(ctx context.Context, in *irregularityInput) (*irregularityOutput, error) {
		out, err := decideIrregularity(ctx, cat, in.Body)
		if err != nil {
			return nil, err
		}
		return &irregularityOutput{Body: out}, nil
	})
}

func decideIrregularity(ctx context.Context, cat ruleset.Catalogue, req IrregularityRequest) (irregularity.Outcome, error) {
	var round *irregularity.Round
	var roundRuleset string
	if req.Round != nil {
		roundRuleset = req.Round.Ruleset
		round = &irregularity.Round{RoundID: req.Round.RoundID, Currency: money.Currency(req.Round.Currency), ProgressiveUnit: money.Amount(req.Round.ProgressiveUnit)}
		for _, p := range req.Round.Positions {
			ws := make(map[string]money.Amount, len(p.Wagers))
			for w, a := range p.Wagers {
				ws[w] = money.Amount(a)
			}
			round.Positions = append(round.Positions, irregularity.Position{Seat: p.Seat, Wagers: ws})
		}
	}
	more := make([]irregularity.Event, len(req.Additional))
	for i, e := range req.Additional {
		more[i] = irregularity.Event{Kind: e.Kind, Facts: e.Facts}
	}
	out, err := irregularity.DecideIn(cat, req.Ruleset, roundRuleset, irregularity.Event{Kind: req.Kind, Facts: req.Facts}, more, round)
	if err != nil {
		return irregularity.Outcome{}, problemOf(ctx, err, "body")
	}
	return out, nil
}
