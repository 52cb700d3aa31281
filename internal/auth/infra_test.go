package auth

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/principal"
)

var update = flag.Bool("update", false, "rewrite infra/access.json from Routes")

// infraAccess is what the stack's IAM roles may invoke, role by role:
// every /v1 route its role may call, the stateless ones included (in the
// stack they need an authenticated caller, and each of the stack's roles
// is one). Routes of other work not yet registered are included: a policy
// for a route that does not exist yet allows nothing.
func infraAccess() ([]byte, error) {
	out := map[principal.Role][]string{}
	for _, r := range principal.Roles {
		out[r] = []string{}
	}
	for route, rule := range Routes {
		if _, path, _ := strings.Cut(route, " "); !strings.HasPrefix(path, "/v1/") && path != "/v1" {
			continue
		}
		for _, r := range principal.Roles {
			if ((rule.Stateless || rule.AnyPrincipal) && !slices.Contains(Narrow, r)) || slices.Contains(rule.Roles, r) || rule.Public {
				out[r] = append(out[r], route)
			}
		}
	}
	for r := range out {
		slices.Sort(out[r])
	}
	b, err := json.MarshalIndent(map[string]any{
		"_comment": "Generated from internal/auth.Routes by `go test ./internal/auth -run TestInfraAccessFile -update`; the stack gives each role's IAM role execute-api:Invoke on exactly these routes.",
		"roles":    out,
	}, "", "  ")
	return append(b, '\n'), err
}

// The stack's IAM policies come from infra/access.json (infra is its own
// module and cannot import this package): it must say what Routes says.
func TestInfraAccessFile(t *testing.T) {
	want, err := infraAccess()
	if err != nil {
		t.Fatal(err)
	}
	const path = "../../infra/access.json"
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from auth.Routes: run go test ./internal/auth -run TestInfraAccessFile -update", path)
	}
}
