package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/httpapi/authtest"
	"github.com/tablesettle/tablesettle/internal/localledger"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// localServer is `serve` with a principals file holding the matrix's
// callers: the bearer token of each caller by name.
func localServer(t *testing.T) (*httptest.Server, []authtest.Op, map[string]string, string) {
	t.Helper()
	return localServerLogging(t, io.Discard)
}

// localServerLogging is localServer writing its logs to w.
func localServerLogging(t *testing.T, w io.Writer) (*httptest.Server, []authtest.Op, map[string]string, string) {
	t.Helper()
	return localServerIn(t, w, ruleset.Standard())
}

// localServerIn is localServerLogging serving the rulesets of cat.
func localServerIn(t *testing.T, w io.Writer, cat ruleset.Catalogue) (*httptest.Server, []authtest.Op, map[string]string, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := sqlite.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var entries []auth.Entry
	tokens := map[string]string{}
	for _, c := range authtest.Callers() {
		if c.Principal == nil {
			continue
		}
		var tok string
		entries, tok, err = auth.Add(entries, c.Principal.ID, c.Principal.Roles, c.Principal.Tables)
		if err != nil {
			t.Fatal(err)
		}
		tokens[c.Name] = tok
	}
	svc := pools.NewServiceIn(cat, st, time.Now, 1)
	if svc.Signing, err = localledger.Open(dir); err != nil { // issue 34: the pool's checkpoints
		t.Fatal(err)
	}
	svc.Signing.Every = time.Nanosecond // every writer publishes its commit's checkpoint
	h, api := httpapi.New(httpapi.Deps{
		Logger:    slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Pools:     svc,
		Access:    &httpapi.Access{Authenticator: httpapi.BearerTokens{Tokens: auth.NewTokens(entries)}, OpenStateless: true},
		Catalogue: cat,
	})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ops, err := authtest.Operations(api)
	if err != nil {
		t.Fatal(err)
	}
	return srv, ops, tokens, dir
}

