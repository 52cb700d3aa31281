package httpapi

import (
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// route is one operation of the API as its spec lists it, or a route
// registered outside the spec (the schema and page routes).
type route struct {
	method, path string
	query        []string // its query parameters' names
}

// pathParam is a {name} or {name...} of a route's path.
var pathParam = regexp.MustCompile(`\{([^}.]+)(\.\.\.)?\}`)

// routesOf lists every operation of api's OpenAPI paths, with its query
// parameters, and the routes registered beside it that take a path
// parameter (/schemas/{schema}, the sign's page /display/{pool}), in a
// fixed order.
func routesOf(api huma.API) []route {
	var rs []route
	for path, item := range api.OpenAPI().Paths {
		for method, op := range map[string]*huma.Operation{http.MethodGet: item.Get, http.MethodPost: item.Post, http.MethodPut: item.Put,
			http.MethodPatch: item.Patch, http.MethodDelete: item.Delete} {
			if op == nil {
				continue
			}
			r := route{method: method, path: path}
			for _, p := range op.Parameters {
				if p.In == "query" {
					r.query = append(r.query, p.Name)
				}
			}
			rs = append(rs, r)
		}
	}
	rs = append(rs, route{method: http.MethodGet, path: "/schemas/{schema}"}, route{method: http.MethodGet, path: "/display/{pool}"})
	slices.SortFunc(rs, func(a, b route) int { return strings.Compare(a.method+" "+a.path, b.method+" "+b.path) })
	return rs
}

// paramsHost is the local server's handler with a pool "p1" and a
// principal holding every role, bound to table T12.
func paramsHost(tb testing.TB) (http.Handler, huma.API, string) {
	tb.Helper()
	st, err := sqlite.Open(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	entries, token, err := auth.Add(nil, "fuzz", principal.Roles, []string{"T12"})
	if err != nil {
		tb.Fatal(err)
	}
	h, api := New(Deps{
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Pools:  pools.NewService(st, time.Now, 1),
		Access: &Access{Authenticator: BearerTokens{Tokens: auth.NewTokens(entries)}, OpenStateless: true},
	})
	req := httptest.NewRequest(http.MethodPost, "/v1/pools", strings.NewReader(`{"id":"p1","currency":"SGD","tables":["T12"],"rulesets":["mbs-megalink-ssp-v6"],"unit":500,"contributionBp":1733,"reserveBp":517,"reset":10000000}`))
	req.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusCreated {
		tb.Fatalf("create pool: %d %s", w.Code, w.Body)
	}
	return h, api, token
}

// checkAnswer holds an answer to issue 33 item 2's promises: never a 5xx;
// every error is application/problem+json whose body is valid JSON (UTF-8
// included: the strict decoder refuses anything else) with its status; any
// other JSON answer is valid JSON.
func checkAnswer(t *testing.T, what string, status int, header http.Header, body []byte) {
	t.Helper()
	if status >= 500 {
		t.Fatalf("%s: %d %s", what, status, body)
	}
	mt, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	if status >= 400 || status >= 300 && status < 400 && status != http.StatusNotModified {
		var p huma.ErrorModel
		if mt != "application/problem+json" {
			t.Fatalf("%s: %d with Content-Type %q: %q", what, status, header.Get("Content-Type"), body)
		}
		if err := json.Unmarshal(body, &p); err != nil || p.Status != status {
			t.Fatalf("%s: %d, a problem that is not valid JSON or names another status (%v): %q", what, status, err, body)
		}
		return
	}
	if strings.HasSuffix(mt, "json") && !jsontext.Value(body).IsValid() {
		t.Fatalf("%s: %d, a body that is not valid JSON: %q", what, status, body)
	}
}

// FuzzParams puts arbitrary bytes in every path parameter and every query
// parameter of every route (the OpenAPI paths of the API, and the schema
// and page routes), as an authenticated caller allowed every route would,
// and holds each answer to issue 33 item 2: never a 5xx, every error valid
// problem+json, and a parameter that is not valid UTF-8 refused with 400
// naming it (path.id, query.table). make test runs it for a count of
// inputs (-fuzztime Nx); go test runs its seeds, which include the issue's
// reproducers on every route.
func FuzzParams(f *testing.F) {
	h, api, token := paramsHost(f)
	routes := routesOf(api)
	if len(routes) < 30 {
		f.Fatalf("only %d routes", len(routes))
	}
	for i := range routes {
		for _, s := range []string{"\xc0\xae\xc0\xae", "\xff", "p1", "4"} {
			f.Add(uint16(i), []byte(s), []byte("T12"))
		}
		f.Add(uint16(i), []byte("p1"), []byte("\xff\xfe"))
	}
	f.Add(uint16(0), []byte("a/b%2F"), []byte("x&y=%zz"))
	f.Fuzz(func(t *testing.T, which uint16, param, query []byte) {
		rt := routes[int(which)%len(routes)]
		path := pathParam.ReplaceAllLiteralString(rt.path, url.PathEscape(string(param)))
		q := url.Values{}
		for _, name := range rt.query {
			q.Set(name, string(query))
		}
		var body io.Reader
		if hasBody(rt.method) {
			body = strings.NewReader(`{}`)
		}
		req := httptest.NewRequest(rt.method, "/", body)
		req.URL.Path, req.URL.RawPath, req.URL.RawQuery = "", path, q.Encode()
		if u, err := url.Parse(path); err == nil {
			req.URL.Path = u.Path
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Idempotency-Key", "fuzz-1")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		what := rt.method + " " + path + "?" + q.Encode()
		checkAnswer(t, what, w.Code, w.Header(), w.Body.Bytes())
		if !utf8.Valid(param) && strings.Contains(rt.path, "{") {
			name := pathParam.FindStringSubmatch(rt.path)[1]
			if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"location":"path.`+name+`"`) {
				t.Fatalf("%s: a path parameter that is not UTF-8: %d %s, want 400 naming path.%s", what, w.Code, w.Body, name)
			}
		} else if !utf8.Valid(query) && len(rt.query) > 0 && utf8.Valid(param) {
			if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"location":"query.`) {
				t.Fatalf("%s: a query parameter that is not UTF-8: %d %s, want 400 naming it", what, w.Code, w.Body)
			}
		}
	})
}
