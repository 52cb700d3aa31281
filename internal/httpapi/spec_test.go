package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/apispec"
	"github.com/tablesettle/tablesettle/internal/localledger"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// The committed spec is what the code generates (CONVENTIONS 2): clients
// are generated from the committed files, so a drift would ship clients of
// an API that does not exist.
func TestCommittedSpecMatchesCode(t *testing.T) {
	v31, v30, err := Spec()
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string][]byte{"openapi.yaml": v31, "openapi-3.0.yaml": v30} {
		got, err := os.ReadFile(filepath.Join("..", "..", "openapi", file))
		if err != nil {
			t.Fatalf("%v: run `make openapi`", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("openapi/%s differs from the code: run `make openapi` and commit the result", file)
		}
	}
}

// Every request body in the spec has an example, and the example is a
// valid request (huma's own validator, as a request would be checked).
func TestEveryRequestBodyHasAValidExample(t *testing.T) {
	_, api := New(Deps{})
	oapi := api.OpenAPI()
	n := 0
	for path, item := range oapi.Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
			if op == nil || op.RequestBody == nil {
				continue
			}
			n++
			name := fmt.Sprintf("%s %s", op.Method, path)
			mt := op.RequestBody.Content["application/json"]
			if mt == nil || (mt.Example == nil && len(mt.Examples) == 0) {
				t.Errorf("%s: request body has no example (give every required field an `example:` tag, or set one)", name)
				continue
			}
			examples := map[string]any{}
			if mt.Example != nil {
				examples["example"] = mt.Example
			}
			for k, ex := range mt.Examples {
				examples[k] = ex.Value
			}
			for k, ex := range examples {
				// Validate what a client would send: the example as JSON.
				raw, err := json.Marshal(ex)
				if err != nil {
					t.Fatalf("%s: example %q: %v", name, k, err)
				}
				var decoded any
				if err := json.Unmarshal(raw, &decoded); err != nil {
					t.Fatalf("%s: example %q: %v", name, k, err)
				}
				ex = decoded
				res := &huma.ValidateResult{}
				huma.Validate(oapi.Components.Schemas, mt.Schema, huma.NewPathBuffer([]byte{}, 0), huma.ModeWriteToServer, ex, res)
				for _, e := range res.Errors {
					t.Errorf("%s: example %q is not a valid request: %v", name, k, e)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no operation with a request body")
	}
}

// The local server (and every function) serves the spec it commits and a
// docs page that loads nothing from another host (a casino floor's network
// is closed): the page, its script and style come from the binary, under a
// Content-Security-Policy that allows only the service itself.
func TestServesSpecAndDocs(t *testing.T) {
	h, _ := New(Deps{Logger: slog.New(slog.DiscardHandler)})
	v31, v30, err := Spec()
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"/openapi.yaml": string(v31), "/openapi-3.0.yaml": string(v30)} {
		w := do(t, h, "GET", path, "", nil)
		if w.Code != 200 || w.Body.String() != want {
			t.Errorf("GET %s: status %d, not the committed spec", path, w.Code)
		}
	}
	for _, path := range []string{"/openapi.json", "/openapi-3.0.json"} {
		w := do(t, h, "GET", path, "", nil)
		if w.Code != 200 || !json.Valid(w.Body.Bytes()) {
			t.Errorf("GET %s: status %d, not JSON", path, w.Code)
		}
	}
	for path, want := range map[string]string{"/docs": "<html", "/docs/app.js": "openapi.json", "/docs/app.css": "font"} {
		w := do(t, h, "GET", path, "", nil)
		body := w.Body.String()
		if w.Code != 200 || !strings.Contains(body, want) {
			t.Errorf("GET %s: status %d, body lacks %q", path, w.Code, want)
		}
		if csp := w.Header().Get("Content-Security-Policy"); csp != apispec.DocsCSP {
			t.Errorf("GET %s: Content-Security-Policy %q", path, csp)
		}
		for _, host := range []string{"http://", "https://", "//unpkg", "//cdn"} {
			if strings.Contains(body, host) {
				t.Errorf("GET %s: refers to another host (%q)", path, host)
			}
		}
		if len(body) > 1<<20 {
			t.Errorf("GET %s: %d bytes", path, len(body))
		}
	}
}

