// Package httpapi is tablesettle's HTTP edge: the huma operations, their
// request and response types, and the one place errors become HTTP
// statuses (errors.go). It translates and decides nothing: the domain
// packages decide, internal/apispec shapes the spec and its docs page.
// Register is the single registration used by every Lambda function, the
// local server, the tests and the OpenAPI generator. Every operation is
// registered (operations) behind its access rule (auth.go), checked before
// its body is read; what every request shares (body limits, the strict
// codec of internal/apijson, 415, X-Request-Id, the access log, problem+json for
// every error) is in middleware.go.
package httpapi

import (
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/tablesettle/tablesettle/internal/analysis"
	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/apispec"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/web"
)

// Version is the API's version as published in the spec (apispec.Version).
const Version = apispec.Version

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
	AnalysisCache *analysis.Cache
	// AnalysisBudget bounds the analysis of a proposed paytable (POST
	// /v1/paytables/analyze; 422 naming studBet past it): well inside an
	// API Gateway request. Zero means analysis.StudBudget; negative, no
	// bound (tests, whose machine may be loaded: the speed bound is
	// analysis.BenchmarkAnalyzeStudProposal's, issue 33 item 11).
	AnalysisBudget time.Duration
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
	cfg.Components.Schemas = huma.NewMapRegistry("#/components/schemas/", apispec.SchemaName)
	// No $schema links in bodies: clients generated from the spec should see
	// exactly the documented fields.
	cfg.CreateHooks = nil
	// JSON only: any other request Content-Type is answered 415.
	// "json" is how huma finds the codec for application/problem+json
	// answers; requests are application/json only (the middleware refuses
	// every other Content-Type, *+json included).
	cfg.Formats = map[string]huma.Format{
		"application/json": apijson.Format,
		"json":             apijson.Format,
	}
	cfg.OpenAPI.OnAddOperation = append(cfg.OpenAPI.OnAddOperation, apispec.EveryOperation(MaxBodyBytes, RequestIDHeader), documentAccess)
	cfg.Transformers = append(cfg.Transformers, sanitise)
	apispec.Configure(&cfg)
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
	headers := headerParams(op)
	first = append(first, func(ctx huma.Context, next func(huma.Context)) {
		if r, w := humago.Unwrap(ctx); o.limits.admit(w, r, route, headers) {
			next(ctx)
		}
	})
	o.mux.Handle(route, operation{op: op, handler: first.Handler(handler)})
}

// headerParams are the single-valued headers op reads (its header
// parameters: Idempotency-Key), which admit refuses twice over; the list
// headers (Accept, If-None-Match: RFC 9110 12.5.1, 13.1.2), where several
// values are one list, are left out.
func headerParams(op *huma.Operation) []string {
	var names []string
	for _, p := range op.Parameters {
		if p.In != "header" {
			continue
		}
		switch http.CanonicalHeaderKey(p.Name) {
		case "Accept", "If-None-Match":
		default:
			names = append(names, p.Name)
		}
	}
	return names
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
		writeProblem(w, http.StatusNotFound, "no page or asset at "+apijson.Bound(r.URL.Path))
	})
	return Middleware(deps, mux), api
}
