// Package httpapi is tablesettle's HTTP API: the huma operations, their
// request and response types, and the one place errors become HTTP
// statuses. Register is the single registration used by every Lambda
// function, the local server, the tests and the OpenAPI generator.
//
// Behaviour common to every operation (current and future) lives here and
// in middleware.go: every operation registered (operations) behind its
// access rule (auth.go), checked before its body is read; RFC 9457
// problem+json for every error, including unknown routes, wrong methods
// and panics, all made in errors.go;
// request bodies over MaxBodyBytes refused with 413 (and the connection
// closed); every JSON body decoded by the one strict codec of codec.go
// (duplicate, case-variant and unknown names, invalid UTF-8: 422 naming
// the field); a Content-Type other than application/json refused with
// 415; a 5xx never shows internal error text; every response carries
// X-Request-Id; one structured access log line per request.
package httpapi

import (
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/web"
)

// Version is the API's version as published in the spec.
const Version = "1.0.0"

// MaxBodyBytes is the largest request body any operation accepts; a larger
// body is refused with 413 before it reaches an operation.
const MaxBodyBytes = 64 << 10

// Deps are what the operations need from outside: stores, clocks, logging.
// The zero Deps serves every operation that needs no store.
type Deps struct {
	// Logger receives the access log and every error log line. Nil means
	// JSON lines on stdout at level Info.
	Logger *slog.Logger
	// NewRequestID makes a request id when the host (API Gateway) gave
	// none. Nil means 128 random bits in hex.
	NewRequestID func() string
	// BodyReadTimeout bounds the time a client may take to send its whole
	// request body (408 after). Zero means DefaultBodyReadTimeout.
	BodyReadTimeout time.Duration
	// BodyIdleTimeout bounds the time a client may send nothing while its
	// body is incomplete (408 after): a slow honest client that keeps
	// sending is not cut, an idle one is. Zero means DefaultBodyIdleTimeout.
	BodyIdleTimeout time.Duration
	// Pools applies rounds to the progressive pools (nil: the pools
	// operations answer 503).
	Pools *pools.Service
	// Access authenticates and authorizes every request (auth.go). Nil
	// authenticates nobody and allows everything: only for tests of single
	// operations; every host (serve, the Lambda functions) sets it.
	Access *Access
	// AnalysisCache keeps custom paytable analyses by their proposal's
	// hash (nil: none).
	AnalysisCache *AnalysisCache
	// Catalogue is the rulesets the edge serves: the ruleset id enum of
	// the spec and every operation's lookup (settle, paytables, rule
	// documents, irregularities, analysis) come from it. The zero value
	// means ruleset.Standard(), the five rule documents. Pools must be
	// built over the same catalogue (pools.NewServiceIn).
	Catalogue ruleset.Catalogue
}

// rulesets is the catalogue the edge serves: deps.Catalogue, or the
// standard one when none was given.
func (d Deps) rulesets() ruleset.Catalogue {
	if len(d.Catalogue.Listed()) == 0 {
		return ruleset.Standard()
	}
	return d.Catalogue
}

// Group names a set of operations served together by one Lambda function.
type Group string

// The operation groups, one per function in functions/.
const (
	GroupPaytables Group = "paytables" // rulesets and hand evaluation
	GroupSettle    Group = "settle"
	GroupPools     Group = "pools"
	GroupIrregular Group = "irregularities"
)

// AllGroups is every group: the local server and the spec serve them all.
var AllGroups = []Group{GroupPaytables, GroupSettle, GroupPools, GroupIrregular}

// Config is the huma configuration shared by every host.
func Config() huma.Config {
	cfg := huma.DefaultConfig("tablesettle", Version)
	cfg.Components.Schemas = huma.NewMapRegistry("#/components/schemas/", schemaName)
	// No $schema links in bodies: clients generated from the spec should see
	// exactly the documented fields.
	cfg.CreateHooks = nil
	// JSON only: any other request Content-Type is answered 415.
	// "json" is how huma finds the codec for application/problem+json
	// answers; requests are application/json only (the middleware refuses
	// every other Content-Type, *+json included).
	cfg.Formats = map[string]huma.Format{
		"application/json": jsonFormat,
		"json":             jsonFormat,
	}
	cfg.OpenAPIPath = "/openapi"
	cfg.Info.Description = "Settlement and paytable API for casino table poker: what every wager pays, " +
		"which hands win the progressive jackpot, and what an irregularity means, each answer citing the casino rule it applies.\n\n" +
		"Every error is an RFC 9457 problem (application/problem+json) whose `errors[].location` names the failing field " +
		"(e.g. `body.positions[2].wagers.bet`, `path.id`). Request bodies are JSON, at most 64 KiB (413 beyond), " +
		"with no unknown fields (422). Every response carries an `X-Request-Id` header; quote it when reporting a problem."
	cfg.OpenAPI.OnAddOperation = append(cfg.OpenAPI.OnAddOperation, everyOperation, documentAccess)
	cfg.Transformers = append(cfg.Transformers, sanitise)
	specConfig(&cfg)
	// huma makes every problem of validation and huma.Error4xx through its
	// package variable NewError; errors.go bounds what they repeat. Set
	// once, where every host builds its API.
	// huma's validator matches names case-insensitively unless told (its
	// package variable ValidateStrictCasing): "Amount" would pass as
	// "amount". The codec reads names case-sensitively; so does the schema.
	setHumaGlobals.Do(func() {
		huma.NewError = newError
		huma.ValidateStrictCasing = true
	})
	return cfg
}

var setHumaGlobals sync.Once

