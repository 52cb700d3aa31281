package httpapi

import "github.com/danielgtaylor/huma/v2"

// registerPools adds the pools operations (the "pools" function).
func registerPools(api huma.API, deps Deps) {}
