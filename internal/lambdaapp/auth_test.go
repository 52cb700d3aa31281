package lambdaapp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/httpapi/authtest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/ruleset/rulesettest"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

const account = "123456789012"

// roleName is the IAM role the matrix's caller assumes.
func roleName(c authtest.Caller) string { return "tablesettle-matrix-" + c.Name }

// TestAccessMatrixLambda (issue 16): the access matrix through the Lambda
// handlers, one per function group as the stack deploys them, with API
// Gateway HTTP API events carrying the caller's IAM identity
// (requestContext.authorizer.iam.userArn, an assumed-role session) mapped
// to roles by TABLESETTLE_IAM_PRINCIPALS. In the stack nothing is open: a
// stateless operation needs an identity too.
func TestAccessMatrixLambda(t *testing.T) { accessMatrixLambda(t, ruleset.Standard()) }

// TestAccessMatrixLambdaWithSixth: the same matrix through Lambda handlers
// built with the sixth, test-only ruleset in their catalogue
// (internal/ruleset/rulesettest): a ruleset added as data changes no
// operation's access, in the stack as on the local server.
func TestAccessMatrixLambdaWithSixth(t *testing.T) {
	cat, err := rulesettest.SixthCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	accessMatrixLambda(t, cat)
}

// accessMatrixLambda walks the access matrix through the functions of a
// stack serving the rulesets of cat.
func accessMatrixLambda(t *testing.T, cat ruleset.Catalogue) {
	var mapping []auth.IAMEntry
	for _, c := range authtest.Callers() {
		if c.Principal != nil {
			mapping = append(mapping, auth.IAMEntry{ARN: "arn:aws:iam::" + account + ":role/" + roleName(c), Roles: c.Principal.Roles, Tables: c.Principal.Tables})
		}
	}
	raw, _ := json.Marshal(mapping)
	getenv := func(k string) string {
		return map[string]string{"LOG_LEVEL": "error", IAMPrincipalsEnv: string(raw)}[k]
	}
	dir := t.TempDir()
	st, err := sqlite.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	deps := Deps(getenv)
	deps.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	deps.Pools = pools.NewServiceIn(cat, st, time.Now, 1)
	deps.Pools.Signing = goldenSigning(t) // issue 34: the pool's checkpoints
	deps.Catalogue = cat

	handlers := map[string]Handler{} // route -> the handler of the function serving it
	var ops []authtest.Op
	for _, g := range httpapi.AllGroups {
		h, api := httpapi.New(deps, g)
		gops, err := authtest.Operations(api)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range gops {
			if _, dup := handlers[op.Route]; dup {
				continue // the spec and docs, served by every function
			}
			handlers[op.Route] = Adapt(h, deps.Logger)
			ops = append(ops, op)
		}
	}
	// The whole API's operations, in the matrix's order (the pool first).
	_, whole := httpapi.New(deps)
	all, err := authtest.Operations(whole)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(ops) {
		t.Fatalf("the groups serve %d operations, the whole API %d", len(ops), len(all))
	}
	n := 0
	authtest.Run(t, all, false, func(t *testing.T, op authtest.Op, path string, c authtest.Caller) authtest.Answer {
		n++
		ev := events.APIGatewayV2HTTPRequest{
			Version: "2.0", RouteKey: "$default", RawPath: path, Body: string(op.Body),
			Headers: map[string]string{"idempotency-key": "matrix-" + op.ID + "-" + c.Name},
			RequestContext: events.APIGatewayV2HTTPRequestContext{
				AccountID: account, RequestID: fmt.Sprintf("matrix-%d", n), Stage: "$default",
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: op.Method, Path: path, Protocol: "HTTP/1.1", SourceIP: "203.0.113.9"},
			},
		}
		if op.Body != nil {
			ev.Headers["content-type"] = "application/json"
		}
		if c.Principal != nil {
			ev.RequestContext.Authorizer = &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{
				IAM: &events.APIGatewayV2HTTPRequestContextAuthorizerIAMDescription{
					AccountID: account,
					UserARN:   "arn:aws:sts::" + account + ":assumed-role/" + roleName(c) + "/session-" + c.Name,
				},
			}
		}
		resp, err := handlers[op.Route](context.Background(), ev)
		if err != nil {
			t.Fatal(err)
		}
		h := http.Header{}
		for k, v := range resp.Headers {
			h.Set(k, v)
		}
		return authtest.Answer{Status: resp.StatusCode, Header: h, Body: []byte(resp.Body)}
	}, func() string { return authtest.DirDigest(t, dir) })
}

