package auth

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/principal"
)

func TestTokensLookup(t *testing.T) {
	entries, tokA, err := Add(nil, "cage-1", []principal.Role{principal.Cage}, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, tokB, err := Add(entries, "table-12", []principal.Role{principal.Table}, []string{"T12"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tokA, TokenPrefix) || len(tokA) != len(TokenPrefix)+43 {
		t.Errorf("token %q: want %s and 43 base64url characters (256 bits)", tokA, TokenPrefix)
	}
	for _, e := range entries {
		if strings.Contains(e.TokenSHA256, tokA) || strings.Contains(e.TokenSHA256, tokB) || len(e.TokenSHA256) != 64 {
			t.Errorf("entry %s keeps %q: want the token's SHA-256 only", e.ID, e.TokenSHA256)
		}
	}
	ts := NewTokens(entries)
	for _, tc := range []struct {
		name, token, wantID string
	}{
		{"first", tokA, "cage-1"},
		{"second", tokB, "table-12"},
		{"unknown", "tst_unknown", ""},
		{"prefix of a token", tokA[:len(tokA)-1], ""},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ts.Lookup(tc.token)
			if tc.wantID == "" {
				if err != ErrBadToken || p != nil {
					t.Fatalf("got %v, %v; want ErrBadToken", p, err)
				}
				return
			}
			if err != nil || p.ID != tc.wantID {
				t.Fatalf("got %v, %v; want %s", p, err, tc.wantID)
			}
		})
	}
	if p, _ := ts.Lookup(tokB); !p.BoundTo("T12") || p.BoundTo("T13") || !p.Has(principal.Table) {
		t.Errorf("table principal %+v: want role table bound to T12 only", p)
	}
}

func TestHashToken(t *testing.T) {
	// SHA-256 of "test" (FIPS 180-4 test vectors are for "abc"; this one is
	// `printf test | sha256sum`).
	if got := HashToken("test"); got != "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" {
		t.Errorf("HashToken(test) = %s", got)
	}
}

