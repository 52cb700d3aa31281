// Package web is the floor's pages: the live meter display, the floor
// console and the round playground. They are plain HTML, CSS and
// JavaScript embedded in the binary, loading nothing from another host (a
// floor network has no internet), and they use the same API and the same
// credentials as any client: they add no operation and bypass no role.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed static
var static embed.FS

// files is the static directory itself.
var files, _ = fs.Sub(static, "static")

// securityHeaders keep the pages to their own origin: scripts, styles and
// connections go nowhere else.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// Register adds the pages to mux: / (the console), /display/{pool},
// /playground and /assets/{file}. notFound answers a file that is not
// there (the host's problem+json).
func Register(mux *http.ServeMux, notFound http.HandlerFunc) {
	mux.HandleFunc("GET /{$}", page("index.html", notFound))
	mux.HandleFunc("GET /display/{pool}", page("display.html", notFound))
	mux.HandleFunc("GET /playground", page("playground.html", notFound))
	mux.HandleFunc("GET /assets/{file}", asset(notFound))
}

// Paths are the routes Register serves, for hosts that route by path (the
// API Gateway stack).
var Paths = []string{"/", "/display/{pool}", "/playground", "/assets/{file}"}

func page(name string, notFound http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		serve(w, r, name, notFound)
	}
}

func asset(notFound http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("file")
		if name == "" || strings.ContainsAny(name, "/\\") || strings.HasSuffix(name, ".html") {
			notFound(w, r)
			return
		}
		serve(w, r, name, notFound)
	}
}

var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".svg":  "image/svg+xml",
}

func serve(w http.ResponseWriter, r *http.Request, name string, notFound http.HandlerFunc) {
	b, err := fs.ReadFile(files, name)
	ct, known := contentTypes[path.Ext(name)]
	if err != nil || !known {
		notFound(w, r)
		return
	}
	securityHeaders(w.Header())
	if name == "display-sw.js" {
		// The sign's service worker controls the sign's pages only.
		w.Header().Set("Service-Worker-Allowed", "/display/")
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(b)
}
