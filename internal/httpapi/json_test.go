package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// Issue 15 section 3, issue 22 item 1: every operation with a body refuses
// a duplicate name, a case-variant name and invalid UTF-8 with 422 naming
// the name's path, before the operation runs (at every depth).
func TestEveryBodyOperationRefusesAmbiguousJSON(t *testing.T) {
	h, api := New(Deps{})
	ops := 0
	for path, item := range api.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Post, item.Put, item.Patch} {
			if op == nil || op.RequestBody == nil {
				continue
			}
			ops++
			url := strings.NewReplacer("{id}", "some-pool", "{seq}", "1", "{table}", "t1", "{round}", "r1").Replace(path)
			cases := []struct {
				name, body, location, message string
			}{
				{"duplicate key", `{"a":1,"a":2}`, "body.a", `given twice`},
				{"escaped duplicate key", `{"cards":"As","\u0063ards":"2c"}`, "body.cards", `given twice`},
				{"deep duplicate key", `{"positions":[{"seat":1},{"wagers":{"ante":1,"ante":2}}]}`, "body.positions[1].wagers.ante", "given twice"},
				{"invalid UTF-8", "{\"roundId\":\"T1\xff\"}", "body.roundId", "not valid UTF-8"},
				{"lone surrogate escape", `{"x":[{"y":"\ud800"}]}`, "body.x[0].y", "surrogate"},
				// A name the location syntax cannot write: huma's validator
				// stepped back out of "a.b" to "body.a" and located what
				// followed there ("body.a.x"); refused at the name instead.
				{"dotted name", `{"a.b":1,"x":2,"y":3}`, `body["a.b"]`, "unexpected property"},
				{"deep bracketed name", `{"positions":[{"wagers":{"ante[0]":1}}],"z":1}`, `body.positions[0].wagers["ante[0]"]`, "unexpected property"},
			}
			for _, c := range cases {
				t.Run(op.Method+" "+path+" "+c.name, func(t *testing.T) {
					req := httptest.NewRequest(op.Method, url, strings.NewReader(c.body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Idempotency-Key", "k1")
					w := httptest.NewRecorder()
					h.ServeHTTP(w, req)
					if w.Code != http.StatusUnprocessableEntity {
						t.Fatalf("status %d, want 422: %s", w.Code, w.Body)
					}
					var p huma.ErrorModel
					if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || len(p.Errors) != 1 {
						t.Fatalf("not one problem detail: %v %s", err, w.Body)
					}
					if p.Errors[0].Location != c.location || !strings.Contains(p.Errors[0].Message, c.message) {
						t.Errorf("error %+v, want location %s and a message with %q", p.Errors[0], c.location, c.message)
					}
				})
			}
		}
	}
	if ops < 7 {
		t.Errorf("%d operations with a body, want at least 7", ops)
	}
}

