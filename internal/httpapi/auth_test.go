package httpapi

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// The operation sees the authenticated principal, with the role it acts in
// (the first of its roles the route allows: what a ledger entry records),
// and never sees a refused request.
func TestOperationSeesActingPrincipal(t *testing.T) {
	entries, tok, err := auth.Add(nil, "ops-1", []principal.Role{principal.Cage, principal.Admin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, cageTok, err := auth.Add(entries, "cage-1", []principal.Role{principal.Cage}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen []principal.Principal
	mux := http.NewServeMux()
	record := func(w http.ResponseWriter, r *http.Request) {
		p, ok := principal.FromContext(r.Context())
		if ok {
			seen = append(seen, *p)
		} else {
			seen = append(seen, principal.Principal{ID: "(none)"})
		}
		w.WriteHeader(http.StatusNoContent)
	}
	mux.HandleFunc("POST /v1/pools", record)
	mux.HandleFunc("GET /v1/pools/{id}", record)
	mux.HandleFunc("GET /v1/rulesets", record)
	h := Middleware(Deps{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Access: &Access{Authenticator: BearerTokens{Tokens: auth.NewTokens(entries)}, OpenStateless: true}}, mux)
	do := func(method, path, token string) int {
		r := httptest.NewRequest(method, path, strings.NewReader(""))
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	for _, tc := range []struct {
		name, method, path, token string
		status                    int
		id                        string
		acting                    principal.Role
	}{
		{"admin route: acts as admin", "POST", "/v1/pools", tok, 204, "ops-1", principal.Admin},
		{"read route: acts as cage, its first allowed role", "GET", "/v1/pools/p1", tok, 204, "ops-1", principal.Cage},
		{"stateless with a token: no acting role", "GET", "/v1/rulesets", tok, 204, "ops-1", ""},
		{"stateless without a token, locally", "GET", "/v1/rulesets", "", 204, "(none)", ""},
		{"refused: the operation never runs", "POST", "/v1/pools", cageTok, 403, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen = nil
			if got := do(tc.method, tc.path, tc.token); got != tc.status {
				t.Fatalf("status %d, want %d", got, tc.status)
			}
			if tc.id == "" {
				if len(seen) != 0 {
					t.Fatalf("the operation ran: %+v", seen)
				}
				return
			}
			if len(seen) != 1 || seen[0].ID != tc.id || seen[0].Acting != tc.acting {
				t.Fatalf("operation saw %+v, want %s acting %q", seen, tc.id, tc.acting)
			}
		})
	}
}
