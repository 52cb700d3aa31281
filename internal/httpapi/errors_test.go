package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
	jsonv2 "github.com/go-json-experiment/json"

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

// Issue 33 item 2: an error that repeats bytes that are not UTF-8 (a path
// segment, a header, a message quoting them) still encodes: each such byte
// is U+FFFD, and the problem is valid JSON.
func TestProblemEchoesOnlyUTF8(t *testing.T) {
	for _, err := range []error{
		problemOf(context.Background(), &fault.Error{Kind: fault.NotFound, Detail: "no pool \xc0\xae", Fields: []fault.Problem{{Field: "id", Message: "no such pool", Value: "\xc0\xae"}}}, "path"),
		newError(http.StatusUnprocessableEntity, "bad \xff", &huma.ErrorDetail{Location: "path.seq\xff", Message: "invalid integer", Value: "\xff"}),
	} {
		b, mErr := jsonv2.Marshal(err, apijson.EncodeOptions)
		if mErr != nil {
			t.Fatalf("%v: %v", err, mErr)
		}
		if !utf8.Valid(b) || !strings.Contains(string(b), "\uFFFD") {
			t.Errorf("%s", b)
		}
	}
	b := ProblemJSON(http.StatusNotFound, "no page at /\xff", &huma.ErrorDetail{Location: "path.pool", Value: "\xfe"})
	if want := `{"type":"about:blank","title":"Not Found","status":404,"detail":"no page at /` + "\uFFFD" + `","errors":[{"location":"path.pool","value":"` + "\uFFFD" + `"}]}`; string(b) != want {
		t.Errorf("ProblemJSON:\n%s\nwant\n%s", b, want)
	}
}
