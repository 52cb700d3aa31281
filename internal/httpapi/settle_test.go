package httpapi

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2/humatest"

	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/settle"
)

func settleAPI(t *testing.T) humatest.TestAPI {
	t.Helper()
	_, api := humatest.New(t, Config())
	Register(api, Deps{}, GroupSettle)
	return api
}

// decodeProblemBody reads a problem+json body (the type is in middleware_test.go).
func decodeProblemBody(t *testing.T, body string) problemDoc {
	t.Helper()
	var p problemDoc
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatalf("not a problem: %s", body)
	}
	return p
}

// The spec's examples settle as documented: SSP v6 3.10.3.1 / 4.1.2 / 4.2
// on seat 1 (full house: ante 1 to 1, bet 7 to 1, SGD 200 jackpot), an
// implicit fold on seat 3 (ruling R20).
func TestSettleEndpointExample(t *testing.T) {
	api := settleAPI(t)
	resp := api.Post("/v1/rounds/settle", exampleSettleSSP())
	if resp.Code != http.StatusOK {
		t.Fatalf("status %d: %s", resp.Code, resp.Body)
	}
	var s SettleResponse
	if err := json.Unmarshal(resp.Body.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.Positions {
		for _, l := range p.Lines {
			got = append(got, string(l.Wager)+" "+string(l.Result)+" "+itoa64(int64(l.Returned)))
		}
	}
	want := "ante win 2000|bet win 16000|progressive win 20000|ante lose 0"
	if strings.Join(got, "|") != want {
		t.Errorf("lines %v, want %s", got, want)
	}
	if s.Totals.HouseNet != -(1000+14000+19900)+1000 {
		t.Errorf("house net %d", s.Totals.HouseNet)
	}
	if !strings.Contains(resp.Body.String(), `"rules":["mbs-megalink-ssp-v6 3.10.3.1","mbs-megalink-ssp-v6 4.1.1"]`) {
		t.Errorf("rules not cited as documented: %s", resp.Body)
	}
	if resp := api.Post("/v1/rounds/settle", exampleSettleTCP()); resp.Code != http.StatusOK {
		t.Errorf("TCP example: %d %s", resp.Code, resp.Body)
	}
}

func itoa64(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// Bad input is a problem+json 422 naming the field, never a 500.
func TestSettleEndpointErrors(t *testing.T) {
	api := settleAPI(t)
	cases := []struct {
		name, body string
		status     int
		location   string
	}{
		{"ruling R20 bet not twice the ante (engine)", `{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"Qh Qd Qs 9c 9d","wagers":{"ante":1000,"bet":1500}}]}`,
			422, "body.positions[0].wagers.bet"},
		{"a wager the ruleset does not have", `{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"Qh Qd Qs 9c 9d","wagers":{"ante":1000,"flop":2000}}]}`,
			422, "body.positions[0].wagers.flop"},
		{"unknown ruleset (schema)", `{"ruleset":"nope","roundId":"r","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"Qh Qd Qs 9c 9d","wagers":{"ante":1000}}]}`,
			422, "body.ruleset"},
		{"seat out of range (schema)", `{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s","positions":[{"seat":9,"cards":"Qh Qd Qs 9c 9d","wagers":{"ante":1000}}]}`,
			422, "body.positions[0].seat"},
		{"two positions on one seat", `{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"Qh Qd Qs 9c 9d","wagers":{"ante":1000}},{"seat":1,"cards":"2h 3h 4h 5h 6h","wagers":{"ante":1000}}]}`,
			422, "body.positions[1].seat"},
		{"a card that cannot be read", `{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"Qh Qd Qs 9c Zz","wagers":{"ante":1000}}]}`,
			422, "body.positions[0].cards"},
		{"an unknown field", `{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s","tip":5,"positions":[{"seat":1,"cards":"Qh Qd Qs 9c 9d","wagers":{"ante":1000}}]}`,
			422, "body.tip"},
		{"a negative wager", `{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"Qh Qd Qs 9c 9d","wagers":{"ante":-5}}]}`,
			422, "body.positions[0].wagers.ante"},
		{"ruling R22 a progressive wager without progressiveUnit", `{"ruleset":"rws-mlp-csp-v2","roundId":"r","dealer":"Ad Kc 9h 4s 5d","positions":[{"seat":1,"cards":"2h 5h 7h Jh 8h","wagers":{"ante":100,"bet":200,"progressive":50000}}]}`,
			422, "body.progressiveUnit"},
		{"ruling R22 a progressive wager that is not the unit", `{"ruleset":"rws-mlp-csp-v2","roundId":"r","dealer":"Ad Kc 9h 4s 5d","progressiveUnit":500,"positions":[{"seat":1,"cards":"2h 5h 7h Jh 8h","wagers":{"ante":100,"bet":200,"progressive":50000}}]}`,
			422, "body.positions[0].wagers.progressive"},
		{"ruling R22 limits.progressive: the unit governs", `{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s","progressiveUnit":100,"limits":{"progressive":{"min":100,"max":100}},"positions":[{"seat":1,"cards":"2h 2s 2c Jh Jd","wagers":{"ante":100,"bet":200,"progressive":1}}]}`,
			422, "body.limits.progressive"},
		{"ruling R14 an exposed hand without its cards", `{"ruleset":"mbs-ssp-v4","roundId":"r","dealer":"Ac Qd Jh Ts 8c","positions":[{"seat":1,"wagers":{"ante":100,"bet":200}}]}`,
			422, "body.positions[0].cards"},
		{"TCP 3.9.1.1 3.9.3 a Pair-Plus-only player folded: nothing to fold", `{"ruleset":"mbs-megalink-tcp-v6","roundId":"r","dealer":"Qs 7d 3c","community":"2c 9d","positions":[{"seat":1,"cards":"Ks Kd 4h","folded":true,"wagers":{"pairPlus":500}}]}`,
			422, "body.positions[0].folded"},
		{"two bad limits: the first in name order, every time", `{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"As Kd 7h 4c 2s","limits":{"bet":{"min":1500,"max":500},"ante":{"min":1000,"max":500}},"positions":[{"seat":1,"cards":"Qh Qd Qs 9c 9d","wagers":{"ante":1000}}]}`,
			422, "body.limits.ante.max"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := api.Post("/v1/rounds/settle", strings.NewReader(tc.body))
			if resp.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.Code, tc.status, resp.Body)
			}
			if ct := resp.Header().Get("Content-Type"); !strings.Contains(ct, "problem+json") {
				t.Errorf("content type %q", ct)
			}
			p := decodeProblemBody(t, resp.Body.String())
			found := false
			for _, e := range p.Errors {
				if e.Location == tc.location {
					found = true
				}
			}
			if !found {
				t.Errorf("no error at %s: %s", tc.location, resp.Body)
			}
		})
	}
}

