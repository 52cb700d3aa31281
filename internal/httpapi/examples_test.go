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

// Every request example in the spec is a request the service answers with
// success: a client that copies one from the docs gets an answer, not a 422.
// The pool examples run in order on a fresh SQLite store: the create example
// first, then the ones that need its pool.
func TestEverySpecExampleSucceeds(t *testing.T) {
	st, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	served, api := New(Deps{Pools: pools.NewService(st, time.Now, 1)})
	h := asEveryRole(served)
	oapi := api.OpenAPI()

	type call struct {
		method, path string
		examples     map[string]any
	}
	var calls []call
	for path, item := range oapi.Paths {
		for _, op := range []*huma.Operation{item.Post, item.Put, item.Patch} {
			if op == nil || op.RequestBody == nil {
				continue
			}
			if strings.Contains(path, "/hits/{seq}/") || strings.HasSuffix(path, "/correction") || strings.Contains(path, "{proposal}") {
				// The jackpot lock's operations and corrections need a hit
				// or a round and an authenticated principal:
				// TestPoolLockHTTP and TestPoolCorrectionHTTP run them.
				continue
			}
			mt := op.RequestBody.Content["application/json"]
			c := call{method: op.Method, path: path, examples: map[string]any{}}
			if mt.Example != nil {
				c.examples["example"] = mt.Example
			}
			for k, ex := range mt.Examples {
				c.examples[k] = ex.Value
			}
			calls = append(calls, c)
		}
	}
	// The pool must exist before its other operations: create first.
	sort.Slice(calls, func(i, j int) bool {
		ki, kj := calls[i].path != "/v1/pools", calls[j].path != "/v1/pools"
		if ki != kj {
			return !ki
		}
		return calls[i].method+calls[i].path < calls[j].method+calls[j].path
	})
	poolID := ""
	for _, c := range calls {
		for name, ex := range c.examples {
			body, err := json.Marshal(ex)
			if err != nil {
				t.Fatal(err)
			}
			path := strings.ReplaceAll(c.path, "{id}", poolID)
			req := httptest.NewRequest(c.method, path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Idempotency-Key", fmt.Sprintf("example-%s-%s", c.method, name))
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code < 200 || w.Code > 299 {
				t.Errorf("%s %s example %q: %d %s", c.method, c.path, name, w.Code, w.Body)
				continue
			}
			if c.path == "/v1/pools" && c.method == http.MethodPost {
				var p struct {
					ID string `json:"id"`
				}
				_ = json.Unmarshal(w.Body.Bytes(), &p)
				poolID = p.ID
			}
		}
	}
	if poolID == "" {
		t.Error("the pool create example made no pool")
	}
}
