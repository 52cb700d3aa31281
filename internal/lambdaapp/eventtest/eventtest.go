// Package eventtest replays the sample API Gateway events of events/<function>
// against a function's handler, the same value main hands to lambda.Start,
// and checks each answer against events/<function>/expected.json.
//
// expected.json maps each event file to {"status": N, "body": {...}}; the
// body is matched as a subset: every key given must be in the answer with
// the same value (objects recursively, arrays element by element, the
// answer's array at least as long).
package eventtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/tablesettle/tablesettle/internal/lambdaapp"
)

// Expectation is one entry of expected.json.
type Expectation struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// Run feeds every event of dir to h, in file-name order (so a directory
// can play a sequence: create, then use), and checks the answers.
func Run(t *testing.T, h lambdaapp.Handler, dir string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if os.IsNotExist(err) {
		t.Skipf("no sample events in %s yet", dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]Expectation
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("%s/expected.json: %v", dir, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		if name == "expected.json" {
			continue
		}
		seen[name] = true
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			exp, ok := want[name]
			if !ok {
				t.Fatalf("%s has no entry in expected.json", name)
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var ev events.APIGatewayV2HTTPRequest
			if err := json.Unmarshal(b, &ev); err != nil {
				t.Fatalf("not an API Gateway HTTP API event: %v", err)
			}
			if ev.Version != "2.0" || ev.RequestContext.RequestID == "" || ev.RequestContext.HTTP.Method == "" {
				t.Fatalf("event lacks version 2.0, requestContext.requestId or requestContext.http.method")
			}
			resp, err := h(context.Background(), ev)
			if err != nil {
				t.Fatalf("handler returned an error (API Gateway would answer an opaque 500): %v", err)
			}
			if resp.StatusCode != exp.Status {
				t.Errorf("status %d, want %d; body %s", resp.StatusCode, exp.Status, resp.Body)
			}
			if got := header(resp, "X-Request-Id"); got != ev.RequestContext.RequestID {
				t.Errorf("X-Request-Id %q, want API Gateway's requestId %q", got, ev.RequestContext.RequestID)
			}
			ct := header(resp, "Content-Type")
			if resp.StatusCode >= 400 && ct != "application/problem+json" {
				t.Errorf("Content-Type %q for an error, want application/problem+json", ct)
			}
			if resp.StatusCode < 400 && !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if len(exp.Body) > 0 {
				var gotBody, wantBody any
				if err := json.Unmarshal([]byte(resp.Body), &gotBody); err != nil {
					t.Fatalf("body is not JSON: %v: %s", err, resp.Body)
				}
				if err := json.Unmarshal(exp.Body, &wantBody); err != nil {
					t.Fatal(err)
				}
				if msg := Subset(wantBody, gotBody, "body"); msg != "" {
					t.Errorf("%s\nbody: %s", msg, resp.Body)
				}
			}
		})
	}
	var missing []string
	for name := range want {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("expected.json names events that do not exist: %v", missing)
	}
}

func header(resp events.APIGatewayV2HTTPResponse, name string) string {
	for k, v := range resp.Headers {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// Subset returns "" when every value in want is in got, else where they
// first differ.
func Subset(want, got any, at string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %v", at, got)
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s.%s: missing", at, k)
			}
			if msg := Subset(w[k], gv, at+"."+k); msg != "" {
				return msg
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) < len(w) {
			return fmt.Sprintf("%s: want an array of at least %d, got %v", at, len(w), got)
		}
		for i := range w {
			if msg := Subset(w[i], g[i], fmt.Sprintf("%s[%d]", at, i)); msg != "" {
				return msg
			}
		}
		return ""
	default:
		if fmt.Sprint(want) != fmt.Sprint(got) {
			return fmt.Sprintf("%s: got %v, want %v", at, got, want)
		}
		return ""
	}
}

// IAMPrincipals returns dir/iam-principals.json: the mapping of the sample
// events' IAM roles to principals (lambdaapp.IAMPrincipalsEnv's value).
func IAMPrincipals(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "iam-principals.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
