package apispec

import (
	"embed"
	"regexp"
)

// The /docs page is served from the binary: a small hand-written renderer
// of the service's own spec (docs/app.js), with nothing loaded from another
// host, so that it works on a casino floor's closed network. huma's own
// docs page loads its renderer from a CDN; Configure turns it off.

//go:embed docs/index.html docs/app.js docs/app.css
var pageFiles embed.FS

// DocsCSP is the docs page's Content-Security-Policy: its own script, style
// and spec, nothing else.
const DocsCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Page is one file of the docs page: where it is served, as what.
type Page struct {
	Path, ContentType string
	Body              []byte
}

// Pages are the docs page (GET /docs) and its two assets.
func Pages() []Page {
	pages := []Page{
		{Path: "/docs", ContentType: "text/html; charset=utf-8"},
		{Path: "/docs/app.js", ContentType: "text/javascript; charset=utf-8"},
		{Path: "/docs/app.css", ContentType: "text/css; charset=utf-8"},
	}
	for i, name := range []string{"docs/index.html", "docs/app.js", "docs/app.css"} {
		body, err := pageFiles.ReadFile(name)
		if err != nil {
			panic("apispec: " + name + " is not embedded: " + err.Error())
		}
		pages[i].Body = body
	}
	return pages
}

// schemaRef is a reference to a component schema inside a schema.
var schemaRef = regexp.MustCompile(`#/components/schemas/([^"]+)`)

// SchemaLinks rewrites the references of one component schema's JSON to
// where GET /schemas/{schema} serves each (/schemas/Name.json), as huma's
// own handler (Config.SchemasPath) did.
func SchemaLinks(schemaJSON []byte) []byte {
	return schemaRef.ReplaceAll(schemaJSON, []byte(`/schemas/$1.json`))
}