// MBS 5.11: an absent player with an Ante only and no cards has the Ante
// returned whatever the cards, so the request is settled, not refused.
func TestSettleEndpointAbsentWithoutCards(t *testing.T) {
	api := settleAPI(t)
	resp := api.Post("/v1/rounds/settle", strings.NewReader(`{"ruleset":"mbs-megalink-ssp-v6","roundId":"r","dealer":"Ad Kc 9h 4s 5d","positions":[{"seat":1,"absent":true,"wagers":{"ante":100}}]}`))
	if resp.Code != http.StatusOK {
		t.Fatalf("status %d: %s", resp.Code, resp.Body)
	}
	if !strings.Contains(resp.Body.String(), `"wager":"ante","stake":100,"result":"returned","returned":100,"net":0`) ||
		!strings.Contains(resp.Body.String(), `"mbs-megalink-ssp-v6 5.11"`) {
		t.Errorf("want the ante returned under 5.11: %s", resp.Body)
	}
}

func TestSettleEndpointOversizeBody(t *testing.T) {
	api := settleAPI(t)
	big := `{"ruleset":"mbs-megalink-ssp-v6","roundId":"` + strings.Repeat("x", MaxBodyBytes) + `"}`
	resp := api.Post("/v1/rounds/settle", strings.NewReader(big))
	if resp.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d: %.200s", resp.Code, resp.Body)
	}
}

// The settlement example of docs/settling.md works as written and says
// what it answers (houseNet -33900).
func TestSettleReadmeExample(t *testing.T) {
	b, err := os.ReadFile("../../docs/settling.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "<!-- section: settlement -->")
	if i < 0 {
		t.Fatal("no settlement section")
	}
	sec := s[i:]
	start := strings.Index(sec, "-d '")
	end := strings.Index(sec[start+4:], "'")
	if start < 0 || end < 0 {
		t.Fatal("no curl body in the settlement section")
	}
	body := sec[start+4 : start+4+end]
	resp := settleAPI(t).Post("/v1/rounds/settle", strings.NewReader(body))
	if resp.Code != http.StatusOK {
		t.Fatalf("status %d: %s", resp.Code, resp.Body)
	}
	if !strings.Contains(resp.Body.String(), `"houseNet":-33900`) || !strings.Contains(sec, "-33900") {
		t.Errorf("docs/settling.md and answer disagree: %s", resp.Body)
	}
}

// The answer's lists (positions, irregularities, a position's lines and
// jackpot prizes) are written [] when empty, never null (the spec's
// arrays), now that they are settle's own slices, which may be nil.
func TestSettleAnswerEmptyListsAreArrays(t *testing.T) {
	for _, s := range []settle.Settlement{{Positions: []settle.PositionResult{{Seat: 1}}}, {}} {
		out := settleResponse(s)
		var b strings.Builder
		if err := apijson.Format.Marshal(&b, &out); err != nil {
			t.Fatal(err)
		}
		want := []string{`"positions":[]`, `"irregularities":[]`}
		if len(s.Positions) > 0 {
			want = []string{`"irregularities":[]`, `"lines":[]`, `"jackpot":[]`}
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("no %s in %s", w, b.String())
			}
		}
	}
}