func TestValidate(t *testing.T) {
	h := HashToken("a")
	for _, tc := range []struct {
		name    string
		entries []Entry
		want    string
	}{
		{"no roles", []Entry{{ID: "x", TokenSHA256: h}}, "roles: at least one"},
		{"unknown role", []Entry{{ID: "x", Roles: []principal.Role{"root"}, TokenSHA256: h}}, `"root" is not one of`},
		{"table without tables", []Entry{{ID: "x", Roles: []principal.Role{principal.Table}, TokenSHA256: h}}, "needs the table ids"},
		{"bad table id", []Entry{{ID: "x", Roles: []principal.Role{principal.Table}, Tables: []string{"T 1"}, TokenSHA256: h}}, "not a table id"},
		{"plain token instead of a hash", []Entry{{ID: "x", Roles: []principal.Role{principal.Cage}, TokenSHA256: "tst_abc"}}, "64 hex digits"},
		{"duplicate id", []Entry{{ID: "x", Roles: []principal.Role{principal.Cage}, TokenSHA256: h}, {ID: "x", Roles: []principal.Role{principal.Cage}, TokenSHA256: HashToken("b")}}, "appears twice"},
		{"same token twice", []Entry{{ID: "x", Roles: []principal.Role{principal.Cage}, TokenSHA256: h}, {ID: "y", Roles: []principal.Role{principal.Cage}, TokenSHA256: h}}, "same token"},
		{"bad id", []Entry{{ID: "", Roles: []principal.Role{principal.Cage}, TokenSHA256: h}}, "id: 1-128"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(tc.entries)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestBootstrapAndReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "principals.json")
	tokens, err := Bootstrap(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tokens) != len(principal.Roles) {
		t.Fatalf("%d tokens, want one per role (%d)", len(tokens), len(principal.Roles))
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	raw, _ := os.ReadFile(path)
	for r, tok := range tokens {
		if strings.Contains(string(raw), tok) {
			t.Errorf("the file holds %s's token in plain text", r)
		}
	}
	entries, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ts := NewTokens(entries)
	for _, r := range principal.Roles {
		p, err := ts.Lookup(tokens[r])
		if err != nil || p.ID != "local-"+string(r) || !slices.Equal(p.Roles, []principal.Role{r}) {
			t.Errorf("%s: %+v, %v", r, p, err)
		}
	}
	if p, _ := ts.Lookup(tokens[principal.Table]); !slices.Equal(p.Tables, LocalTables) {
		t.Errorf("table principal bound to %v, want %v", p.Tables, LocalTables)
	}
	if err := os.WriteFile(path, []byte(`[{"id":"x","roles":["cage"],"tokenSha256":"`+HashToken("a")+`","token":"a"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("a file with an unknown field (a plain token) read: %v", err)
	}
}

func TestIAMPrincipal(t *testing.T) {
	m, err := ParseIAM(`[
	  {"arn": "arn:aws:iam::123456789012:role/tablesettle-dev-cage", "roles": ["cage"]},
	  {"arn": "arn:aws:iam::123456789012:role/floor/tablesettle-dev-table-T12", "roles": ["table"], "tables": ["T12"]},
	  {"arn": "arn:aws:iam::123456789012:user/alice", "roles": ["controller"]}
	]`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, arn string
		roles     []principal.Role
		tables    []string
	}{
		{"assumed role maps by role name", "arn:aws:sts::123456789012:assumed-role/tablesettle-dev-cage/jane", []principal.Role{principal.Cage}, nil},
		{"assumed role of a role with a path", "arn:aws:sts::123456789012:assumed-role/tablesettle-dev-table-T12/host-12", []principal.Role{principal.Table}, []string{"T12"}},
		{"the role ARN itself", "arn:aws:iam::123456789012:role/tablesettle-dev-cage", []principal.Role{principal.Cage}, nil},
		{"an IAM user", "arn:aws:iam::123456789012:user/alice", []principal.Role{principal.Controller}, nil},
		{"same role name, other account", "arn:aws:sts::210987654321:assumed-role/tablesettle-dev-cage/jane", nil, nil},
		{"role name prefix", "arn:aws:sts::123456789012:assumed-role/tablesettle-dev-cage2/jane", nil, nil},
		{"unmapped caller", "arn:aws:sts::123456789012:assumed-role/other/x", nil, nil},
		{"not an ARN", "jane", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := m.Principal(tc.arn)
			if p.ID != tc.arn {
				t.Errorf("id %q, want the caller's ARN %q", p.ID, tc.arn)
			}
			if !slices.Equal(p.Roles, tc.roles) || !slices.Equal(p.Tables, tc.tables) {
				t.Errorf("roles %v tables %v, want %v %v", p.Roles, p.Tables, tc.roles, tc.tables)
			}
		})
	}
}

func TestParseIAMRefuses(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not JSON", `{`, "JSON array"},
		{"assumed-role ARN as a key", `[{"arn":"arn:aws:sts::1:assumed-role/r","roles":["cage"]}]`, "arn: want"},
		{"twice", `[{"arn":"arn:aws:iam::1:role/r","roles":["cage"]},{"arn":"arn:aws:iam::1:role/p/r","roles":["admin"]}]`, "twice"},
		{"table without tables", `[{"arn":"arn:aws:iam::1:role/r","roles":["table"]}]`, "needs the table ids"},
		{"unknown field", `[{"arn":"arn:aws:iam::1:role/r","roles":["cage"],"role":"x"}]`, "unknown field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParseIAM(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	if m, err := ParseIAM(""); err != nil || len(m.Principal("arn:aws:iam::1:role/r").Roles) != 0 {
		t.Errorf("empty mapping: %v", err)
	}
}

// The designed access table (issue 16 item 1), written out by hand so that
// a change to Routes is a deliberate change to this test too.
func TestRoutesAsDesigned(t *testing.T) {
	const (
		T = principal.Table
		S = principal.Supervisor
		C = principal.Cage
		K = principal.Controller
		A = principal.Admin
		D = principal.Display
	)
	want := map[string][]principal.Role{
		"POST /v1/pools":                                        {A},
		"PATCH /v1/pools/{id}":                                  {A},
		"POST /v1/pools/{id}/adjustments":                       {A},
		"POST /v1/pools/{id}/rounds":                            {T},
		"GET /v1/pools/{id}":                                    {C, S, K, A},
		"GET /v1/pools/{id}/ledger":                             {C, S, K, A},
		"GET /v1/pools/{id}/hits":                               {C, S, K, A},
		"POST /v1/pools/{id}/release":                           {S, C},
		"GET /v1/pools/{id}/reconcile":                          {K},
		"GET /v1/pools/{id}/meters":                             {C, S, K, A},
		"POST /v1/pools/{id}/hits/{seq}/confirm":                {S},
		"POST /v1/pools/{id}/hits/{seq}/void":                   {S},
		"POST /v1/pools/{id}/hits/{seq}/paid":                   {C},
		"POST /v1/pools/{id}/rounds/{table}/{round}/correction": {S},
		// Dual control: the proposer withdraws, a controller approves.
		"GET /v1/pools/{id}/proposals":                      {C, S, K, A},
		"POST /v1/pools/{id}/proposals/{proposal}/approve":  {K},
		"POST /v1/pools/{id}/proposals/{proposal}/withdraw": {A, S},
		// The floor (issue 24): the sign reads its display only.
		"GET /v1/pools/{id}/display":         {C, S, K, A, D},
		"GET /v1/pools/{id}/report":          {C, S, K, A},
		"GET /v1/pools/{id}/hits/{seq}/slip": {C, S, K, A},
		// The verifiable ledger (issue 34): a table reads the proofs of its
		// own rounds' entries only (the operation checks the entry's table).
		"GET /v1/pools/{id}/checkpoint":         {C, S, K, A, T},
		"GET /v1/pools/{id}/ledger/{seq}/proof": {C, S, K, A, T},
		"GET /v1/pools/{id}/consistency":        {C, S, K, A, T},
	}
	statelessWant := []string{"GET /openapi.json", "GET /openapi.yaml", "GET /openapi-3.0.json", "GET /openapi-3.0.yaml",
		"GET /schemas/{schema}", "GET /docs", "GET /docs/app.js", "GET /docs/app.css", "GET /v1/rulesets", "GET /v1/rulesets/{id}", "POST /v1/hands/evaluate",
		"GET /v1/rulesets/{id}/analysis", "POST /v1/paytables/analyze", "POST /v1/rounds/settle",
		"GET /v1/rulesets/{id}/irregularities", "POST /v1/irregularities",
		"GET /v1/rulings", "GET /v1/rulings/{id}", "GET /v1/rulesets/{id}/document", "GET /v1/rulesets/{id}/clauses/{clause}"}
	// The floor's pages hold no data (issue 14); GET /v1/me answers any
	// authenticated principal.
	publicWant := []string{"GET /{$}", "GET /display/{pool}", "GET /playground", "GET /assets/{file}", "GET /v1/ledger/keys"}
	for _, r := range publicWant {
		if rule, ok := Routes[r]; !ok || !rule.Public || rule.Stateless || len(rule.Roles) > 0 {
			t.Errorf("%s: %+v, want public", r, rule)
		}
	}
	if rule := Routes["GET /v1/me"]; !rule.AnyPrincipal || rule.Public || rule.Stateless || len(rule.Roles) > 0 {
		t.Errorf("GET /v1/me: %+v, want any principal", rule)
	}
	if len(Routes) != len(want)+len(statelessWant)+len(publicWant)+1 {
		t.Errorf("%d routes, want %d", len(Routes), len(want)+len(statelessWant)+len(publicWant)+1)
	}
	for _, r := range statelessWant {
		if rule, ok := Routes[r]; !ok || !rule.Stateless || len(rule.Roles) > 0 {
			t.Errorf("%s: %+v, want stateless", r, rule)
		}
	}
	for r, roles := range want {
		rule := Routes[r]
		if rule.Stateless || !slices.Equal(rule.Roles, roles) {
			t.Errorf("%s: %+v, want roles %v", r, rule, roles)
		}
		if rule.TableBound != (r == "POST /v1/pools/{id}/rounds") {
			t.Errorf("%s: TableBound %v", r, rule.TableBound)
		}
	}
	if e := Authorize(&principal.Principal{ID: "c1", Roles: []principal.Role{C}}, "POST /v1/pools"); e == nil ||
		e.Detail != `POST /v1/pools needs role admin; principal "c1" has role cage` {
		t.Errorf("refusal %v", e)
	}
	if e := Authorize(&principal.Principal{ID: "x"}, "GET /v1/pools/{id}/reconcile"); e == nil ||
		e.Detail != `GET /v1/pools/{id}/reconcile needs role controller; principal "x" has no role` {
		t.Errorf("refusal %v", e)
	}
	if e := Authorize(&principal.Principal{ID: "x", Roles: []principal.Role{A}}, "DELETE /v1/pools/{id}"); e == nil ||
		!strings.Contains(e.Detail, "has no access rule") {
		t.Errorf("a route without a rule: %v", e)
	}
}

// RuleOf is what a host binds to an operation when it registers it: a
// route Routes does not list gets the rule that refuses every principal,
// one holding every role included, and acts in no role; a listed route
// acts in the first of the principal's roles its rule names.
func TestRuleOf(t *testing.T) {
	all := &principal.Principal{ID: "all", Roles: principal.Roles, Tables: []string{"T12"}}
	unlisted := RuleOf("DELETE /v1/pools/{id}")
	if e := unlisted.Authorize(all, "DELETE /v1/pools/{id}"); e == nil || e.Kind != fault.Forbidden ||
		e.Detail != "DELETE /v1/pools/{id} has no access rule: refused to every principal" {
		t.Errorf("unlisted: %v", e)
	}
	if unlisted.Stateless || unlisted.Public || unlisted.AnyPrincipal || unlisted.Acting(all) != "" {
		t.Errorf("unlisted rule %+v acts as %q", unlisted, unlisted.Acting(all))
	}
	reconcile := RuleOf("GET /v1/pools/{id}/reconcile")
	if e := reconcile.Authorize(all, "GET /v1/pools/{id}/reconcile"); e != nil || reconcile.Acting(all) != principal.Controller {
		t.Errorf("reconcile: %v, acting %q", e, reconcile.Acting(all))
	}
	if got := RuleOf("GET /v1/rulesets").Acting(all); got != "" {
		t.Errorf("a stateless route acts as %q", got)
	}
}

// manyTables is a principals file of a wide-area pool's tables: n table
// principals, each bound to its own table (docs/scale.md).
func manyTables(tb testing.TB, n int) ([]Entry, []string) {
	tb.Helper()
	entries := make([]Entry, 0, n)
	tokens := make([]string, 0, n)
	for i := range n {
		tok := NewToken()
		id := fmt.Sprintf("table-%05d", i)
		entries = append(entries, Entry{ID: id, Roles: []principal.Role{principal.Table}, Tables: []string{id}, TokenSHA256: HashToken(tok)})
		tokens = append(tokens, tok)
	}
	if err := Validate(entries); err != nil {
		tb.Fatal(err)
	}
	return entries, tokens
}

// TestTokensLookupAmongTenThousand: with 10,000 principals every token
// finds its own principal (bound to its own table only) and nothing else;
// a token of another file finds none.
func TestTokensLookupAmongTenThousand(t *testing.T) {
	entries, tokens := manyTables(t, 10000)
	ts := NewTokens(entries)
	for i, tok := range tokens {
		p, err := ts.Lookup(tok)
		if err != nil || p.ID != entries[i].ID || !p.BoundTo(entries[i].ID) || len(p.Tables) != 1 {
			t.Fatalf("token %d: got %+v, %v; want %s bound to itself only", i, p, err, entries[i].ID)
		}
	}
	if p, err := ts.Lookup(NewToken()); err != ErrBadToken || p != nil {
		t.Fatalf("a token no principal holds: got %v, %v; want ErrBadToken", p, err)
	}
}

// BenchmarkTokensLookup: a lookup among 10 and among 10,000 principals
// (compare the two in one run: the index makes them the same order).
func BenchmarkTokensLookup(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("principals=%d", n), func(b *testing.B) {
			entries, tokens := manyTables(b, n)
			ts := NewTokens(entries)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := ts.Lookup(tokens[i%n]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