// A mapping that does not parse refuses every request with 503 rather
// than serve with no roles or the wrong ones.
func TestBadIAMMappingRefusesAll(t *testing.T) {
	deps := Deps(func(k string) string {
		return map[string]string{"LOG_LEVEL": "error", IAMPrincipalsEnv: `[{"arn":"x"}]`}[k]
	})
	deps.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	h := New(deps, httpapi.GroupPaytables)
	ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RawPath: "/v1/rulesets", RequestContext: events.APIGatewayV2HTTPRequestContext{
		RequestID: "r1", HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET", Path: "/v1/rulesets"},
		Authorizer: &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{IAM: &events.APIGatewayV2HTTPRequestContextAuthorizerIAMDescription{
			UserARN: "arn:aws:sts::" + account + ":assumed-role/r/s"}},
	}}
	resp, _ := h(context.Background(), ev)
	if resp.StatusCode != http.StatusServiceUnavailable || strings.Contains(resp.Body, "arn") {
		t.Errorf("%d %s", resp.StatusCode, resp.Body)
	}
}

// In the stack too, an operation the access table does not list is
// refused to every identity, one mapped to every role included (403
// naming the missing rule), and to a request without one (401): the
// Lambda handler goes through the same check as the local server.
func TestOperationWithoutRuleRefusedInLambda(t *testing.T) {
	raw, _ := json.Marshal([]auth.IAMEntry{{ARN: "arn:aws:iam::" + account + ":role/all", Roles: principal.Roles, Tables: []string{authtest.BoundTable}}})
	deps := Deps(func(k string) string {
		return map[string]string{"LOG_LEVEL": "error", IAMPrincipalsEnv: string(raw)}[k]
	})
	deps.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	h, api := httpapi.New(deps, httpapi.GroupPaytables)
	ran := false
	huma.Register(api, huma.Operation{OperationID: "unlisted", Method: http.MethodGet, Path: "/v1/unlisted"},
		func(context.Context, *struct{}) (*struct{}, error) { ran = true; return nil, nil })
	handler := Adapt(h, deps.Logger)
	for _, tc := range []struct {
		arn    string
		status int
		detail string
	}{
		{"arn:aws:sts::" + account + ":assumed-role/all/s", http.StatusForbidden, "GET /v1/unlisted has no access rule: refused to every principal"},
		{"", http.StatusUnauthorized, `GET /v1/unlisted needs credentials: AWS4-HMAC-SHA256 realm=\"tablesettle\"`},
	} {
		ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RawPath: "/v1/unlisted", RequestContext: events.APIGatewayV2HTTPRequestContext{
			RequestID: "r1", HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET", Path: "/v1/unlisted"}}}
		if tc.arn != "" {
			ev.RequestContext.Authorizer = &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{
				IAM: &events.APIGatewayV2HTTPRequestContextAuthorizerIAMDescription{UserARN: tc.arn}}
		}
		resp, err := handler(context.Background(), ev)
		if err != nil || resp.StatusCode != tc.status || !strings.Contains(resp.Body, `"detail":"`+tc.detail+`"`) || ran {
			t.Errorf("%q: %d %s (ran %v, err %v), want %d %s", tc.arn, resp.StatusCode, resp.Body, ran, err, tc.status, tc.detail)
		}
	}
}
