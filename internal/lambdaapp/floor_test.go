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

	"github.com/aws/aws-lambda-go/events"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/sqlite"
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
	st, err := sqlite.Open(t.TempDir())
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

// TestVoidOfAVoidedHitThroughLambda: issue 33 item 10 on the Lambda host.
// A pending Royal's void is proposed by a supervisor and approved by a
// controller; proposing it again, as another supervisor, is a 409 at
// path.seq naming the entry that voided it.
func TestVoidOfAVoidedHitThroughLambda(t *testing.T) {
	s := newReviewStack(t, httpapi.GroupPools)
	as := func(role, who string) string {
		return "arn:aws:sts::" + account + ":assumed-role/review-" + role + "/" + who
	}
	ok := func(resp events.APIGatewayV2HTTPResponse, status int, what string) {
		t.Helper()
		if resp.StatusCode != status {
			t.Fatalf("%s: %d %s", what, resp.StatusCode, resp.Body)
		}
	}
	ok(s.send(t, "POST", "/v1/pools", []byte(`{"id":"p","currency":"SGD","rulesets":["mbs-megalink-ssp-v6"],"tables":["T12"],"unit":500,"contributionBp":1733,"reserveBp":517,"reset":10000000,"verify":{"percent":true}}`),
		as("admin", "alice")), http.StatusCreated, "create")
	round := s.send(t, "POST", "/v1/pools/p/rounds", []byte(`{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s","progressiveUnit":500,`+
		`"positions":[{"seat":3,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`), as("table", "host-T12"))
	ok(round, http.StatusOK, "round")
	var res jackpot.RoundResult
	if err := json.Unmarshal([]byte(round.Body), &res); err != nil || len(res.Payouts) != 1 || res.Payouts[0].Status != "pending" {
		t.Fatalf("round: %v %s", err, round.Body)
	}
	void := fmt.Sprintf("/v1/pools/p/hits/%d/void", res.Payouts[0].Seq)
	prop := s.sendKey(t, "POST", void, []byte(`{"reason":"misread"}`), as("supervisor", "ann"), "v1")
	ok(prop, http.StatusAccepted, "propose")
	var pa struct{ Proposal struct{ ID int64 } }
	if err := json.Unmarshal([]byte(prop.Body), &pa); err != nil {
		t.Fatal(err)
	}
	ok(s.sendKey(t, "POST", fmt.Sprintf("/v1/pools/p/proposals/%d/approve", pa.Proposal.ID), nil, as("controller", "cy"), "a1"), http.StatusOK, "approve")
	again := s.sendKey(t, "POST", void, []byte(`{"reason":"misread"}`), as("supervisor", "ben"), "v2")
	want := fmt.Sprintf("hit %d is voided by entry %d", res.Payouts[0].Seq, pa.Proposal.ID+1)
	if again.StatusCode != http.StatusConflict || !strings.Contains(again.Body, `"location":"path.seq"`) || !strings.Contains(again.Body, want) {
		t.Fatalf("a second void: %d %s, want 409 at path.seq saying %q", again.StatusCode, again.Body, want)
	}
}