// ProblemType is the RFC 9457 type of every problem: a problem is
// described by its status and title. The spec gives ErrorModel.type the
// default about:blank, which generators (openapi-typescript) read as
// "always present", so every problem carries it.
const ProblemType = "about:blank"

// schemaName names the spec's schemas. Types of this package keep their
// names; a domain type used directly in a response is prefixed with its
// package (ruleset.Pay is RulesetPay, irregularity.Ruleset is
// IrregularityRuleset), so that two packages' types of the same name never
// collide in the one spec every group shares (huma panics on a collision).
func schemaName(t reflect.Type, hint string) string {
	name := huma.DefaultSchemaNamer(t, hint)
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
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

// everyOperation applies the limits every operation shares, whoever
// registers it, and documents them in the spec: huma's own per-operation
// body limit defaults to 1 MiB, so it is lowered here once for all.
func everyOperation(oapi *huma.OpenAPI, op *huma.Operation) {
	problem, errSchema := problemResponses(oapi, op)
	documentRules(oapi.Components.Schemas.SchemaFromRef(errSchema.Ref))
	addRequestExample(oapi, op)
	if op.RequestBody != nil {
		// huma refuses a body whose length reaches MaxBodyBytes, so one more
		// byte lets a body of exactly 64 KiB through.
		if op.MaxBodyBytes == 0 || op.MaxBodyBytes > MaxBodyBytes+1 {
			op.MaxBodyBytes = MaxBodyBytes + 1
		}
		// The middleware has read the body already, under its own
		// deadlines, and lifted them. huma's (5 s unless set) would be set
		// on the connection and never lifted: a handler running 5 s, slowed
		// by contention, would see its context cancelled by net/http's
		// background read and answer 503.
		op.BodyReadTimeout = -1
		setIfAbsent(op.Responses, "413", problem("Request body over 64 KiB"))
		setIfAbsent(op.Responses, "415", problem("Request Content-Type is not application/json"))
		setIfAbsent(op.Responses, "422", problem("A field is missing, unknown or invalid; errors[].location names it"))
	}
	setIfAbsent(op.Responses, "500", problem("Internal error; the detail never shows internal error text"))
	for _, r := range op.Responses {
		if r.Headers == nil {
			r.Headers = map[string]*huma.Param{}
		}
		if _, ok := r.Headers[RequestIDHeader]; !ok {
			r.Headers[RequestIDHeader] = &huma.Param{
				Description: "The request id, also in the service's logs (API Gateway's requestId under Lambda).",
				Schema:      &huma.Schema{Type: huma.TypeString},
			}
		}
	}
}

// documentRules adds to the problem schema the extension member "rules"
// that errors.go writes (Problem.Rules): the schema refuses members it
// does not name.
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

// problemResponses makes op's Responses if it has none, and returns how
// to describe a problem answer of op in the spec, and the problem's
// schema.
func problemResponses(oapi *huma.OpenAPI, op *huma.Operation) (func(desc string) *huma.Response, *huma.Schema) {
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

func setIfAbsent(m map[string]*huma.Response, code string, r *huma.Response) {
	if _, ok := m[code]; !ok {
		m[code] = r
	}
}

// Register adds the operations of the given groups to api.
func Register(api huma.API, deps Deps, groups ...Group) {
	for _, g := range groups {
		switch g {
		case GroupPaytables:
			registerPaytables(api, deps)
			registerMe(api)
		case GroupSettle:
			registerSettle(api, deps)
		case GroupPools:
			registerPools(api, deps)
		case GroupIrregular:
			registerIrregularities(api, deps)
		}
	}
}

// operations is the huma adapter of every host: it registers each route
// huma hands it (the operations huma.Register adds, and the spec and docs
// routes registerDocs hands the adapter directly, which api.UseMiddleware
// would not reach) on the mux, behind the huma middlewares each runs
// first: its access rule (Access.guard, when the host has an Access),
// then its query and body admitted (bodyLimits.admit). So a refused
// request's body is never read.
type operations struct {
	mux    *http.ServeMux
	access *Access
	limits bodyLimits
}

// Handle implements huma.Adapter.
func (o operations) Handle(op *huma.Operation, handler func(huma.Context)) {
	route := strings.ToUpper(op.Method) + " " + op.Path
	var first huma.Middlewares
	if o.access != nil {
		first = append(first, o.access.guard(route))
	}
	first = append(first, func(ctx huma.Context, next func(huma.Context)) {
		if r, w := humago.Unwrap(ctx); o.limits.admit(w, r) {
			next(ctx)
		}
	})
	o.mux.Handle(route, operation{op: op, handler: first.Handler(handler)})
}

// ServeHTTP implements huma.Adapter.
func (o operations) ServeHTTP(w http.ResponseWriter, r *http.Request) { o.mux.ServeHTTP(w, r) }

// operation is the mux's handler of one route registered by operations:
// Middleware tells it from a page or a redirect by its type.
type operation struct {
	op      *huma.Operation
	handler func(huma.Context)
}

func (o operation) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.handler(humago.NewContext(o.op, r, w))
}

// New returns an http.Handler serving the given groups (all of them when
// none are named), with the spec at /openapi.yaml and docs at /docs, wrapped
// in the middleware every host shares.
func New(deps Deps, groups ...Group) (http.Handler, huma.API) {
	if len(groups) == 0 {
		groups = AllGroups
	}
	mux := http.NewServeMux()
	api := huma.NewAPI(Config(), operations{mux: mux, access: deps.Access, limits: limitsOf(deps)})
	registerDocs(api, deps.rulesets())
	Register(api, deps, groups...)
	web.Register(mux, func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, http.StatusNotFound, "no page or asset at "+bound(r.URL.Path))
	})
	return Middleware(deps, mux), api
}
