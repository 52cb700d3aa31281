// Package apispec shapes the service's OpenAPI document: what it says
// about the API as a whole (servers, security, tags), what every operation
// declares (limits, statuses, examples, the request id header), how its
// schemas are named, the published 3.1 and 3.0 documents made from huma's
// model (Publish), and the docs page that renders them (Pages). It decides
// nothing about a request: internal/httpapi registers the operations and
// serves what this package makes.
package apispec

import (
	"net/http"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
)

// Version is the contract's semantic version, the spec's info.version
// (issue 33 item 8): MAJOR when a client generated from the last released
// spec (openapi/released/) may break, MINOR for additions, PATCH for
// words. Every breaking change since the release is recorded, with its
// migration note, in CHANGELOG.md, and make test fails on one that is not
// (test/contract, oasdiff). How to cut a release: CHANGELOG.md.
const Version = "2.0.0"

// Servers are where the API is served: the local server of `make run`, and
// a deployed stage (API Gateway's HTTP API on its $default stage, so no
// path prefix).
var Servers = []*huma.Server{
	{URL: "http://127.0.0.1:8080", Description: "The local server (`make run`); bearer tokens."},
	{URL: "https://{apiId}.execute-api.{region}.amazonaws.com", Description: "A deployed stage (the ApiUrl output of the stack); SigV4-signed requests.",
		Variables: map[string]*huma.ServerVariable{
			"apiId":  {Default: "abc123", Description: "The HTTP API's id."},
			"region": {Default: "ap-southeast-1", Description: "The stack's AWS region."},
		}},
}

// Security schemes: a bearer token on the local server, AWS SigV4 (IAM) on
// a deployed stage. Every operation takes either.
const (
	SecurityBearer = "bearer"
	SecuritySigV4  = "sigv4"
)

// Tags are the spec's operation groups, in the order the docs show them.
var Tags = []*huma.Tag{
	{Name: "Settlement", Description: "Settle a round: what every wager pays, each line citing the rule it applies."},
	{Name: "Pools", Description: "Progressive pools: create one, apply settled rounds to it, read its meters and ledger, adjust and reconcile it."},
	{Name: "Irregularities", Description: "What a reported irregularity means under a ruleset, and which irregularities each ruleset prescribes for."},
	{Name: "Rulesets", Description: "The rulesets the service settles and their paytables."},
	{Name: "Rules", Description: "What answers cite: the product's rulings (`ruling R12`) and the clauses of the casinos' rule documents (`mbs-megalink-tcp-v6 3.11.2`)."},
	{Name: "Hands", Description: "Evaluate a poker hand as a ruleset ranks it."},
	{Name: "Analysis", Description: "Exact paytable figures from full enumeration: return to player, house edge, the progressive's break-even meter."},
}

// arraysNotNull runs once: see Configure.
var arraysNotNull sync.Once

// Configure sets what the spec says about the API as a whole: what it is,
// servers,
// security, tags, the statuses every operation declares, and that the
// service serves its spec and docs page itself (httpapi's registerDocs,
// from Publish and Pages), with nothing loaded from another host. Call it
// after the hooks that must run before declareStatuses.
func Configure(cfg *huma.Config) {
	// huma types every Go slice "array or null" unless told otherwise
	// (huma.DefaultArrayNullable, its documented switch). The service never
	// sends null for an array (its answers build empty slices, and a test
	// validates answers against the spec) and refuses null in requests, so
	// the spec says "array". Set once, before any schema is generated.
	arraysNotNull.Do(func() { huma.DefaultArrayNullable = false })
	cfg.Info.Description = "Settlement and paytable API for casino table poker: what every wager pays, " +
		"which hands win the progressive jackpot, and what an irregularity means, each answer citing the casino rule it applies.\n\n" +
		"Every error is an RFC 9457 problem (application/problem+json) whose `errors[].location` names the failing field " +
		"(e.g. `body.positions[2].wagers.bet`, `path.id`). Request bodies are JSON, at most 64 KiB (413 beyond), " +
		"with no unknown fields (422). Every response carries an `X-Request-Id` header; quote it when reporting a problem."
	cfg.Servers = Servers
	if cfg.Components.SecuritySchemes == nil {
		cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{}
	}
	cfg.Components.SecuritySchemes[SecurityBearer] = &huma.SecurityScheme{
		Type: "http", Scheme: "bearer",
		Description: "The local server (`tablesettle serve`): `Authorization: Bearer <token>`, a token the server was configured with for a principal.",
	}
	cfg.Components.SecuritySchemes[SecuritySigV4] = &huma.SecurityScheme{
		Type: "apiKey", In: "header", Name: "Authorization",
		Description: "A deployed stage: API Gateway IAM authorization. Sign every request with AWS Signature Version 4 for the service " +
			"`execute-api` (the caller needs `execute-api:Invoke` on the API's ARN).",
		Extensions: map[string]any{"x-amazon-apigateway-authtype": "awsSigv4"},
	}
	cfg.Security = []map[string][]string{{SecurityBearer: {}}, {SecuritySigV4: {}}}
	cfg.Tags = Tags
	// The spec and docs are served by registerDocs from Publish, so
	// that the served files are the committed ones; huma's own docs page
	// loads its renderer from a CDN.
	cfg.OpenAPIPath = ""
	cfg.DocsPath = ""
	// GET /schemas/{schema} is httpapi's registerSchemas: huma's answers
	// 200 with null for a schema it does not hold.
	cfg.SchemasPath = ""
	cfg.OpenAPI.OnAddOperation = append(cfg.OpenAPI.OnAddOperation, declareStatuses)
}

