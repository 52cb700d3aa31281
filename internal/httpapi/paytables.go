package httpapi

import "github.com/danielgtaylor/huma/v2"

// registerPaytables adds the rulesets, paytables and hand evaluation
// operations (the "paytables" function).
func registerPaytables(api huma.API, deps Deps) {
	registerEvaluate(api)
	registerAnalysis(api, deps)
}
