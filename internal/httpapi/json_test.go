package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// The codec alone (codec.go): what it accepts, and what it refuses with
// which status at which location.
func TestDecode(t *testing.T) {
	cases := []struct {
		name, body string
		status     int // 0: accepted
		location   string
	}{
		{"object", `{"a":[1,-2.5e+3,true,false,null,"x\u00e9\n"],"b":{}}`, 0, ""},
		{"surrogate pair", `{"a":"\ud83d\ude00"}`, 0, ""},
		{"same key in two objects", `[{"a":1},{"a":2}]`, 0, ""},
		{"case variants are two names", `{"a":1,"A":2}`, 0, ""},
		{"many keys", `{` + manyKeys(40, "") + `}`, 0, ""},
		{"escaped astral key twice", `{"\ud83d\ude00":1,"😀":2}`, 422, "body.😀"},
		{"escapes of every kind in a key twice", `{"a\b\f\n\r\t\"\\\/é":1,"a\u0008\u000c\u000a\u000d\u0009\u0022\u005c/\u00e9":2}`, 422, "body.a\b\f\n\r\t\"\\/é"},
		{"many keys then one twice", `{` + manyKeys(40, "") + `,"k39":1}`, 422, "body.k39"},
		{"trailing comma", `{"a":1,}`, 400, "body"},
		{"two documents", `{} {}`, 400, "body"},
		{"leading zero", `{"a":01}`, 400, "body"},
		{"number beyond float64", `{"a":[1,1E700]}`, 422, "body.a[1]"},
		{"long number beyond float64", `{"a":` + strings.Repeat("9", 400) + `}`, 422, "body.a"},
		{"small exponent", `{"a":1e-700}`, 0, ""},
		{"bad literal", `{"a":nul}`, 400, "body"},
		{"control character", "{\"a\":\"\x01\"}", 400, "body"},
		{"bad escape", `{"a":"\x"}`, 400, "body"},
		{"overlong UTF-8", "{\"a\":\"\xc0\xaf\"}", 422, "body.a"},
		{"invalid UTF-8 in a name", "{\"a\":{\"b\x8f\":1}}", 422, "body.a.b\ufffd"},
		{"invalid UTF-8, then not JSON", "\"\x9c", 400, "body"},
		{"numeric key is a key", `{"2":{"b":"\ud800"}}`, 422, "body.2.b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var v any
			err := jsonFormat.Unmarshal([]byte(c.body), &v)
			if c.status == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			status, loc, msg, ok := locatedDetail(fmt.Sprint(err))
			if !ok || status != c.status || loc != c.location {
				t.Fatalf("got %d at %q (%s), want %d at %q", status, loc, msg, c.status, c.location)
			}
		})
	}
}

// Issue 22 item 1: unknown and case-variant names are refused when
// decoding into a request type, at their location.
func TestDecodeRefusesUnknownAndCaseVariantNames(t *testing.T) {
	type wagers struct {
		Ante int64 `json:"ante"`
	}
	type position struct {
		Wagers wagers `json:"wagers"`
	}
	type round struct {
		Positions []position `json:"positions"`
	}
	for body, want := range map[string]string{
		`{"positions":[{},{},{"wagers":{"Ante":5}}]}`: "body.positions[2].wagers.Ante",
		`{"Positions":[]}`:                            "body.Positions",
		`{"positions":[{"wagers":{"bet":5}}]}`:        "body.positions[0].wagers.bet",
	} {
		var r round
		err := jsonFormat.Unmarshal([]byte(body), &r)
		status, loc, _, ok := locatedDetail(fmt.Sprint(err))
		if !ok || status != 422 || loc != want {
			t.Errorf("%s: %v, want 422 at %s", body, err, want)
		}
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

// FuzzDecode checks the codec's promise against encoding/json (v1) as an
// oracle: a document it accepts is valid JSON and valid UTF-8, names no
// key twice in one object, and decodes to the value encoding/json
// decodes; a document it refuses is refused at a location in the body,
// 400 exactly when encoding/json calls it invalid JSON, and 422 (JSON this
// API refuses: a name twice, invalid UTF-8, a number out of range) naming
// a field whenever the document is an object or an array. make fuzz and
// make test run it for a bounded time.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":1,"A":2}`, `{"a":1,"a":2}`, `[{"x":"\u00e9"}]`, "{\"a\":\"\xff\"}", `{"a":"\ud800"}`,
		`{"a":{"b":[1,2,{"c":null}]}}`, `-0.5e-3`, `"\ud83d\ude00"`, `{"a":[1e999]}`, `{"\u0061":1,"a":2}`, `{"2":[{"x":1,"x":1}]}`, `{"a.b":1,"x":2}`, `[{"y":{"q[0]":1}}]`, `{"a":"b.c"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameAsLibrary(t, b)
		var got any
		err := jsonFormat.Unmarshal(b, &got)
		if err != nil {
			status, loc, msg, ok := locatedDetail(err.Error())
			if !ok || !strings.HasPrefix(loc, "body") || msg == "" {
				t.Fatalf("refused without a location: %q", err)
			}
			switch {
			case status == 400 && json.Valid(b):
				t.Fatalf("400 for what encoding/json calls valid: %q (%s)", b, msg)
			case status == 422 && !json.Valid(b):
				t.Fatalf("422 for what encoding/json calls invalid: %q (%s)", b, msg)
			case status != 400 && status != 422:
				t.Fatalf("status %d: %q", status, b)
			}
			if t0 := bytes.TrimLeft(b, " \t\r\n"); status == 422 && len(t0) > 0 && (t0[0] == '{' || t0[0] == '[') && loc == "body" {
				t.Fatalf("422 naming no field: %q (%s)", b, msg)
			}
			return
		}
		if !json.Valid(b) || !utf8.Valid(b) {
			t.Fatalf("accepted invalid JSON or UTF-8: %q", b)
		}
		if dup, ok := duplicateName(b); ok {
			t.Fatalf("accepted the name %q twice in one object: %q", dup, b)
		}
		if !namesLocatable(got) { // the scan of the document found none where the value holds one
			t.Fatalf("accepted a name a location cannot write: %q", b)
		}
		var want any
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("accepted, encoding/json fails: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded %#v, encoding/json %#v", got, want)
		}
	})
}

// duplicateName reports a name given twice in one object of a valid
// document, read with encoding/json's tokenizer.
func duplicateName(b []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		object bool
		names  map[string]bool
		key    bool // the next token in this object is a name
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if name, ok := tok.(string); ok && top != nil && top.object && top.key {
			if top.names[name] {
				return name, true
			}
			top.names[name] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, names: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true
		}
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
