package httpapi

import (
	"bytes"
	"net/http"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/go-json-experiment/json"

	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/apispec"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Spec returns the OpenAPI document of every operation as the service
// serves it: 3.1, and 3.0 for generators that read only 3.0 (see
// apispec.Publish for what each is made from). Both are committed in
// openapi/ by `make openapi`; a test fails when they drift from the code.
func Spec() (v31, v30 []byte, err error) {
	deps := Deps{}
	_, api := New(deps)
	docs, err := apispec.Publish(api.OpenAPI(), deps.rulesets())
	if err != nil {
		return nil, nil, err
	}
	return docs.V31YAML, docs.V30YAML, nil
}

// registerDocs serves the spec (/openapi.json, /openapi.yaml,
// /openapi-3.0.json, /openapi-3.0.yaml: the documents `make openapi`
// commits, made once on first request) and GET /docs with its two assets
// (apispec.Pages). None is an operation of the API, so none is in the spec.
func registerDocs(api huma.API, cat ruleset.Catalogue) {
	var (
		once sync.Once
		docs apispec.Docs
		err  error
	)
	for _, d := range apispec.Documents() {
		api.Adapter().Handle(&huma.Operation{Method: http.MethodGet, Path: d.Path}, func(ctx huma.Context) {
			once.Do(func() { docs, err = apispec.Publish(api.OpenAPI(), cat) })
			if err != nil {
				writeRaw(ctx, http.StatusInternalServerError, "application/problem+json", ProblemJSON(http.StatusInternalServerError, "the spec could not be made"))
				return
			}
			writeRaw(ctx, http.StatusOK, d.ContentType, d.Of(docs))
		})
	}
	registerSchemas(api)
	for _, page := range apispec.Pages() {
		api.Adapter().Handle(&huma.Operation{Method: http.MethodGet, Path: page.Path}, func(ctx huma.Context) {
			ctx.SetHeader("Content-Security-Policy", apispec.DocsCSP)
			ctx.SetHeader("Cache-Control", "no-cache")
			writeRaw(ctx, http.StatusOK, page.ContentType, page.Body)
		})
	}
}

// registerSchemas serves GET /schemas/{schema} (and {schema}.json): one
// component schema of the spec, its references rewritten to the same
// path, as huma's own handler (Config.SchemasPath, off: Config) did,
// except that a schema the spec does not hold is a 404 problem, not 200
// with null.
func registerSchemas(api huma.API) {
	api.Adapter().Handle(&huma.Operation{Method: http.MethodGet, Path: "/schemas/{schema}"}, func(ctx huma.Context) {
		name := strings.TrimSuffix(ctx.Param("schema"), ".json")
		s := api.OpenAPI().Components.Schemas.Map()[name]
		if s == nil {
			writeRaw(ctx, http.StatusNotFound, "application/problem+json", ProblemJSON(http.StatusNotFound, "the spec has no schema "+apijson.Bound(name)+"; the schemas are under components.schemas of /openapi.json",
				&huma.ErrorDetail{Location: "path.schema", Message: "no such schema", Value: apijson.Bound(name)}))
			return
		}
		var b bytes.Buffer
		if err := json.MarshalWrite(&b, s, apijson.EncodeOptions); err != nil {
			writeRaw(ctx, http.StatusInternalServerError, "application/problem+json", ProblemJSON(http.StatusInternalServerError, "the schema could not be written"))
			return
		}
		writeRaw(ctx, http.StatusOK, "application/json", apispec.SchemaLinks(b.Bytes()))
	})
}

// writeRaw answers status with body as contentType, outside the API's
// operations (the spec, the docs page, the schemas).
func writeRaw(ctx huma.Context, status int, contentType string, body []byte) {
	ctx.SetHeader("Content-Type", contentType)
	ctx.SetStatus(status)
	_, _ = ctx.BodyWriter().Write(body)
}
