package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/danielgtaylor/huma/v2"
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

// The local server (and every function) serves the spec and a docs page.
func TestServesSpecAndDocs(t *testing.T) {
	h, _ := testServer(t)
	for path, want := range map[string]string{"/openapi.yaml": "openapi: 3.1.0", "/openapi-3.0.yaml": "openapi: 3.0.3", "/docs": "<html"} {
		w := do(t, h, "GET", path, "", nil)
		if w.Code != 200 || !bytes.Contains(w.Body.Bytes(), []byte(want)) {
			t.Errorf("GET %s: status %d, body lacks %q", path, w.Code, want)
		}
	}
}
