package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
)

// settleBodies are the settle request bodies the fast-path tests start
// from: the spec's examples, the benchmark's round and the events' bodies.
func settleBodies(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, r := range []SettleRequest{exampleSettleSSP(), exampleSettleTCP()} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	out = append(out, loopbackRequest().body)
	files, _ := filepath.Glob("../../events/settle/settle-*.json")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ev struct {
			Body   string `json:"body"`
			Base64 bool   `json:"isBase64Encoded"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		if !ev.Base64 && ev.Body != "" {
			out = append(out, []byte(ev.Body))
		}
	}
	// Every optional field, limits included, in a schema-valid request (its
	// settlement is irrelevant here).
	out = append(out, []byte(` { "ruleset" : "mbs-ssp-v4", "roundId": "", "currency": "SGD", "dealer": "As Kd 7h 4c 2s",
		"community": "", "limits": {"ante": {"min": 500, "max": 500000}, "bet": {}}, "progressiveUnit": 0,
		"magicCard": "As", "luckyPlayerSeat": 0, "luckyDealer": false,
		"positions": [{"seat": 7, "cards": "", "wagers": {}, "folded": true, "exposed": false, "absent": false,
		"progressiveMultiplier": 5}]}`+"\n\t\r "))
	if len(out) < 6 {
		t.Fatalf("only %d bodies: events/settle missing?", len(out))
	}
	return out
}

// settleSchemaCheck returns a function validating a body as huma's path
// does (generic decode, then the SettleRequest schema), and decoding it
// into a SettleRequest as huma does next.
func settleSchemaCheck(t *testing.T) func([]byte) (*SettleRequest, []error) {
	t.Helper()
	api := humago.New(http.NewServeMux(), Config())
	registerSettleOp(api, Deps{}, nil)
	op := api.OpenAPI().Paths["/v1/rounds/settle"].Post
	schema := op.RequestBody.Content["application/json"].Schema
	reg := api.OpenAPI().Components.Schemas
	return func(body []byte) (*SettleRequest, []error) {
		var parsed any
		if err := json.Unmarshal(body, &parsed); err != nil {
			return nil, []error{err}
		}
		pb := huma.NewPathBuffer([]byte{}, 0)
		pb.Push("body")
		res := &huma.ValidateResult{}
		huma.Validate(reg, schema, pb, huma.ModeWriteToServer, parsed, res)
		if len(res.Errors) > 0 {
			return nil, res.Errors
		}
		var r SettleRequest
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, []error{err}
		}
		return &r, nil
	}
}

// mutations of b: each byte deleted, replaced and preceded by bytes that
// break JSON or the schema in a way the fast decoder must notice.
func mutations(b []byte) [][]byte {
	const alphabet = "\"\\-.e0179}],:{[ nA\x01\xc3"
	var out [][]byte
	for i := range b {
		out = append(out, append(append([]byte{}, b[:i]...), b[i+1:]...))
		for _, c := range []byte(alphabet) {
			m := append([]byte{}, b...)
			m[i] = c
			out = append(out, m)
			out = append(out, append(append(append([]byte{}, b[:i]...), c), b[i:]...))
		}
	}
	return out
}

// Whatever the fast decoder accepts, huma's path accepts too (no
// validation error: every schema constraint holds, no unknown field) and
// decodes to exactly the same SettleRequest.
func TestFastDecodeNeverAcceptsWhatHumaRefuses(t *testing.T) {
	check := settleSchemaCheck(t)
	accepted, refused := 0, 0
	for _, base := range settleBodies(t) {
		var r SettleRequest
		if !decodeSettleFast(base, &r) {
			t.Errorf("fast path refuses a plain valid body: %s", base)
		}
		for _, b := range append(mutations(base), base) {
			var fast SettleRequest
			if !decodeSettleFast(b, &fast) {
				refused++
				continue
			}
			accepted++
			want, errs := check(b)
			if len(errs) > 0 {
				t.Fatalf("fast path accepts what huma refuses (%v): %s", errs, b)
			}
			if !reflect.DeepEqual(&fast, want) {
				t.Fatalf("fast path decodes\n%s\nas %+v, huma as %+v", b, fast, *want)
			}
		}
	}
	if accepted < 100 || refused < 1000 {
		t.Errorf("accepted %d, refused %d: the mutations no longer exercise both sides", accepted, refused)
	}
}

// Bodies the fast decoder must leave to huma: each is refused by huma (and
// so must be named by its error) or decoded differently by encoding/json.
func TestFastDecodeLeavesTheseToHuma(t *testing.T) {
	const ok = `"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s"`
	pos := `{"seat":1,"cards":"Qh Qd Qs 9c 9d","wagers":{"ante":1000}}`
	for _, b := range []string{
		`{` + ok + `,"positions":[` + pos + `]}x`,
		`{` + ok + `,"positions":[` + pos + `],"Ruleset":"mbs-ssp-v4"}`, // encoding/json matches keys case-insensitively
		`{` + ok + `,"positions":[` + pos + `],"extra":1}`,
		`{` + ok + `,"positions":[` + pos + `],"ruleset":"mbs-ssp-v4"}`, // duplicate
		`{` + ok + `,"positions":[{"seat":1,"wagers":{"ante":1000},"wagers":{"bet":1}}]}`,
		`{` + ok + `,"positions":[{"seat":1,"wagers":{"ante":1000,"ante":5}}]}`,
		`{` + ok + `,"positions":[{"seat":1,"wagers":{"ante":1000}}],"limits":{"ante":{"min":1,"min":2}}}`,
		`{` + ok + `,"positions":[{"seat":1,"wagers":{"ante":1e3}}]}`,
		`{` + ok + `,"positions":[{"seat":1,"wagers":{"ante":1000.0}}]}`,
		`{` + ok + `,"positions":[{"seat":1,"wagers":{"ante":-1000}}]}`,
		`{` + ok + `,"positions":[{"seat":1,"wagers":{"ante":01000}}]}`,
		`{` + ok + `,"positions":[{"seat":1,"wagers":{"ante":9999999999999999999}}]}`,
		`{` + ok + `,"positions":[{"seat":1,"wagers":{"ante":null}}]}`,
		`{` + ok + `,"positions":[{"seat":0,"wagers":{}}]}`,
		`{` + ok + `,"positions":[{"seat":8,"wagers":{}}]}`,
		`{` + ok + `,"positions":[{"wagers":{}}]}`,
		`{` + ok + `,"positions":[{"seat":1}]}`,
		`{` + ok + `,"positions":[{"seat":1,"wagers":{},"progressiveMultiplier":6}]}`,
		`{` + ok + `,"positions":[]}`,
		`{` + ok + `,"positions":null}`,
		`{` + ok + `,"positions":[` + strings.Repeat(pos+",", 7) + pos + `]}`,
		`{` + ok + `}`,
		`{"roundId":"r","dealer":"x","positions":[` + pos + `]}`,
		`{"ruleset":"mbs-megalink-ssp-v7","roundId":"r","dealer":"x","positions":[` + pos + `]}`,
		`{` + ok + `,"currency":"SGDX","positions":[` + pos + `]}`,
		`{` + ok + `,"magicCard":"123456789","positions":[` + pos + `]}`,
		`{` + ok + `,"luckyPlayerSeat":8,"positions":[` + pos + `]}`,
		`{` + ok + `,"luckyDealer":null,"positions":[` + pos + `]}`,
		`{` + ok + `,"luckyDealer":truex,"positions":[` + pos + `]}`,
		`{` + ok + `,"roundId":"` + strings.Repeat("x", 129) + `","positions":[` + pos + `]}`,
		`{"ruleset":"mbs-megalink-ssp-v6","roundId":"r\u0041","dealer":"x","positions":[` + pos + `]}`,
		`{"ruleset":"mbs-megalink-ssp-v6","roundId":"r\"","dealer":"x","positions":[` + pos + `]}`,
		`{"ruleset":"mbs-megalink-ssp-v6","roundId":"é","dealer":"x","positions":[` + pos + `]}`,
		"\ufeff{" + ok + `,"positions":[` + pos + `]}`,
		`[{` + ok + `,"positions":[` + pos + `]}]`,
		``,
		`{` + ok + `,"positions":[` + pos + `]`,
	} {
		var r SettleRequest
		if decodeSettleFast([]byte(b), &r) {
			t.Errorf("fast path accepts %s", b)
		}
	}
}

// settleHandlers returns the settle group served with and without the fast
// path, each behind the shared middleware, with a fixed request id, and
// the count of requests the fast path handed to huma; and both without the
// middleware (the fast path then reads the body itself and replays it).
func settleHandlers() (fast, slow, fastBare, slowBare http.Handler, handedOn *int) {
	deps := Deps{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), NewRequestID: func() string { return "req-1" }}
	fastMux, slowMux := http.NewServeMux(), http.NewServeMux()
	fastAPI := humago.New(fastMux, Config())
	handedOn = new(int)
	fastMW := settleFastPath()
	registerSettleOp(fastAPI, deps, func(ctx huma.Context, next func(huma.Context)) {
		fastMW(ctx, func(ctx huma.Context) { *handedOn++; next(ctx) })
	})
	slowAPI := humago.New(slowMux, Config())
	registerSettleOp(slowAPI, deps, nil)
	return Middleware(deps, fastMux), Middleware(deps, slowMux), fastMux, slowMux, handedOn
}

// Both paths answer every request byte for byte the same: status, headers
// and body, for valid rounds, schema errors, settlement errors, malformed
// JSON, other Content-Types and Accepts.
func TestFastPathAnswersAsHuma(t *testing.T) {
	fast, slow, fastBare, slowBare, handedOn := settleHandlers()
	bodies := settleBodies(t)
	valid := string(bodies[0])
	bodies = append(bodies,
		[]byte(strings.Replace(valid, `"seat":1`, `"seat":9`, 1)),
		[]byte(strings.Replace(valid, `"ruleset"`, `"Ruleset"`, 1)),
		[]byte(strings.Replace(valid, `"ruleset"`, `"bogus":1,"ruleset"`, 1)),
		[]byte(strings.Replace(valid, `"Qh Qd Qs 9c 9d"`, `"Qh Qd Qs 9c 9x"`, 1)), // settle refuses the card
		[]byte(strings.Replace(valid, `"progressiveUnit":100,`, ``, 1)),           // R22: the unit is required
		[]byte(strings.Replace(valid, `"ante":1000`, `"ante":-1000`, 1)),
		[]byte(strings.Replace(valid, `"ante":1000`, `"ante":1e3`, 1)),
		// MBS 5.11 absent without cards (settled); TCP Pair Plus only
		// folded and two bad limits (refused, one answer).
		[]byte(`{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"Ad Kc 9h 4s 5d","positions":[{"seat":1,"absent":true,"wagers":{"ante":100}}]}`),
		[]byte(`{"ruleset":"mbs-megalink-tcp-v6","roundId":"r","dealer":"Qs 7d 3c","community":"2c 9d","positions":[{"seat":1,"cards":"Ks Kd 4h","folded":true,"wagers":{"pairPlus":500}}]}`),
		[]byte(`{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s","limits":{"bet":{"min":1500,"max":500},"ante":{"min":1000,"max":500}},"positions":[{"seat":1,"cards":"Qh Qd Qs 9c 9d","wagers":{"ante":1000}}]}`),
		[]byte(valid[:len(valid)-1]),
		[]byte(`null`),
		nil,
	)
	type variant struct{ ct, accept string }
	served, fastServed := 0, 0
	for _, b := range bodies {
		for _, v := range []variant{{"application/json", ""}, {"application/json", "application/json"},
			{"application/json", "*/*"}, {"application/json; charset=utf-8", ""}, {"", ""}, {"text/plain", ""},
			{"application/json", "application/xml"}} {
			answer := func(h http.Handler) *httptest.ResponseRecorder {
				req := httptest.NewRequest(http.MethodPost, "/v1/rounds/settle", bytes.NewReader(b))
				if v.ct != "" {
					req.Header.Set("Content-Type", v.ct)
				}
				if v.accept != "" {
					req.Header.Set("Accept", v.accept)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				return w
			}
			before := *handedOn
			f, s := answer(fast), answer(slow)
			if fb, sb := answer(fastBare), answer(slowBare); fb.Code != sb.Code || !bytes.Equal(fb.Body.Bytes(), sb.Body.Bytes()) {
				t.Errorf("without the middleware, %+v %s:\nfast %d %s\nhuma %d %s", v, b, fb.Code, fb.Body, sb.Code, sb.Body)
			}
			var plain SettleRequest
			if fastOne := v.ct == "application/json" && v.accept == "" && decodeSettleFast(b, &plain) && f.Code == http.StatusOK; fastOne {
				fastServed++
				if *handedOn != before {
					t.Errorf("a valid round went down huma's path: %s", b)
				}
			}
			// The fast path sends its answer's length, which huma leaves to
			// net/http (chunked beyond 2 KiB): the only difference allowed.
			if n := f.Header().Get("Content-Length"); n != "" {
				if n != strconv.Itoa(f.Body.Len()) {
					t.Errorf("Content-Length %s, body %d bytes", n, f.Body.Len())
				}
				if s.Header().Get("Content-Length") == "" {
					f.Header().Del("Content-Length")
				}
			}
			if f.Code != s.Code || !reflect.DeepEqual(f.Header(), s.Header()) || !bytes.Equal(f.Body.Bytes(), s.Body.Bytes()) {
				t.Errorf("%+v %s:\nfast %d %v %s\nhuma %d %v %s", v, b, f.Code, f.Header(), f.Body, s.Code, s.Header(), s.Body)
			}
			if f.Code == http.StatusOK {
				served++
			}
		}
	}
	if served < 10 || fastServed < 6 {
		t.Errorf("only %d requests answered 200, %d by the fast path", served, fastServed)
	}
}
