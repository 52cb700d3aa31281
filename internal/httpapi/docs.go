package httpapi

import (
	"bytes"
	"embed"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/go-json-experiment/json"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// The /docs page is served from the binary: a small hand-written renderer
// of the service's own spec (docs/app.js), with nothing loaded from another
// host, so that it works on a casino floor's closed network. huma's own
// docs page loads its renderer from a CDN; specConfig turns it off.

//go:embed docs/index.html docs/app.js docs/app.css
var docsFiles embed.FS

// DocsCSP is the docs page's Content-Security-Policy: its own script, style
// and spec, nothing else.
const DocsCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// registerDocs serves the spec (/openapi.json, /openapi.yaml,
// /openapi-3.0.json, /openapi-3.0.yaml: the documents `make openapi`
// commits, made once on first request) and GET /docs with its two assets.
// None is an operation of the API, so none is in the spec.
func registerDocs(api huma.API, cat ruleset.Catalogue) {
	var (
		once sync.Once
		docs specDocs
		err  error
	)
	for path, pick := range map[string]struct {
		doc         func() []byte
		contentType string
	}{
		"/openapi.json":     {func() []byte { return docs.v31JSON }, "application/openapi+json"},
		"/openapi.yaml":     {func() []byte { return docs.v31YAML }, "application/openapi+yaml"},
		"/openapi-3.0.json": {func() []byte { return docs.v30JSON }, "application/openapi+json"},
		"/openapi-3.0.yaml": {func() []byte { return docs.v30YAML }, "application/openapi+yaml"},
	} {
		api.Adapter().Handle(&huma.Operation{Method: http.MethodGet, Path: path}, func(ctx huma.Context) {
			once.Do(func() { docs, err = publishedSpec(api.OpenAPI(), cat) })
			if err != nil {
				ctx.SetHeader("Content-Type", "application/problem+json")
				ctx.SetStatus(http.StatusInternalServerError)
				_, _ = ctx.BodyWriter().Write(ProblemJSON(http.StatusInternalServerError, "the spec could not be made"))
				return
			}
			ctx.SetHeader("Content-Type", pick.contentType)
			ctx.SetStatus(http.StatusOK)
			_, _ = ctx.BodyWriter().Write(pick.doc())
		})
	}
	registerSchemas(api)
	for path, file := range map[string]struct{ name, contentType string }{
		"/docs":         {"docs/index.html", "text/html; charset=utf-8"},
		"/docs/app.js":  {"docs/app.js", "text/javascript; charset=utf-8"},
		"/docs/app.css": {"docs/app.css", "text/css; charset=utf-8"},
	} {
		body, err := docsFiles.ReadFile(file.name)
		if err != nil {
			panic("httpapi: " + file.name + " is not embedded: " + err.Error())
		}
		contentType := file.contentType
		api.Adapter().Handle(&huma.Operation{Method: http.MethodGet, Path: path}, func(ctx huma.Context) {
			ctx.SetHeader("Content-Type", contentType)
			ctx.SetHeader("Content-Security-Policy", DocsCSP)
			ctx.SetHeader("Cache-Control", "no-cache")
			ctx.SetStatus(http.StatusOK)
			_, _ = ctx.BodyWriter().Write(body)
		})
	}
}

// schemaRef is a reference to a component schema inside a schema.
var schemaRef = regexp.MustCompile(`#/components/schemas/([^"]+)`)

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
			ctx.SetHeader("Content-Type", "application/problem+json")
			ctx.SetStatus(http.StatusNotFound)
			_, _ = ctx.BodyWriter().Write(ProblemJSON(http.StatusNotFound, "the spec has no schema "+bound(name)+"; the schemas are under components.schemas of /openapi.json",
				&huma.ErrorDetail{Location: "path.schema", Message: "no such schema", Value: bound(name)}))
			return
		}
		var b bytes.Buffer
		if err := json.MarshalWrite(&b, s, encodeOptions); err != nil {
			ctx.SetHeader("Content-Type", "application/problem+json")
			ctx.SetStatus(http.StatusInternalServerError)
			_, _ = ctx.BodyWriter().Write(ProblemJSON(http.StatusInternalServerError, "the schema could not be written"))
			return
		}
		ctx.SetHeader("Content-Type", "application/json")
		ctx.SetStatus(http.StatusOK)
		_, _ = ctx.BodyWriter().Write(schemaRef.ReplaceAll(b.Bytes(), []byte(`/schemas/$1.json`)))
	})
}
