package lambdaapp

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/danielgtaylor/huma/v2"
	"golang.org/x/mod/sumdb/note"

	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/localledger"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/ruleset/rulesettest"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// The golden test (issue 12, "behaviour does not change"): every committed
// sample event of events/<function> (all four functions, through the same
// Lambda handler main builds) and every request example of the spec (through
// the http.Handler, once per Accept a client sends: none,
// application/json, */*) is replayed, and each answer (status, every
// response header, body) is compared byte for byte with the answer recorded
// in testdata/golden/*.json.
//
// One thing is normalised: a pool commit id ("commit":"<32 hex>") is
// random per write, so each is replaced by <commit-N>, numbered in order of
// first appearance within one golden file (equal ids stay equal). Nothing
// else varies, and Content-Length is left out (the body, compared byte for
// byte, fixes it; net/http writes it on the wire whether or not the handler
// sets it): the request id is the event's requestId or a fixed
// NewRequestID, the pools run on the embedded SQLite store in a temporary directory with
// a fixed clock and seed. The pools events run on the SQLite store instead of DynamoDB (the
// function's own store, whose events test is in functions/pools): the HTTP
// answers are what this test pins, and both stores pass one contract suite.
//
// An answer may change only where an issue demands it; then rerun with
// -update-golden and say in the commit which answers changed and why.
var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden from the current answers")

