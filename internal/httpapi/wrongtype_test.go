package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// Issue 15 section 3: every 422 names the full path. Each leaf of every
// request example of the spec, in turn, is given a value of the wrong JSON
// type (a string for a number, a number for a string, an object for an
// array...); the answer is a 422 whose errors all have a location under
// body and one of them names that leaf's path exactly, with no Go text.
func TestEveryWrongTypeNamesItsPath(t *testing.T) {
	st, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	served, api := New(Deps{Pools: pools.NewService(st, time.Now, 1)})
	h := asEveryRole(served) // Deps.Access is nil: the ledger records this principal
	// A pool for the pool operations to find.
	create, _ := json.Marshal(api.OpenAPI().Paths["/v1/pools"].Post.RequestBody.Content["application/json"].Example)
	var pool struct {
		ID string `json:"id"`
	}
	w := serve(h, http.MethodPost, "/v1/pools", create, "create")
	if err := json.Unmarshal(w.Body.Bytes(), &pool); err != nil || pool.ID == "" {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	paths := make([]string, 0, len(api.OpenAPI().Paths))
	for p := range api.OpenAPI().Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	cases := 0
	for _, path := range paths {
		item := api.OpenAPI().Paths[path]
		for _, op := range []*huma.Operation{item.Post, item.Put, item.Patch} {
			if op == nil || op.RequestBody == nil {
				continue
			}
			mt := op.RequestBody.Content["application/json"]
			examples := []any{mt.Example}
			for _, ex := range mt.Examples {
				examples = append(examples, ex.Value)
			}
			for _, ex := range examples {
				if ex == nil {
					continue
				}
				b, _ := json.Marshal(ex)
				var doc any
				_ = json.Unmarshal(b, &doc)
				for _, leaf := range leaves(doc, "body", nil) {
					cases++
					mutated := replaceAt(deepCopy(doc), leaf.segs, wrongType(leaf.value))
					body, _ := json.Marshal(mutated)
					key := fmt.Sprintf("wrong-type-%d", cases)
					url := strings.NewReplacer("{id}", pool.ID, "{seq}", "1", "{table}", "T12", "{round}", "R1").Replace(path)
					t.Run(op.Method+" "+path+" "+leaf.path, func(t *testing.T) {
						w := serve(h, op.Method, url, body, key)
						if w.Code != http.StatusUnprocessableEntity {
							t.Fatalf("status %d, want 422: %s", w.Code, w.Body)
						}
						var p huma.ErrorModel
						_ = json.Unmarshal(w.Body.Bytes(), &p)
						found := false
						for _, e := range p.Errors {
							if !strings.HasPrefix(e.Location, "body.") && !strings.HasPrefix(e.Location, "body[") {
								t.Errorf("an error at %q, not a field: %s", e.Location, w.Body)
							}
							// Exactly the leaf, elements of the free-form facts
							// lists included (body.facts.withdrawnSeats[0]),
							// which internal/irregularity checks itself.
							found = found || e.Location == leaf.path
						}
						if !found {
							t.Errorf("no error names %s: %s", leaf.path, w.Body)
						}
						if s := w.Body.String(); strings.Contains(s, "json:") || strings.Contains(s, "Go struct") || strings.Contains(s, "unmarshal") {
							t.Errorf("Go's text reaches the client: %s", s)
						}
					})
				}
			}
		}
	}
	if cases < 50 {
		t.Errorf("only %d leaves tried", cases)
	}
}

func serve(h http.Handler, method, url string, body []byte, idempotencyKey string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", idempotencyKey)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

type leaf struct {
	path  string
	segs  []any // string keys and int indices
	value any
}

// leaves lists every value below doc, with its location.
func leaves(doc any, at string, segs []any) []leaf {
	var out []leaf
	add := func(p string, seg any, v any) {
		s := append(append([]any(nil), segs...), seg)
		out = append(out, leaf{p, s, v})
		out = append(out, leaves(v, p, s)...)
	}
	switch v := doc.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			add(at+"."+k, k, v[k])
		}
	case []any:
		for i, e := range v {
			add(fmt.Sprintf("%s[%d]", at, i), i, e)
		}
	}
	return out
}

func deepCopy(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// replaceAt sets the value at segs of doc to nv.
func replaceAt(doc any, segs []any, nv any) any {
	if len(segs) == 0 {
		return nv
	}
	switch k := segs[0].(type) {
	case string:
		m := doc.(map[string]any)
		m[k] = replaceAt(m[k], segs[1:], nv)
		return m
	default:
		a := doc.([]any)
		i := k.(int)
		a[i] = replaceAt(a[i], segs[1:], nv)
		return a
	}
}

func wrongType(v any) any {
	switch v.(type) {
	case string:
		return 12345
	case float64, bool:
		return "wrong"
	case []any:
		return map[string]any{"x": 1}
	case map[string]any:
		return []any{1}
	}
	return "wrong"
}
