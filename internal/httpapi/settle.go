package httpapi

import "github.com/danielgtaylor/huma/v2"

// registerSettle adds the settle operations (the "settle" function).
func registerSettle(api huma.API, deps Deps) {}