// Every answer the service gives is declared in the spec with the status it
// has, and every 2xx body is valid against its declared schema (huma's
// validator, as a client reads it): arrays the spec types "array" are never
// null, enums hold, required fields are there (issue 15 section 5). The
// calls cover every operation's example and the statuses generated
// clients must file right: an idempotent re-create (200), a conflicting
// create (409), an unknown pool (404), a body that is not JSON (400).
func TestAnswersAreDeclaredAndValid(t *testing.T) {
	dir := t.TempDir()
	st, err := sqlite.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	svc := pools.NewService(st, time.Now, 1)
	if svc.Signing, err = localledger.Open(dir); err != nil { // the checkpoint's answer (issue 34)
		t.Fatal(err)
	}
	served, api := New(Deps{Pools: svc})
	h := asEveryRole(served)
	oapi := api.OpenAPI()
	exampleOf := func(path, method string) []byte {
		op := opAt(oapi, path, method)
		mt := op.RequestBody.Content["application/json"]
		ex := mt.Example
		for _, name := range keys(mt.Examples) {
			if ex == nil {
				ex = mt.Examples[name].Value
			}
		}
		b, err := json.Marshal(ex)
		if err != nil || ex == nil {
			t.Fatalf("%s %s: no example", method, path)
		}
		return b
	}
	createBody := exampleOf("/v1/pools", "POST")
	var pool struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(createBody, &pool)
	var other map[string]any
	_ = json.Unmarshal(createBody, &other)
	other["unit"] = 200 + int64(len(pool.ID)) // same id, other settings
	otherBody, _ := json.Marshal(other)

	type call struct {
		method, path, opPath string
		body                 []byte
		key                  string
		want                 int
	}
	calls := []call{
		{"POST", "/v1/pools", "/v1/pools", createBody, "", 201},
		{"POST", "/v1/pools", "/v1/pools", createBody, "", 200}, // idempotent re-create
		{"POST", "/v1/pools", "/v1/pools", otherBody, "", 409},
		{"POST", "/v1/pools", "/v1/pools", []byte("{"), "", 400},
		{"GET", "/v1/pools/no-such-pool", "/v1/pools/{id}", nil, "", 404},
		{"GET", "/v1/rulesets/nope", "/v1/rulesets/{id}", nil, "", 404},
		{"GET", "/v1/rulesets/nope/irregularities", "/v1/rulesets/{id}/irregularities", nil, "", 404},
		{"GET", "/v1/rulesets/nope/analysis", "/v1/rulesets/{id}/analysis", nil, "", 404},
		{"POST", "/v1/irregularities", "/v1/irregularities", []byte(`{"ruleset":"nope"}`), "", 422},
	}
	ids := map[string]string{
		"/v1/pools/":    pool.ID,
		"/v1/rulesets/": "mbs-megalink-tcp-v6",
		"/v1/rulings/":  "R12",
	}
	paths := make([]string, 0, len(oapi.Paths))
	for p := range oapi.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		item := oapi.Paths[p]
		for _, op := range []*huma.Operation{item.Get, item.Post, item.Patch, item.Put, item.Delete} {
			if op == nil || (p == "/v1/pools" && op.Method == "POST") {
				continue
			}
			if strings.Contains(p, "{seq}") || strings.Contains(p, "{round}") || strings.Contains(p, "{proposal}") || p == "/v1/me" {
				// A hit's verification and a round's correction need a
				// committed hit or round and a principal: pools_lock_test.go
				// replays their examples against a pool that has them. GET
				// /v1/me answers a principal: the access matrix covers it.
				continue
			}
			concrete := strings.ReplaceAll(p, "{clause}", "3.11")
			for prefix, id := range ids {
				if strings.HasPrefix(concrete, prefix) {
					concrete = strings.Replace(concrete, "{id}", id, 1)
				}
			}
			if p == "/v1/pools/{id}/meters" {
				concrete += "?at=2030-01-01T00:00:00Z"
			}
			if p == "/v1/pools/{id}/consistency" {
				concrete += "?from=1"
			}
			c := call{method: op.Method, path: concrete, opPath: p, want: max(op.DefaultStatus, 200), key: "answers-" + op.OperationID}
			if op.RequestBody != nil {
				c.body = exampleOf(p, op.Method)
			}
			calls = append(calls, c)
			if op.RequestBody != nil {
				calls = append(calls, call{op.Method, concrete, p, []byte("not json"), c.key + "-bad", 400})
			}
		}
	}
	// Every ruleset's published answers, not only the one above.
	for _, id := range []string{"mbs-megalink-ssp-v6", "mbs-ssp-v4", "mbs-megalink-thb-v9", "rws-mlp-csp-v2"} {
		for _, tail := range []string{"", "/irregularities", "/analysis", "/document"} {
			calls = append(calls, call{"GET", "/v1/rulesets/" + id + tail, "/v1/rulesets/{id}" + tail, nil, "", 200})
		}
	}
	// An Idempotency-Key reused with another body: 409 (declared).
	calls = append(calls, call{"POST", "/v1/pools/" + pool.ID + "/adjustments", "/v1/pools/{id}/adjustments",
		[]byte(`{"meter":"reserve","amount":1,"reason":"another body"}`), "answers-adjust-pool", 409})

	for _, c := range calls {
		name := fmt.Sprintf("%s %s %d", c.method, c.path, c.want)
		op := opAt(oapi, c.opPath, c.method)
		req := httptest.NewRequest(c.method, c.path, bytes.NewReader(c.body))
		if c.body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if c.key != "" {
			req.Header.Set("Idempotency-Key", c.key)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != c.want {
			t.Errorf("%s: answered %d %s", name, w.Code, w.Body)
			continue
		}
		resp := op.Responses[strconv.Itoa(w.Code)]
		if resp == nil {
			t.Errorf("%s: status %d is not declared (declared: %v)", name, w.Code, keys(op.Responses))
			continue
		}
		if w.Code == 503 && w.Header().Get("Retry-After") == "" {
			t.Errorf("%s: 503 without Retry-After", name)
		}
		ct := w.Header().Get("Content-Type")
		mt := resp.Content[strings.TrimSpace(strings.Split(ct, ";")[0])]
		if mt == nil {
			t.Errorf("%s: Content-Type %q is not declared for %d", name, ct, w.Code)
			continue
		}
		var body any
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res := &huma.ValidateResult{}
		huma.Validate(oapi.Components.Schemas, mt.Schema, huma.NewPathBuffer([]byte{}, 0), huma.ModeReadFromServer, body, res)
		for _, e := range res.Errors {
			t.Errorf("%s: the answer does not match the spec: %v", name, e)
		}
	}
}

