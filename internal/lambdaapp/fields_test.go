package lambdaapp

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/tablesettle/tablesettle/internal/httpapi"
)

// Issue 22 items 1 and 2 on the Lambda host: a case-variant name given
// alone ("Dealer") is refused 422 naming it, and a missing required field
// is named at the field (body.dealer, body.positions[1].seat), as under
// serve (internal/httpapi fields_test.go).
func TestLambda422NamesTheField(t *testing.T) {
	h := New(httpapi.Deps{Logger: Logger(io.Discard, "")}, httpapi.GroupSettle)
	for body, want := range map[string][]string{
		`{"ruleset":"mbs-megalink-ssp-v6","roundId":"R1","Dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"2c 3d 5h 8s 9c","wagers":{"ante":1000}}]}`:                                                   {"body.Dealer", "body.dealer"},
		`{"ruleset":"mbs-megalink-ssp-v6","roundId":"R1","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"2c 3d 5h 8s 9c","wagers":{"ante":1000}},{"cards":"2h 3h 5d 8d 9d","wagers":{"ante":1000}}]}`: {"body.positions[1].seat"},
	} {
		ev := events.APIGatewayV2HTTPRequest{
			Version: "2.0", RawPath: "/v1/rounds/settle", Body: body,
			Headers: map[string]string{"content-type": "application/json"},
			RequestContext: events.APIGatewayV2HTTPRequestContext{RequestID: "f=",
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", Path: "/v1/rounds/settle"}},
		}
		resp, err := h(context.Background(), ev)
		if err != nil || resp.StatusCode != 422 {
			t.Fatalf("%s: %v %d %s", body, err, resp.StatusCode, resp.Body)
		}
		var p struct {
			Errors []struct{ Location string }
		}
		if err := json.Unmarshal([]byte(resp.Body), &p); err != nil {
			t.Fatal(err)
		}
		var locs []string
		for _, e := range p.Errors {
			locs = append(locs, e.Location)
		}
		slices.Sort(locs)
		if !slices.Equal(locs, want) {
			t.Errorf("%s: locations %v, want %v", body, locs, want)
		}
	}
}
