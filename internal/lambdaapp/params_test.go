package lambdaapp

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/danielgtaylor/huma/v2"
	"github.com/go-json-experiment/json"

	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

var pathParam = regexp.MustCompile(`\{([^}.]+)(\.\.\.)?\}`)

// Issue 33 item 2 on the Lambda host: every route of every function, with
// bytes that are not UTF-8 in its path parameters as API Gateway hands
// them over (rawPath %-escaped, pathParameters decoded, routeKey the
// stack's "{proxy+}"), and in its query parameters (rawQueryString), is
// answered 400 problem+json naming the parameter, the body valid JSON:
// never an empty reply or a body cut mid-JSON.
func TestBytesNotUTF8InPathAndQuery(t *testing.T) {
	for _, g := range httpapi.AllGroups {
		t.Run(string(g), func(t *testing.T) {
			deps := goldenDeps(t, ruleset.Standard())
			h := New(deps, g)
			_, api := httpapi.New(deps, g)
			n := 0
			for path, item := range api.OpenAPI().Paths {
				for method, op := range map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PUT": item.Put, "PATCH": item.Patch, "DELETE": item.Delete} {
					if op == nil {
						continue
					}
					var query string
					for _, p := range op.Parameters {
						if p.In == "query" {
							query = p.Name
						}
					}
					for _, bad := range []struct{ raw, decoded string }{{"%C0%AE%C0%AE", "\xc0\xae\xc0\xae"}, {"%ff", "\xff"}} {
						want := ""
						raw, decoded := path, path
						if m := pathParam.FindStringSubmatch(path); m != nil {
							want = "path." + m[1]
							raw = pathParam.ReplaceAllLiteralString(path, bad.raw)
							decoded = pathParam.ReplaceAllLiteralString(path, bad.decoded)
						}
						rawQuery := ""
						if query != "" {
							rawQuery = query + "=" + bad.raw
							if want == "" {
								want = "query." + query
							}
						}
						if want == "" {
							continue
						}
						n++
						first, rest, _ := strings.Cut(strings.TrimPrefix(decoded, "/v1/"), "/")
						ev := events.APIGatewayV2HTTPRequest{
							Version: "2.0", RouteKey: method + " /v1/" + first + "/{proxy+}", RawPath: raw, RawQueryString: rawQuery,
							PathParameters: map[string]string{"proxy": rest},
							Headers:        map[string]string{"content-type": "application/json", "idempotency-key": "k1"},
							Body:           "{}",
							RequestContext: events.APIGatewayV2HTTPRequestContext{RequestID: "utf8=",
								HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: method, Path: decoded}},
						}
						resp, err := h(context.Background(), ev)
						if err != nil {
							t.Fatalf("%s %s: %v", method, raw, err)
						}
						var p huma.ErrorModel
						if uErr := json.Unmarshal([]byte(resp.Body), &p); uErr != nil || resp.StatusCode != http.StatusBadRequest ||
							resp.Headers["Content-Type"] != "application/problem+json" || len(p.Errors) == 0 || p.Errors[0].Location != want {
							t.Errorf("%s %s?%s: %d %v %q (%v), want 400 naming %s", method, raw, rawQuery, resp.StatusCode, resp.Headers, resp.Body, uErr, want)
						}
					}
				}
			}
			if g != httpapi.GroupSettle && n == 0 {
				t.Errorf("no route with a parameter in %s", g)
			}
		})
	}
}

// Issue 33 item 3 on the Lambda host: API Gateway joins two
// Idempotency-Key headers with a comma; the adapter splits them back
// into two, and the request is refused 400 naming the header, as the
// local server refuses two. Two Authorization headers, which the
// adapter does not split, are the IAM authorizer's business here.
func TestTwoIdempotencyKeysRefused(t *testing.T) {
	deps := goldenDeps(t, ruleset.Standard())
	h := New(deps, httpapi.GroupPools)
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: "POST /v1/pools/{proxy+}", RawPath: "/v1/pools/p/adjustments",
		PathParameters: map[string]string{"proxy": "p/adjustments"},
		Headers:        map[string]string{"content-type": "application/json", "idempotency-key": "ka1,kb1"},
		Body:           `{"meter":"reserve","amount":100,"reason":"top-up"}`,
		RequestContext: events.APIGatewayV2HTTPRequestContext{RequestID: "keys=",
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", Path: "/v1/pools/p/adjustments"}},
	}
	resp, err := h(context.Background(), ev)
	if err != nil || resp.StatusCode != http.StatusBadRequest || !strings.Contains(resp.Body, `"location":"header.Idempotency-Key"`) {
		t.Fatalf("err %v: %d %s", err, resp.StatusCode, resp.Body)
	}
}
