package lambdaapp

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/tablesettle/tablesettle/internal/httpapi"
)

func TestLoggerLevel(t *testing.T) {
	cases := []struct {
		level      string
		infoShown  bool
		errorShown bool
	}{
		{"", true, true}, {"info", true, true}, {"ERROR", false, true}, {"warn", false, true}, {"debug", true, true}, {"nonsense", true, true},
	}
	for _, c := range cases {
		t.Run(c.level, func(t *testing.T) {
			var buf bytes.Buffer
			l := Logger(&buf, c.level)
			l.Info("i")
			l.Error("e")
			if got := strings.Contains(buf.String(), `"msg":"i"`); got != c.infoShown {
				t.Errorf("info shown %v, want %v", got, c.infoShown)
			}
			if got := strings.Contains(buf.String(), `"msg":"e"`); got != c.errorShown {
				t.Errorf("error shown %v, want %v", got, c.errorShown)
			}
		})
	}
}

// API Gateway's requestId is the response's X-Request-Id and the logs'
// request_id; a body marked base64 that is not base64 is a 400 problem,
// not a Lambda error.
func TestAdapt(t *testing.T) {
	var logs bytes.Buffer
	h := New(httpapi.Deps{Logger: Logger(&logs, "")}, httpapi.GroupPaytables)
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RawPath: "/v1/hands/evaluate",
		Headers:         map[string]string{"content-type": "application/json"},
		Body:            base64.StdEncoding.EncodeToString([]byte(`{"cards":"As Ks Qs Js Ts","game":"five_card"}`)),
		IsBase64Encoded: true,
		RequestContext: events.APIGatewayV2HTTPRequestContext{RequestID: "abc123=",
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", Path: "/v1/hands/evaluate"}},
	}
	resp, err := h(context.Background(), ev)
	if err != nil || resp.StatusCode != 200 || !strings.Contains(resp.Body, `"category":"royal_flush"`) {
		t.Fatalf("err %v, status %d, body %s", err, resp.StatusCode, resp.Body)
	}
	if resp.Headers["X-Request-Id"] != "abc123=" || !strings.Contains(logs.String(), `"request_id":"abc123="`) {
		t.Errorf("request id: headers %v, logs %s", resp.Headers, logs.String())
	}
	ev.Body = "not*base64"
	resp, err = h(context.Background(), ev)
	if err != nil || resp.StatusCode != 400 || resp.Headers["Content-Type"] != "application/problem+json" ||
		!strings.Contains(resp.Body, `"location":"body"`) {
		t.Fatalf("bad base64: err %v, status %d, headers %v, body %s", err, resp.StatusCode, resp.Headers, resp.Body)
	}
}

// Issue 15 section 3: a bad % escape in the raw path is a 400 problem, not
// a 500 that counts toward the 5xx alarm.
func TestBadPercentEscapeIs400(t *testing.T) {
	h := New(httpapi.Deps{Logger: Logger(io.Discard, "")}, httpapi.GroupPools)
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RawPath: "/v1/pools/%zz",
		RequestContext: events.APIGatewayV2HTTPRequestContext{RequestID: "pct=",
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET", Path: "/v1/pools/%zz"}},
	}
	resp, err := h(context.Background(), ev)
	if err != nil || resp.StatusCode != 400 || resp.Headers["Content-Type"] != "application/problem+json" ||
		!strings.Contains(resp.Body, `"location":"path"`) {
		t.Fatalf("err %v, status %d, headers %v, body %s", err, resp.StatusCode, resp.Headers, resp.Body)
	}
}