func opAt(oapi *huma.OpenAPI, path, method string) *huma.Operation {
	item := oapi.Paths[path]
	if item == nil {
		return nil
	}
	return map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PATCH": item.Patch, "PUT": item.Put, "DELETE": item.Delete}[method]
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// A fraction of money is an amount, a fraction of a stake a percentage
// (issue 15 section 5): THB v9's break-even meter is 410380000/19 minor
// units, SGD 215,989.47, and carries no percent (it read 2159894736.84%).
func TestBreakEvenMeterIsAnAmount(t *testing.T) {
	h, _ := New(Deps{Logger: slog.New(slog.DiscardHandler)})
	w := do(t, h, "GET", "/v1/rulesets/mbs-megalink-thb-v9/analysis", "", nil)
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	var a struct {
		Progressives []struct {
			ByMultiple []struct {
				BreakEvenMeter map[string]string `json:"breakEvenMeter"`
			} `json:"byMultiple"`
		} `json:"progressives"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil || len(a.Progressives) == 0 || len(a.Progressives[0].ByMultiple) == 0 {
		t.Fatalf("%v: %s", err, w.Body)
	}
	got := a.Progressives[0].ByMultiple[0].BreakEvenMeter
	want := map[string]string{"num": "410380000", "den": "19", "minorUnits": "21598947.37"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("breakEvenMeter %v, want %v", got, want)
	}
}

// With no pool store (or one that cannot confirm), every pool operation
// answers 503 with Retry-After, as the spec declares.
func TestPoolsUnavailableIsDeclared(t *testing.T) {
	h, api := New(Deps{Logger: slog.New(slog.DiscardHandler)})
	oapi := api.OpenAPI()
	for _, c := range []struct{ method, path, opPath string }{
		{"GET", "/v1/pools/p1", "/v1/pools/{id}"},
		{"GET", "/v1/pools/p1/ledger", "/v1/pools/{id}/ledger"},
		{"POST", "/v1/pools/p1/release", "/v1/pools/{id}/release"},
	} {
		w := do(t, h, c.method, c.path, "", nil)
		op := opAt(oapi, c.opPath, c.method)
		if w.Code != 503 || w.Header().Get("Retry-After") == "" {
			t.Errorf("%s %s: %d, Retry-After %q", c.method, c.path, w.Code, w.Header().Get("Retry-After"))
		}
		if r := op.Responses["503"]; r == nil || r.Headers["Retry-After"] == nil {
			t.Errorf("%s %s: 503 with Retry-After is not declared", c.method, c.opPath)
		}
	}
}