func send(t *testing.T, srv *httptest.Server, method, path string, body []byte, header http.Header) authtest.Answer {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return authtest.Answer{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// TestAccessMatrixLocal (issue 16): every registered operation x every
// role, a table principal of another table, and no credentials, through the
// local server with bearer tokens: 2xx, 401 or 403 as auth.Routes designs
// it; stateless operations open without credentials; a refused request
// leaves the store as it was. An operation missing from auth.Routes fails.
//
// No token, good or bad, reaches the logs.
func TestAccessMatrixLocal(t *testing.T) {
	var logs bytes.Buffer
	srv, ops, tokens, dir := localServerLogging(t, &logs)
	t.Cleanup(func() {
		for name, tok := range tokens {
			if bytes.Contains(logs.Bytes(), []byte(tok[len(auth.TokenPrefix):])) {
				t.Errorf("%s's token is in the logs", name)
			}
		}
		if !bytes.Contains(logs.Bytes(), []byte(`"principal":"matrix-admin"`)) {
			t.Error("the access log does not name the principal")
		}
	})
	authtest.Run(t, ops, true, func(t *testing.T, op authtest.Op, path string, c authtest.Caller) authtest.Answer {
		h := http.Header{"Idempotency-Key": {"matrix-" + op.ID + "-" + c.Name}}
		if tok, ok := tokens[c.Name]; ok {
			h.Set("Authorization", "Bearer "+tok)
		}
		return send(t, srv, op.Method, path, op.Body, h)
	}, func() string { return authtest.DirDigest(t, dir) })
}

// Bad credentials are 401 with a WWW-Authenticate naming the error, on
// every route, the open ones included (RFC 6750 3.1); the token is never
// echoed.
func TestBadCredentials(t *testing.T) {
	srv, _, tokens, _ := localServer(t)
	for _, tc := range []struct{ name, header string }{
		{"unknown token", "Bearer tst_not-a-token"},
		{"token of another scheme", "Basic " + tokens["admin"]},
		{"empty bearer", "Bearer "},
		{"token with one character changed", "Bearer " + tokens["admin"][:len(tokens["admin"])-1] + "x"},
	} {
		for _, route := range [][2]string{{"GET", "/v1/rulesets"}, {"POST", "/v1/pools"}, {"GET", "/openapi.yaml"}} {
			t.Run(tc.name+" "+route[1], func(t *testing.T) {
				var body []byte
				if route[0] == "POST" {
					body = []byte(`{}`)
				}
				a := send(t, srv, route[0], route[1], body, http.Header{"Authorization": {tc.header}})
				if a.Status != http.StatusUnauthorized {
					t.Fatalf("status %d, want 401: %s", a.Status, a.Body)
				}
				if got, want := a.Header.Get("WWW-Authenticate"), `Bearer realm="tablesettle", error="invalid_token"`; got != want {
					t.Errorf("WWW-Authenticate %q, want %q", got, want)
				}
				if bytes.Contains(a.Body, []byte(tokens["admin"][4:20])) {
					t.Errorf("the answer echoes the token: %s", a.Body)
				}
			})
		}
	}
}

// A table principal posts rounds for its own tables only (issue 16 item
// 4): the same round for table T99 by the principal bound to T12 is 403
// naming body.table, and the pool is unchanged.
func TestTableBinding(t *testing.T) {
	srv, ops, tokens, dir := localServer(t)
	var create, round authtest.Op
	for _, op := range ops {
		switch op.Route {
		case "POST /v1/pools":
			create = op
		case "POST /v1/pools/{id}/rounds":
			round = op
		}
	}
	a := send(t, srv, create.Method, create.Path, create.Body, http.Header{"Authorization": {"Bearer " + tokens["admin"]}})
	if a.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	before := authtest.DirDigest(t, dir)
	body := bytes.Replace(round.Body, []byte(`"table":"T12"`), []byte(`"table":"T99"`), 1)
	path := "/v1/pools/" + authtest.PoolIDOf(ops) + "/rounds"
	a = send(t, srv, "POST", path, body, http.Header{"Authorization": {"Bearer " + tokens["table"]}, "Idempotency-Key": {"k1"}})
	if a.Status != http.StatusForbidden {
		t.Fatalf("status %d, want 403: %s", a.Status, a.Body)
	}
	for _, want := range []string{`"location":"body.table"`, `"value":"T99"`, `not bound to table \"T99\"`, `bound to tables T12`} {
		if !bytes.Contains(a.Body, []byte(want)) {
			t.Errorf("403 lacks %s: %s", want, a.Body)
		}
	}
	if authtest.DirDigest(t, dir) != before {
		t.Error("a refused round changed the store")
	}
	a = send(t, srv, "POST", path, round.Body, http.Header{"Authorization": {"Bearer " + tokens["table"]}, "Idempotency-Key": {"k2"}})
	if a.Status != http.StatusOK {
		t.Fatalf("own table: %d %s", a.Status, a.Body)
	}
}

// The spec documents the access answers: 401 on every operation, 403 on
// every operation that needs a role, so generated clients know them.
func TestSpecDocumentsAccess(t *testing.T) {
	_, api := httpapi.New(httpapi.Deps{})
	ops, err := authtest.Operations(api)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		o := api.OpenAPI().Paths[op.Path]
		var resp map[string]*huma.Response
		switch op.Method {
		case http.MethodGet:
			resp = o.Get.Responses
		case http.MethodPost:
			resp = o.Post.Responses
		case http.MethodPatch:
			resp = o.Patch.Responses
		case http.MethodPut:
			resp = o.Put.Responses
		case http.MethodDelete:
			resp = o.Delete.Responses
		}
		if resp["401"] == nil {
			t.Errorf("%s: no 401 in the spec", op.Route)
		}
		if stateless := auth.Routes[op.Route].Stateless; (resp["403"] != nil) == stateless {
			t.Errorf("%s: 403 documented %v, stateless %v", op.Route, resp["403"] != nil, stateless)
		}
	}
}

// An operation auth.Routes does not list is refused to every principal,
// the admin included (403 naming the missing rule), and to a caller
// without credentials (401), even on the local server that opens the
// stateless operations: its rule is looked up when it is registered, and
// a route without one is no operation anybody may call. Its handler never
// runs.
func TestOperationWithoutRuleRefusedToEveryone(t *testing.T) {
	entries, tok, err := auth.Add(nil, "ops-1", principal.Roles, []string{authtest.BoundTable})
	if err != nil {
		t.Fatal(err)
	}
	h, api := httpapi.New(httpapi.Deps{
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Access: &httpapi.Access{Authenticator: httpapi.BearerTokens{Tokens: auth.NewTokens(entries)}, OpenStateless: true},
	})
	ran := false
	huma.Register(api, huma.Operation{OperationID: "unlisted", Method: http.MethodPost, Path: "/v1/unlisted"},
		func(context.Context, *struct{ Body struct{} }) (*struct{}, error) { ran = true; return nil, nil })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		name, auth string
		status     int
		detail     string
	}{
		{"every role", "Bearer " + tok, http.StatusForbidden, `"detail":"POST /v1/unlisted has no access rule: refused to every principal"`},
		{"no credentials", "", http.StatusUnauthorized, `"detail":"POST /v1/unlisted needs credentials: Bearer realm=\"tablesettle\""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := http.Header{}
			if tc.auth != "" {
				hdr.Set("Authorization", tc.auth)
			}
			a := send(t, srv, http.MethodPost, "/v1/unlisted", []byte(`{}`), hdr)
			if a.Status != tc.status || !bytes.Contains(a.Body, []byte(tc.detail)) || ran {
				t.Fatalf("%d %s (ran %v), want %d with %s", a.Status, a.Body, ran, tc.status, tc.detail)
			}
		})
	}
}
