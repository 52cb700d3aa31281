package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// Issue 15 section 3: every operation with a body refuses a duplicate key,
// a case-variant key and invalid UTF-8 with 422 naming the key's path,
// before the operation runs (at every depth: the settle case puts them in
// positions[0]).
func TestEveryBodyOperationRefusesAmbiguousJSON(t *testing.T) {
	h, api := New(Deps{})
	ops := 0
	for path, item := range api.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Post, item.Put, item.Patch} {
			if op == nil || op.RequestBody == nil {
				continue
			}
			ops++
			url := strings.ReplaceAll(path, "{id}", "some-pool")
			cases := []struct {
				name, body, location, message string
			}{
				{"duplicate key", `{"a":1,"a":2}`, "body.a", `the key "a" is given twice`},
				{"case-variant key", `{"cards":"As Ks","Cards":"2c 3d"}`, "body.Cards", `the key "Cards" differs only in case from "cards"`},
				{"escaped duplicate key", `{"cards":"As","\u0063ards":"2c"}`, "body.cards", `the key "cards" is given twice`},
				{"deep case-variant key", `{"positions":[{"seat":1},{"wagers":{"ante":1,"ANTE":2}}]}`, "body.positions[1].wagers.ANTE", "differs only in case"},
				{"invalid UTF-8", "{\"roundId\":\"T1\xff\"}", "body.roundId", "not valid UTF-8"},
				{"lone surrogate escape", `{"x":[{"y":"\ud800"}]}`, "body.x[0].y", "surrogate"},
			}
			for _, c := range cases {
				t.Run(op.Method+" "+path+" "+c.name, func(t *testing.T) {
					req := httptest.NewRequest(op.Method, url, strings.NewReader(c.body))
					req.Header.Set("Content-Type", "application/json")
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
// refused, with the settle answer never computed.
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

func TestCheckJSON(t *testing.T) {
	cases := []struct {
		name, body string
		status     int // 0: accepted
		location   string
	}{
		{"object", `{"a":[1,-2.5e+3,true,false,null,"x\u00e9\n"],"b":{}}`, 0, ""},
		{"surrogate pair", `{"a":"\ud83d\ude00"}`, 0, ""},
		{"escaped plus is the same string", `{"dealtAt":"2026-03-01T20:00:00\u002B08:00"}`, 0, ""},
		{"same key in two objects", `[{"a":1},{"a":2}]`, 0, ""},
		{"many keys", `{` + manyKeys(40, "") + `}`, 0, ""},
		{"escaped astral key twice", `{"\ud83d\ude00":1,"😀":2}`, 422, "body.😀"},
		{"escapes of every kind in a key twice", `{"a\b\f\n\r\t\"\\\/é":1,"a\u0008\u000c\u000a\u000d\u0009\u0022\u005c/\u00e9":2}`, 422, "body.a\b\f\n\r\t\"\\/é"},
		{"many keys then a case variant", `{` + manyKeys(40, "") + `,"K39":1}`, 422, "body.K39"},
		{"trailing comma", `{"a":1,}`, 400, "body"},
		{"two documents", `{} {}`, 400, "body"},
		{"leading zero", `{"a":01}`, 400, "body"},
		{"number beyond float64", `{"a":[1,1E700]}`, 422, "body.a[1]"},
		{"long number beyond float64", `{"a":` + strings.Repeat("9", 400) + `}`, 422, "body.a"},
		{"small exponent", `{"a":1e-700}`, 0, ""},
		{"bad literal", `{"a":nul}`, 400, "body"},
		{"control character", "{\"a\":\"\x01\"}", 400, "body"},
		{"bad escape", `{"a":"\x"}`, 400, "body"},
		{"too deep", strings.Repeat("[", 40) + strings.Repeat("]", 40), 422, "body" + strings.Repeat("[0]", 32)},
		{"overlong UTF-8", "{\"a\":\"\xc0\xaf\"}", 422, "body.a"},
		{"invalid UTF-8 in a key", "{\"a\xff\":1}", 422, "body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := checkJSON([]byte(c.body))
			if c.status == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || err.Status != c.status || err.Location != bound(c.location) {
				t.Fatalf("got %+v, want %d at %s", err, c.status, c.location)
			}
		})
	}
}

func manyKeys(n int, prefix string) string {
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"k` + prefix + string(rune('0'+i/10)) + string(rune('0'+i%10)) + `":1`)
	}
	return sb.String()
}

// What an error repeats of the request is bounded (maxEcho): a 1 KB key
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

// FuzzCheckJSON: the strict decoder never panics, and whatever it accepts
// encoding/json reads as valid JSON, with no key repeated in any case.
// make test runs it for a bounded time.
func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":1,"A":2}`, `[{"x":"\u00e9"}]`, "{\"a\":\"\xff\"}", `{"a":"\ud800"}`, `{"a":{"b":[1,2,{"c":null}]}}`, `-0.5e-3`, `"\ud83d\ude00"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		err := checkJSON(b)
		if err != nil {
			if err.Status != 400 && err.Status != 422 || !strings.HasPrefix(err.Location, "body") || len(err.Location) > maxEcho+3 {
				t.Fatalf("refused with %+v", err)
			}
			return
		}
		if !json.Valid(b) {
			t.Fatalf("accepted what encoding/json calls invalid: %q", b)
		}
		if !utf8.Valid(b) {
			t.Fatalf("accepted invalid UTF-8: %q", b)
		}
		var v, cv any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("accepted, encoding/json fails: %v", err)
		}
		// Its canonical form is the same document.
		if err := json.Unmarshal(canonicalEscapes(b), &cv); err != nil || !reflect.DeepEqual(v, cv) {
			t.Fatalf("canonicalEscapes(%q) = %q: %v", b, canonicalEscapes(b), err)
		}
	})
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

func TestCanonicalEscapes(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a":"x"}`, `{"a":"x"}`},
		{`{"t":"20:00\u002B08:00"}`, `{"t":"20:00+08:00"}`},
		{`{"\u0063ards":"\u00e9\/\ud83d\ude00"}`, `{"cards":"é/😀"}`},
		{`{"q":"\u0022\u005c\u0001\n"}`, `{"q":"\u0022\u005c\u0001\n"}`},
		{`["\\u0041"]`, `["\\u0041"]`},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := string(canonicalEscapes([]byte(c.in))); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
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
