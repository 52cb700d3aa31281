// Package httpapi is tablesettle's HTTP API: the huma operations, their
// request and response types, and the one place errors become HTTP
// statuses. Register is the single registration used by every Lambda
// function, the local server, the tests and the OpenAPI generator.
package httpapi

import (
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// Version is the API's version as published in the spec.
const Version = "1.0.0"

// Deps are what the operations need from outside: stores and clocks. The
// zero Deps serves every operation that needs no store.
type Deps struct {
	// Pools applies rounds to the progressive pools (nil: the pools
	// operations answer 503).
	Pools *jackpot.Service
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
	// No $schema links in bodies: clients generated from the spec should see
	// exactly the documented fields.
	cfg.CreateHooks = nil
	cfg.Info.Description = "Settlement and paytable API for casino table poker: what every wager pays, " +
		"which hands win the progressive jackpot, and what an irregularity means, each answer citing the casino rule it applies."
	return cfg
}

// Register adds the operations of the given groups to api.
func Register(api huma.API, deps Deps, groups ...Group) {
	for _, g := range groups {
		switch g {
		case GroupPaytables:
			registerPaytables(api, deps)
		case GroupSettle:
			registerSettle(api, deps)
		case GroupPools:
			registerPools(api, deps)
		case GroupIrregular:
			registerIrregularities(api, deps)
		}
	}
}

// New returns an http.Handler serving the given groups (all of them when
// none are named), with the spec at /openapi.yaml and docs at /docs.
func New(deps Deps, groups ...Group) (http.Handler, huma.API) {
	if len(groups) == 0 {
		groups = AllGroups
	}
	mux := http.NewServeMux()
	api := humago.New(mux, Config())
	Register(api, deps, groups...)
	return mux, api
}
