package lambdaapp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/filestore"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// TestDisplayPollsThroughLambda (issue 24 items 1, 4): on the Lambda
// host the sign's IAM role reads GET /display (the meter SGD 100,000.00)
// with an ETag, and the same tag back is a 304 with no body; the same
// role is refused the pool itself and its ledger (403).
func TestDisplayPollsThroughLambda(t *testing.T) {
	const sign = "arn:aws:iam::" + account + ":role/tablesettle-display"
	raw, _ := json.Marshal([]auth.IAMEntry{{ARN: sign, Roles: []principal.Role{principal.Display}}})
	deps := Deps(func(k string) string {
		return map[string]string{"LOG_LEVEL": "error", IAMPrincipalsEnv: string(raw)}[k]
	})
	deps.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	st, err := filestore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svc := pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)
	if _, _, err := svc.Create(context.Background(), "megalink", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	deps.Pools = svc
	h := New(deps, httpapi.GroupPools)
	get := func(path, inm string) events.APIGatewayV2HTTPResponse {
		t.Helper()
		ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RouteKey: "$default", RawPath: path, Headers: map[string]string{},
			RequestContext: events.APIGatewayV2HTTPRequestContext{AccountID: account, RequestID: "r-" + path, Stage: "$default",
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET", Path: path, Protocol: "HTTP/1.1", SourceIP: "203.0.113.9"},
				Authorizer: &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{IAM: &events.APIGatewayV2HTTPRequestContextAuthorizerIAMDescription{
					AccountID: account, UserARN: "arn:aws:sts::" + account + ":assumed-role/tablesettle-display/lobby"}}}}
		if inm != "" {
			ev.Headers["if-none-match"] = inm
		}
		resp, err := h(context.Background(), ev)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := get("/v1/pools/megalink/display", "")
	var d jackpot.Display
	if err := json.Unmarshal([]byte(resp.Body), &d); err != nil || resp.StatusCode != http.StatusOK || d.Meter != 10_000_000 {
		t.Fatalf("display: %d %s", resp.StatusCode, resp.Body)
	}
	tag := resp.Headers["Etag"] // the adapter writes canonical header names
	if !strings.HasPrefix(tag, `W/"`) {
		t.Fatalf("no ETag: %v", resp.Headers)
	}
	if resp := get("/v1/pools/megalink/display", tag); resp.StatusCode != http.StatusNotModified || resp.Body != "" {
		t.Fatalf("poll: %d %q", resp.StatusCode, resp.Body)
	}
	for _, path := range []string{"/v1/pools/megalink", "/v1/pools/megalink/ledger", "/v1/pools/megalink/hits"} {
		if resp := get(path, ""); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s as display: %d %s", path, resp.StatusCode, resp.Body)
		}
	}
}
