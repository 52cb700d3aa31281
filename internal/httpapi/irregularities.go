package httpapi

import "github.com/danielgtaylor/huma/v2"

// registerIrregularities adds the irregularities operations (the "irregularities" function).
func registerIrregularities(api huma.API, deps Deps) {}