// declareStatuses declares every status an operation really answers, so
// that a generated client files each under its success or its error
// (issue 15 section 5): 400 (a body that is not JSON, or none) and 408 (a
// body that does not arrive) on every operation with a body; on the pools'
// operations 404 (no such pool), 409 (an id or Idempotency-Key reused with
// another body), 503 with Retry-After (the store could not confirm; nothing
// was half-applied) and 200 for an idempotent re-create; 404 on every
// operation under /v1/rulesets/{id}; and a default problem on every
// operation.
func declareStatuses(oapi *huma.OpenAPI, op *huma.Operation) {
	errSchema := oapi.Components.Schemas.Schema(reflect.TypeFor[huma.ErrorModel](), true, "Error")
	problem := func(desc string, headers map[string]*huma.Param) *huma.Response {
		return &huma.Response{Description: desc, Headers: headers, Content: map[string]*huma.MediaType{
			"application/problem+json": {Schema: errSchema},
		}}
	}
	if op.Responses == nil {
		op.Responses = map[string]*huma.Response{}
	}
	if op.RequestBody != nil {
		SetIfAbsent(op.Responses, "400", problem("The request body is missing, cannot be read or is not JSON", nil))
		SetIfAbsent(op.Responses, "408", problem("The request body did not arrive in time", nil))
	}
	if strings.HasPrefix(op.Path, "/v1/pools") {
		SetIfAbsent(op.Responses, "503", problem("The pool store could not confirm the operation; nothing was half-applied: retry after Retry-After seconds",
			map[string]*huma.Param{"Retry-After": {Description: "Seconds to wait before retrying.", Required: true, Schema: &huma.Schema{Type: huma.TypeInteger, Minimum: ptr(0.0)}}}))
		if strings.Contains(op.Path, "{id}") {
			SetIfAbsent(op.Responses, "404", problem("No pool has this id (errors[].location path.id)", nil))
		}
		if op.Path == "/v1/pools" && op.Method == http.MethodPost {
			SetIfAbsent(op.Responses, "409", problem("A pool with this id exists with other settings", nil))
			if created := op.Responses["201"]; created != nil {
				SetIfAbsent(op.Responses, "200", &huma.Response{
					Description: "A pool with this id and these settings exists already: the create is idempotent and answers the pool as it stands.",
					Content:     created.Content, Headers: created.Headers,
				})
			}
		}
		for _, p := range op.Parameters {
			if p.In == "header" && p.Name == "Idempotency-Key" {
				SetIfAbsent(op.Responses, "409", problem("The Idempotency-Key (or the round id) was already used with a different body", nil))
			}
		}
	}
	if strings.HasPrefix(op.Path, "/v1/rulesets/{id}") {
		SetIfAbsent(op.Responses, "404", problem("No ruleset has this id (errors[].location path.id)", nil))
	}
	SetIfAbsent(op.Responses, "default", problem("Any other problem (405, 413, ...): an RFC 9457 problem", nil))
}

func ptr[T any](v T) *T { return &v }

// addRequestExample gives an operation's JSON request body a whole-body
// example built from the examples of its fields (the `example:` tags), so
// that every request body in the spec has one without each operation
// writing it twice. An operation that sets its own example keeps it.
func addRequestExample(oapi *huma.OpenAPI, op *huma.Operation) {
	if op.RequestBody == nil {
		return
	}
	mt := op.RequestBody.Content["application/json"]
	if mt == nil || mt.Schema == nil || mt.Example != nil || len(mt.Examples) > 0 {
		return
	}
	if ex, ok := exampleOf(oapi.Components.Schemas, mt.Schema, 0); ok {
		mt.Example = ex
	}
}

// exampleOf builds an example value of s from the examples, defaults and
// enums of its parts; ok is false when a required part has none.
func exampleOf(reg huma.Registry, s *huma.Schema, depth int) (any, bool) {
	if s == nil || depth > 12 {
		return nil, false
	}
	if s.Ref != "" {
		return exampleOf(reg, reg.SchemaFromRef(s.Ref), depth+1)
	}
	if len(s.Examples) > 0 {
		return s.Examples[0], true
	}
	if s.Default != nil {
		return s.Default, true
	}
	if len(s.Enum) > 0 {
		return s.Enum[0], true
	}
	for _, alt := range [][]*huma.Schema{s.OneOf, s.AnyOf} {
		for _, sub := range alt {
			if ex, ok := exampleOf(reg, sub, depth+1); ok {
				return ex, true
			}
		}
	}
	switch s.Type {
	case huma.TypeObject:
		if len(s.Properties) == 0 {
			return nil, false
		}
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		names := make([]string, 0, len(s.Properties))
		for name := range s.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		obj := map[string]any{}
		for _, name := range names {
			ex, ok := exampleOf(reg, s.Properties[name], depth+1)
			if !ok {
				if required[name] {
					return nil, false
				}
				continue
			}
			obj[name] = ex
		}
		return obj, true
	case huma.TypeArray:
		ex, ok := exampleOf(reg, s.Items, depth+1)
		if !ok {
			if s.MinItems == nil || *s.MinItems == 0 {
				return []any{}, true
			}
			return nil, false
		}
		return []any{ex}, true
	case huma.TypeBoolean:
		return false, true
	}
	return nil, false
}