// A "Cards" after "cards" at settle must not change the hand that is paid:
// refused, with the settle answer never computed. Names are
// case-sensitive (issue 22 item 1).
func TestSettleCaseVariantCardsRefused(t *testing.T) {
	h, _ := New(Deps{})
	body := `{"ruleset":"mbs-megalink-ssp-v6","roundId":"R1","dealer":"As Kd 7h 4c 2s",` +
		`"positions":[{"seat":1,"cards":"2c 3d 5h 8s 9c","Cards":"Ah Kh Qh Jh Th","wagers":{"ante":1000,"bet":2000}}]}`
	req := httptest.NewRequest(http.MethodPost, "/v1/rounds/settle", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != 422 || !strings.Contains(w.Body.String(), `"location":"body.positions[0].Cards"`) {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
}

func TestContentType(t *testing.T) {
	h, _ := New(Deps{})
	body := `{"cards":"As Ks Qs Js Ts","game":"five_card"}`
	cases := []struct {
		ct     string
		status int
	}{
		{"application/json", 200},
		{"Application/JSON", 200},
		{"application/json; charset=utf-8", 200},
		{"APPLICATION/JSON;charset=UTF-8", 200},
		{"", 200}, // the only body the API reads
		{"application/merge-patch+json", 415},
		{"application/problem+json", 415},
		{"text/plain", 415},
		{"application/jsonx", 415},
	}
	for _, c := range cases {
		t.Run(c.ct, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/v1/hands/evaluate", strings.NewReader(body))
			if c.ct != "" {
				req.Header.Set("Content-Type", c.ct)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != c.status {
				t.Fatalf("status %d, want %d: %s", w.Code, c.status, w.Body)
			}
			if c.status == 415 && w.Header().Get("Content-Type") != "application/problem+json" {
				t.Errorf("Content-Type %q", w.Header().Get("Content-Type"))
			}
		})
	}
}

// What an error repeats of the request is bounded (apijson.MaxEcho): a 1 KB key
// given twice comes back cut.
func TestErrorsBoundWhatTheyRepeat(t *testing.T) {
	h, _ := New(Deps{})
	key := strings.Repeat("k", 1024)
	body := `{"` + key + `":1,"` + key + `":2}`
	req := httptest.NewRequest(http.MethodPost, "/v1/hands/evaluate", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != 422 || w.Body.Len() > 600 {
		t.Fatalf("status %d, %d bytes: %s", w.Code, w.Body.Len(), w.Body)
	}
}

// Issue 15 section 3: a string written with JSON escapes is the same
// string. dealtAt with \u002B (a "+") is a date-time, as with the "+".
func TestEscapedDealtAtIsTheSameString(t *testing.T) {
	st, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	served, api := New(Deps{Pools: pools.NewService(st, time.Now, 1)})
	h := asEveryRole(served) // Deps.Access is nil: the ledger records this principal
	example := func(path string) []byte {
		b, err := json.Marshal(api.OpenAPI().Paths[path].Post.RequestBody.Content["application/json"].Example)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	call := func(path string, body []byte) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "k-"+path)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	w := call("/v1/pools", example("/v1/pools"))
	var pool struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &pool); err != nil || w.Code != 201 {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	round := bytes.Replace(example("/v1/pools/{id}/rounds"), []byte(`"2026-03-01T20:00:00Z"`), []byte(`"2026\u002D03-01T20:00:00\u002B08:00"`), 1)
	if !bytes.Contains(round, []byte(`\u002B`)) {
		t.Fatal("the example has no dealtAt to escape")
	}
	if w := call("/v1/pools/"+pool.ID+"/rounds", round); w.Code != 200 {
		t.Fatalf("round with an escaped dealtAt: %d %s", w.Code, w.Body)
	}
}

// A wrong value the schema cannot see (an integer beyond int64) deep in
// positions is reported at its full path, never "body", with no Go text
// and no echo of the body.
func TestDecodeErrorNamesThePath(t *testing.T) {
	h, _ := New(Deps{})
	body := `{"ruleset":"mbs-megalink-ssp-v6","roundId":"R1","dealer":"As Kd 7h 4c 2s","positions":[` +
		`{"seat":1,"cards":"2c 3d 5h 8s 9c","wagers":{"ante":1000}},{"seat":2,"cards":"2h 3h 5d 8d 9d","wagers":{"ante":1000,"bet":99999999999999999999999}}]}`
	req := httptest.NewRequest(http.MethodPost, "/v1/rounds/settle", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != 422 || !strings.Contains(w.Body.String(), `"location":"body.positions[1].wagers.bet"`) ||
		strings.Contains(w.Body.String(), "json:") || strings.Contains(w.Body.String(), "int64") || strings.Contains(w.Body.String(), `"value"`) {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
}

// Names the schema does not take are answered in one order, their
// locations', however often the same body is sent: huma finds them by
// ranging over a Go map, and answered the same request in several orders.
func TestUnexpectedPropertiesInOneOrder(t *testing.T) {
	h, _ := New(Deps{})
	const want = `"errors":[{"message":"unexpected property","location":"body.p"},{"message":"unexpected property","location":"body.q"},` +
		`{"message":"unexpected property","location":"body.r"},{"message":"unexpected property","location":"body.s"}]`
	for i := 0; i < 40; i++ {
		req := httptest.NewRequest(http.MethodPost, "/v1/hands/evaluate", strings.NewReader(`{"s":4,"cards":"8C TS KC 9H 4S","q":2,"game":"five_card","r":3,"p":1}`))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusUnprocessableEntity || !strings.Contains(w.Body.String(), want) {
			t.Fatalf("try %d: %d %s; want the four in the order of their locations", i, w.Code, w.Body)
		}
	}
}
