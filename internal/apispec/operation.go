package apispec

import (
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/analysis"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// SchemaName names the spec's schemas. Types of internal/httpapi keep their
// names; a domain type used directly in a request or response is prefixed
// with its package (ruleset.Pay is RulesetPay, irregularity.Ruleset is
// IrregularityRuleset), so that two packages' types of the same name never
// collide in the one spec every group shares (huma panics on a collision).
// A type that moved out of httpapi keeps the name generated clients know
// it by (keptNames).
func SchemaName(t reflect.Type, hint string) string { return namer(keptNames())(t, hint) }

func namer(kept map[reflect.Type]string) func(t reflect.Type, hint string) string {
	return func(t reflect.Type, hint string) string {
		name := huma.DefaultSchemaNamer(t, hint)
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if k, ok := kept[t]; ok {
			return k
		}
		const module = "github.com/tablesettle/tablesettle/internal/"
		pkg, ok := strings.CutPrefix(t.PkgPath(), module)
		if !ok || pkg == "httpapi" || t.Name() == "" {
			return name
		}
		prefix := strings.ToUpper(pkg[:1]) + pkg[1:]
		if strings.HasPrefix(name, prefix) {
			return name
		}
		return prefix + name
	}
}

// keptNames are the spec names of the request and response types that
// moved from internal/httpapi into the domain: generated clients know them by
// these names (apispec.SchemaName).
func keptNames() map[reflect.Type]string {
	return map[reflect.Type]string{
		reflect.TypeFor[analysis.Proposal]():            "AnalyzeRequest",
		reflect.TypeFor[analysis.ProposedOddsLine]():    "ProposedOddsLine",
		reflect.TypeFor[analysis.ProposedPrizeLine]():   "ProposedPrizeLine",
		reflect.TypeFor[analysis.ProgressiveProposal](): "ProgressiveProposal",
		reflect.TypeFor[hand.Evaluation]():              "EvaluateResponse",
		reflect.TypeFor[pools.FloorLedger]():            "LedgerPage",
		reflect.TypeFor[pools.FloorEntry]():             "LedgerEntry",
		reflect.TypeFor[pools.Settings]():               "PoolSettings",
		reflect.TypeFor[pools.Verify]():                 "PoolVerify",
		reflect.TypeFor[pools.Pending]():                "PendingView",
		reflect.TypeFor[pools.View]():                   "PoolView",
		reflect.TypeFor[pools.RecentHit]():              "LastHit",
		reflect.TypeFor[pools.OpenProposal]():           "ProposalView",
		reflect.TypeFor[ruleset.View]():                 "Ruleset",
		reflect.TypeFor[ruleset.PriceView]():            "Price",
		reflect.TypeFor[ruleset.LineView]():             "PaytableLine",
		reflect.TypeFor[ruleset.MultipleView]():         "WagerMultiple",
		reflect.TypeFor[ruleset.WagerView]():            "RulesetWager",
		reflect.TypeFor[ruleset.HandsView]():            "RulesetHands",
		reflect.TypeFor[ruleset.QualifierView]():        "DealerQualifier",
		reflect.TypeFor[ruleset.CapView]():              "PaymentCap",
		reflect.TypeFor[ruleset.SelectionView]():        "SystemSelection",
		reflect.TypeFor[ruleset.DocumentView]():         "RuleDocument",
	}
}

// EveryOperation is the hook (huma.OpenAPI.OnAddOperation) that applies
// the limits every operation shares, whoever registers it, and documents
// them in the spec: huma's own per-operation body limit defaults to 1 MiB,
// so it is lowered here once for all to maxBodyBytes; every response
// declares the request id header.
func EveryOperation(maxBodyBytes int64, requestIDHeader string) func(*huma.OpenAPI, *huma.Operation) {
	return func(oapi *huma.OpenAPI, op *huma.Operation) {
		problem, errSchema := ProblemResponses(oapi, op)
		documentRules(oapi.Components.Schemas.SchemaFromRef(errSchema.Ref))
		addRequestExample(oapi, op)
		if op.RequestBody != nil {
			// huma refuses a body whose length reaches its limit, so one
			// more byte lets a body of exactly maxBodyBytes through.
			if op.MaxBodyBytes == 0 || op.MaxBodyBytes > maxBodyBytes+1 {
				op.MaxBodyBytes = maxBodyBytes + 1
			}
			// The middleware has read the body already, under its own
			// deadlines, and lifted them. huma's (5 s unless set) would be
			// set on the connection and never lifted: a handler running
			// 5 s, slowed by contention, would see its context cancelled
			// by net/http's background read and answer 503.
			op.BodyReadTimeout = -1
			SetIfAbsent(op.Responses, "413", problem("Request body over 64 KiB"))
			SetIfAbsent(op.Responses, "415", problem("Request Content-Type is not application/json"))
			SetIfAbsent(op.Responses, "422", problem("A field is missing, unknown or invalid; errors[].location names it"))
		}
		SetIfAbsent(op.Responses, "500", problem("Internal error; the detail never shows internal error text"))
		for _, r := range op.Responses {
			if r.Headers == nil {
				r.Headers = map[string]*huma.Param{}
			}
			if _, ok := r.Headers[requestIDHeader]; !ok {
				r.Headers[requestIDHeader] = &huma.Param{
					Description: "The request id, also in the service's logs (API Gateway's requestId under Lambda).",
					Schema:      &huma.Schema{Type: huma.TypeString},
				}
			}
		}
	}
}

// ProblemResponses makes op's Responses if it has none, and returns how
// to describe a problem answer of op in the spec, and the problem's
// schema.
func ProblemResponses(oapi *huma.OpenAPI, op *huma.Operation) (func(desc string) *huma.Response, *huma.Schema) {
	errSchema := oapi.Components.Schemas.Schema(reflect.TypeFor[huma.ErrorModel](), true, "Error")
	if op.Responses == nil {
		op.Responses = map[string]*huma.Response{}
	}
	return func(desc string) *huma.Response {
		return &huma.Response{Description: desc, Content: map[string]*huma.MediaType{
			"application/problem+json": {Schema: errSchema},
		}}
	}, errSchema
}

// documentRules adds to the problem schema the extension member "rules"
// that httpapi's errors.go writes (Problem.Rules): the schema refuses
// members it does not name.
func documentRules(s *huma.Schema) {
	if s == nil || s.Properties == nil {
		return
	}
	if _, ok := s.Properties["rules"]; ok {
		return
	}
	s.Properties["rules"] = &huma.Schema{
		Type:        huma.TypeArray,
		Items:       &huma.Schema{Type: huma.TypeString},
		Description: "The rules and rulings the refusal applies, e.g. \"mbs-megalink-ssp-v6 3.10.2.1\", \"ruling R20\"; absent when it cites none.",
	}
}

// SetIfAbsent declares response r under code unless the operation
// declares one already.
func SetIfAbsent(m map[string]*huma.Response, code string, r *huma.Response) {
	if _, ok := m[code]; !ok {
		m[code] = r
	}
}

// Conditional documents the 304 of a conditional read (If-None-Match).
func Conditional(op *huma.Operation) {
	if op.Responses == nil {
		op.Responses = map[string]*huma.Response{}
	}
	op.Responses["304"] = &huma.Response{Description: "Not Modified: the answer is the one the If-None-Match tag names (no body).",
		Headers: map[string]*huma.Param{"ETag": {Schema: &huma.Schema{Type: "string"}}}}
}

// BodyExample is a request body with a whole-body example (the spec's
// clients and docs show it; httpapi's tests check it is a valid request).
func BodyExample(ex any) *huma.RequestBody {
	return &huma.RequestBody{Content: map[string]*huma.MediaType{"application/json": {Example: ex}}}
}
