package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/fault"
)

// Issue 12 item 2: fault.Error kinds map to one status each; fields keep
// their full location under the prefix; rules are the "rules" member; the
// cause never reaches the body.
func TestProblemOf(t *testing.T) {
	cause := errors.New("secret cause")
	cases := []struct {
		name     string
		err      error
		status   int
		location string
		rules    string
	}{
		{"invalid field (ruling R20)", fault.InvalidField("positions[1].wagers.bet", 3000, "bet must be twice the ante").Cite("ruling R20"), 422, "body.positions[1].wagers.bet", `"rules":["ruling R20"]`},
		{"not found", fault.New(fault.NotFound, "no pool p1"), 404, "", ""},
		{"conflict", fault.New(fault.Conflict, "round replayed with another body"), 409, "", ""},
		{"unavailable", fault.Wrap(fault.Unavailable, cause, "progressive unavailable: retry"), 503, "", ""},
		{"forbidden", fault.New(fault.Forbidden, "not your table"), 403, "", ""},
		{"unauthenticated", fault.New(fault.Unauthenticated, "no credentials"), 401, "", ""},
		{"internal", fault.Wrap(fault.Internal, cause, "secret detail"), 500, "", ""},
		{"plain error", cause, 500, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := problemOf(context.Background(), c.err, "body")
			se, ok := err.(huma.StatusError)
			if !ok || se.GetStatus() != c.status {
				t.Fatalf("got %#v, want status %d", err, c.status)
			}
			b, _ := json.Marshal(err)
			body := string(b)
			if strings.Contains(body, "secret") {
				t.Errorf("the cause reaches the body: %s", body)
			}
			if c.location != "" && !strings.Contains(body, `"location":"`+c.location+`"`) {
				t.Errorf("no location %s: %s", c.location, body)
			}
			if c.rules != "" && !strings.Contains(body, c.rules) {
				t.Errorf("no %s: %s", c.rules, body)
			}
			if c.status == 503 {
				if h, ok := err.(huma.HeadersError); !ok || h.GetHeaders().Get("Retry-After") != "1" {
					t.Errorf("503 without Retry-After")
				}
			}
		})
	}
}

// What an error repeats is bounded: a 4 KB location and value come back
// cut to apijson.MaxEcho bytes, a 4 KB detail to maxMessage, an object value not
// at all.
func TestNewErrorBoundsValues(t *testing.T) {
	long := strings.Repeat("x", 4096)
	err := newError(422, long, &huma.ErrorDetail{Location: "body." + long, Message: "m", Value: long}, &huma.ErrorDetail{Value: map[string]any{"a": long}})
	b, _ := json.Marshal(err)
	if len(b) > maxMessage+2*apijson.MaxEcho+200 || strings.Contains(string(b), `"a"`) {
		t.Fatalf("%d bytes: %s", len(b), b)
	}
}