// goldenAnswer is one recorded answer.
type goldenAnswer struct {
	Name    string            `json:"name"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

var goldenClock = func() time.Time { return time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC) }

// goldenDeps are the golden hosts' dependencies, serving the rulesets of
// cat.
func goldenDeps(t *testing.T, cat ruleset.Catalogue) httpapi.Deps {
	st, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svc := pools.NewServiceIn(cat, st, goldenClock, 1)
	svc.Signing = goldenSigning(t)
	return httpapi.Deps{
		Logger:       Logger(io.Discard, "error"),
		NewRequestID: func() string { return "golden-request" },
		Pools:        svc,
		Catalogue:    cat,
	}
}

// goldenSigning is a checkpoint signing key made from a fixed seed (an
// Ed25519 signature is deterministic: the golden notes repeat).
func goldenSigning(t *testing.T) *pools.Signing {
	skey, _, err := note.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{7}, 64)), "tablesettle-golden")
	if err != nil {
		t.Fatal(err)
	}
	g, err := localledger.FromKeys(skey)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGoldenEvents(t *testing.T) {
	goldenEvents(t, ruleset.Standard(), filepath.Join("..", "..", "events"), "events-")
}

// TestGoldenEventsLedger: issue 34 items 2 and 3 through the pools
// function's Lambda handler, with IAM identities: a signed checkpoint,
// the keys without credentials, a table's proof of its own round and its
// refusal for an entry of no table of its own, a consistency proof, and
// 404/422 for an unknown pool, a size past the end, from after to and a
// seq that is not a number. The events are testdata/ledger/pools/*.json
// (on the SQLite store: the DynamoDB store's log and the function's KMS
// signer come with their own work; events/pools has the keys' event).
func TestGoldenEventsLedger(t *testing.T) {
	goldenEvents(t, ruleset.Standard(), filepath.Join("testdata", "ledger"), "events-ledger-")
}

// TestGoldenEventsSixth: the sixth, test-only ruleset
// (internal/ruleset/rulesettest) through the Lambda functions as the
// stack deploys them, built with it in their catalogue: its ruleset and
// document, a settle citing its own 4.1.2, a pool of it whose majors are
// held (its 3.15, ruling R7), a retry, and a refusal. The events are
// testdata/sixth/<function>/*.json.
func TestGoldenEventsSixth(t *testing.T) {
	cat, err := rulesettest.SixthCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	goldenEvents(t, cat, filepath.Join("testdata", "sixth"), "events-sixth-")
}

// goldenEvents replays the events of dir/<function> through each
// function's handler serving cat, against the golden files prefix<function>.
func goldenEvents(t *testing.T, cat ruleset.Catalogue, root, prefix string) {
	for _, g := range httpapi.AllGroups {
		t.Run(string(g), func(t *testing.T) {
			deps := goldenDeps(t, cat)
			if g == httpapi.GroupPools {
				// The pools events carry IAM identities, mapped as the
				// stack maps its roles: the ledger records the principal
				// (issue 16), so the events are authenticated as in the
				// function.
				m, err := os.ReadFile(filepath.Join("..", "..", "events", "iam-principals.json"))
				if err != nil {
					t.Fatal(err)
				}
				deps.Access = IAMAccess(string(m))
			}
			h := New(deps, g)
			dir := filepath.Join(root, string(g))
			files, err := filepath.Glob(filepath.Join(dir, "*.json"))
			if err != nil {
				t.Fatal(err)
			}
			if len(files) == 0 {
				return // no events for this function
			}
			sort.Strings(files)
			var got []goldenAnswer
			for _, f := range files {
				if filepath.Base(f) == "expected.json" {
					continue
				}
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				var ev events.APIGatewayV2HTTPRequest
				if err := json.Unmarshal(b, &ev); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				resp, err := h(context.Background(), ev)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				hdr := map[string]string{}
				for k, v := range resp.Headers {
					hdr[http.CanonicalHeaderKey(k)] = v
				}
				for k, v := range resp.MultiValueHeaders {
					hdr[http.CanonicalHeaderKey(k)] = strings.Join(v, ", ")
				}
				got = append(got, goldenAnswer{Name: filepath.Base(f), Status: resp.StatusCode, Headers: hdr, Body: resp.Body})
			}
			compareGolden(t, prefix+string(g), got)
		})
	}
}

func TestGoldenSpecExamples(t *testing.T) {
	compareGolden(t, "spec-examples", specExamples(t, ruleset.Standard()))
}

// TestGoldenSpecExamplesSixth: a host with the sixth, test-only ruleset in
// its catalogue answers every request example of the spec byte for byte
// as the standard host does (the same golden file): a ruleset added as
// data changes no other ruleset's answer.
func TestGoldenSpecExamplesSixth(t *testing.T) {
	cat, err := rulesettest.SixthCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	if *updateGolden {
		t.Skip("the standard host records spec-examples")
	}
	compareGolden(t, "spec-examples", specExamples(t, cat))
}

// specExamples replays every request example of the spec through a host
// serving cat (see the package comment of this test).
func specExamples(t *testing.T, cat ruleset.Catalogue) []goldenAnswer {
	served, api := httpapi.New(goldenDeps(t, cat))
	// Deps.Access is nil: the caller is a principal holding every role,
	// bound to the examples' table (the ledger records it, issue 16).
	caller := &principal.Principal{ID: "golden", Roles: principal.Roles, Tables: []string{"T12"}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.ServeHTTP(w, r.WithContext(principal.NewContext(r.Context(), caller)))
	})
	type call struct {
		method, path, name string
		body               []byte
	}
	var calls []call
	for path, item := range api.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Post, item.Put, item.Patch} {
			if op == nil || op.RequestBody == nil {
				continue
			}
			mt := op.RequestBody.Content["application/json"]
			add := func(name string, v any) {
				b, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				calls = append(calls, call{op.Method, path, name, b})
			}
			if mt.Example != nil {
				add("example", mt.Example)
			}
			for k, ex := range mt.Examples {
				add(k, ex.Value)
			}
		}
	}
	// The pool must exist before its other operations: create first.
	sort.Slice(calls, func(i, j int) bool {
		ki, kj := calls[i].path != "/v1/pools", calls[j].path != "/v1/pools"
		if ki != kj {
			return !ki
		}
		return calls[i].method+calls[i].path+calls[i].name < calls[j].method+calls[j].path+calls[j].name
	})
	poolID := ""
	var got []goldenAnswer
	for _, c := range calls {
		for _, accept := range []string{"", "application/json", "*/*"} {
			path := strings.ReplaceAll(c.path, "{id}", poolID)
			req := httptest.NewRequest(c.method, path, bytes.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			if accept != "" {
				req.Header.Set("Accept", accept)
			}
			// One key per example: the second and third Accept replay it.
			req.Header.Set("Idempotency-Key", fmt.Sprintf("golden-%s-%s", c.method, c.name))
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			hdr := map[string]string{}
			for k, v := range w.Result().Header {
				hdr[k] = strings.Join(v, ", ")
			}
			got = append(got, goldenAnswer{Name: fmt.Sprintf("%s %s %s accept=%q", c.method, c.path, c.name, accept),
				Status: w.Code, Headers: hdr, Body: w.Body.String()})
			if c.path == "/v1/pools" && c.method == http.MethodPost && poolID == "" {
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
	return got
}

// commitID is a pool commit id in a body or header.
var commitID = regexp.MustCompile(`\b[0-9a-f]{32}\b`)

// proofHashes is a proof's list of hashes (issue 34): hashes of entries
// that carry a commit id differ from run to run like the id, so each is
// replaced by <hash-N> (equal hashes stay equal); that the proofs verify
// is the contract suite's to check (poolstest.CheckLog).
var (
	proofHashes = regexp.MustCompile(`"hashes":\[[^\]]*\]`)
	base64Hash  = regexp.MustCompile(`"[A-Za-z0-9+/]{43}="`)
)

// normalise replaces commit ids by <commit-N> (see the package comment of
// this test).
func normalise(answers []goldenAnswer) {
	seen := map[string]string{}
	repl := func(id string) string {
		if r, ok := seen[id]; ok {
			return r
		}
		seen[id] = fmt.Sprintf("<commit-%d>", len(seen)+1)
		return seen[id]
	}
	hashes := map[string]string{}
	hash := func(h string) string {
		if r, ok := hashes[h]; ok {
			return r
		}
		hashes[h] = fmt.Sprintf(`"<hash-%d>"`, len(hashes)+1)
		return hashes[h]
	}
	for i := range answers {
		delete(answers[i].Headers, "Content-Length")
		answers[i].Body = proofHashes.ReplaceAllStringFunc(answers[i].Body, func(list string) string {
			return base64Hash.ReplaceAllStringFunc(list, hash)
		})
		answers[i].Body = commitID.ReplaceAllStringFunc(answers[i].Body, repl)
		for k, v := range answers[i].Headers {
			answers[i].Headers[k] = commitID.ReplaceAllStringFunc(v, repl)
		}
	}
}

func compareGolden(t *testing.T, name string, got []goldenAnswer) {
	t.Helper()
	normalise(got)
	path := filepath.Join("testdata", "golden", name+".json")
	if *updateGolden {
		b, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (record it with go test -run Golden -update-golden)", err)
	}
	var want []goldenAnswer
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("%d answers, golden has %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		if g.Name != w.Name {
			t.Errorf("answer %d is %q, golden %q", i, g.Name, w.Name)
			continue
		}
		if g.Status != w.Status {
			t.Errorf("%s: status %d, golden %d", g.Name, g.Status, w.Status)
		}
		if g.Body != w.Body {
			t.Errorf("%s: body differs\n got: %s\nwant: %s", g.Name, g.Body, w.Body)
		}
		if fmt.Sprint(g.Headers) != fmt.Sprint(w.Headers) {
			t.Errorf("%s: headers %v, golden %v", g.Name, g.Headers, w.Headers)
		}
	}
}
