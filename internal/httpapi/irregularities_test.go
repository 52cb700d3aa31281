package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func doIrregular(t *testing.T, method, path, body string) (int, map[string]any) {
	t.Helper()
	h, _ := New(Deps{}, GroupIrregular)
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%s %s: status %d, body not JSON: %s", method, path, rec.Code, rec.Body)
	}
	return rec.Code, out
}

func locations(out map[string]any) []string {
	var locs []string
	errs, _ := out["errors"].([]any)
	for _, e := range errs {
		m, _ := e.(map[string]any)
		l, _ := m["location"].(string)
		locs = append(locs, l)
	}
	return locs
}

func TestListIrregularities(t *testing.T) {
	code, out := doIrregular(t, http.MethodGet, "/v1/rulesets/rws-mlp-csp-v2/irregularities", "")
	if code != http.StatusOK {
		t.Fatalf("status %d: %v", code, out)
	}
	if out["ruleset"] != "rws-mlp-csp-v2" || out["referTo"] != "Table Game Shift Manager" || out["referClause"] != "5.24" {
		t.Errorf("header fields: %v %v %v", out["ruleset"], out["referTo"], out["referClause"])
	}
	var kinds []string
	for _, k := range out["kinds"].([]any) {
		kinds = append(kinds, k.(map[string]any)["kind"].(string))
	}
	for _, want := range []string{"power_failure", "jackpot_system_failure", "burnt_card_not_discarded", "player_absent", "duplicate_card", "other"} {
		if !slices.Contains(kinds, want) {
			t.Errorf("kind %s missing from %v", want, kinds)
		}
	}

	refd, _ := out["referredKinds"].([]any)
	if !slices.Contains(refd, any("multiple_hands_in_error")) || !slices.Contains(refd, any("hand_not_confidential")) {
		t.Errorf("referredKinds %v: MBS 5.9/5.10 have no RWS counterpart", refd)
	}
	idx, _ := out["clauses"].(map[string]any)
	if got, _ := idx["5.17"].([]any); !slices.Equal(got, []any{"jackpot_system_failure"}) {
		t.Errorf("clauses[5.17] = %v", idx["5.17"])
	}

	code, out = doIrregular(t, http.MethodGet, "/v1/rulesets/nope/irregularities", "")
	if code != http.StatusNotFound || !slices.Equal(locations(out), []string{"path.id"}) {
		t.Errorf("unknown ruleset: %d %v", code, out)
	}
}

// RWS 5.7.2 through HTTP, with the round exactly as sent to settle (its
// other fields accepted and ignored).
func TestDecideIrregularityRWS_5_7_2(t *testing.T) {
	body := `{"ruleset":"rws-mlp-csp-v2","kind":"power_failure","facts":{"outcomeEstablished":false},
	  "round":{"ruleset":"rws-mlp-csp-v2","roundId":"T7-0042","currency":"SGD","dealer":"As Kd 7h 7c 2s",
	    "positions":[{"seat":1,"cards":"Qh Qs 9d 4c 3h","wagers":{"ante":2500,"bet":5000,"progressive":500},"folded":false}]}}`
	code, out := doIrregular(t, http.MethodPost, "/v1/irregularities", body)
	if code != http.StatusOK {
		t.Fatalf("status %d: %v", code, out)
	}
	if out["action"] != "round_void" {
		t.Errorf("action %v", out["action"])
	}
	st := out["settlement"].(map[string]any)
	if st["totalReturned"].(float64) != 8000 || st["roundId"] != "T7-0042" || len(st["lines"].([]any)) != 3 {
		t.Errorf("settlement %v", st)
	}
}

func TestDecideIrregularityRefused(t *testing.T) {
	for _, c := range []struct {
		name, body string
		locs       []string
	}{
		{"MissingFact", `{"ruleset":"mbs-megalink-ssp-v6","kind":"cards_exposed_in_deal","facts":{}}`, []string{"body.facts.cardsExposed"}},
		{"UnknownKind", `{"ruleset":"mbs-megalink-ssp-v6","kind":"earthquake"}`, []string{"body.kind"}},
		{"UnknownRuleset", `{"ruleset":"mbs-baccarat","kind":"other"}`, []string{"body.ruleset"}},
		{"Contradiction", `{"ruleset":"mbs-megalink-ssp-v6","kind":"power_failure","facts":{"outcomeEstablished":true,"withdrawnSeats":[2]}}`, []string{"body.facts.withdrawnSeats"}},
		{"WagerOfAnotherGame", `{"ruleset":"mbs-megalink-ssp-v6","kind":"foreign_card","round":{"positions":[{"seat":1,"wagers":{"pairPlus":100}}]}}`, []string{"body.round.positions[0].wagers.pairPlus"}},
		{"RoundOfAnotherRuleset", `{"ruleset":"mbs-megalink-ssp-v6","kind":"foreign_card","round":{"ruleset":"rws-mlp-csp-v2","positions":[{"seat":1,"wagers":{"ante":100}}]}}`, []string{"body.round.ruleset"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := doIrregular(t, http.MethodPost, "/v1/irregularities", c.body)
			if code != http.StatusUnprocessableEntity {
				t.Fatalf("status %d: %v", code, out)
			}
			if got := locations(out); !slices.Equal(got, c.locs) {
				t.Errorf("locations %q, want %q (%v)", got, c.locs, out)
			}
		})
	}
}

// Ruling R28: a report names further irregularities of the round in
// additional; each is decided (events) and the one that returns most
// prevails (MBS 5.11 returns 5100 where 5.14 returns 2000). A refused
// additional event is named by its path.
func TestDecideIrregularityReport_R28(t *testing.T) {
	round := `"round":{"positions":[{"seat":1,"wagers":{"ante":5000,"progressive":100}},{"seat":2,"wagers":{"ante":1000,"bet":2000}}]}`
	body := `{"ruleset":"mbs-megalink-ssp-v6","kind":"wager_over_maximum","facts":{"seat":1,"wager":"ante","maximum":3000},
	  "additional":[{"kind":"player_absent","facts":{"seat":1}}],` + round + `}`
	code, out := doIrregular(t, http.MethodPost, "/v1/irregularities", body)
	if code != http.StatusOK {
		t.Fatalf("status %d: %v", code, out)
	}
	if out["kind"] != "player_absent" || len(out["events"].([]any)) != 2 || out["settlement"].(map[string]any)["totalReturned"].(float64) != 5100 {
		t.Errorf("answer %v", out)
	}
	body = `{"ruleset":"mbs-megalink-ssp-v6","kind":"wager_over_maximum","facts":{"seat":1,"wager":"ante","maximum":3000},
	  "additional":[{"kind":"power_failure"}],` + round + `}`
	code, out = doIrregular(t, http.MethodPost, "/v1/irregularities", body)
	if code != http.StatusUnprocessableEntity || !slices.Equal(locations(out), []string{"body.additional[0].facts.outcomeEstablished"}) {
		t.Errorf("status %d locations %v", code, locations(out))
	}
}

// Issue 21 item 3, as a table reports it: an MBS progressive wager "over
// the maximum" (5.14) or "under the minimum" (5.13) is refused, 422 naming
// body.facts.wager and citing ruling R22 (THB v9 also 3.5.3.1 and ruling
// R17), alone or as an additional event of a report (ruling R28); an RWS
// 5.1 box total the attached round does not show is refused naming
// body.facts.boxTotal.
func TestIrregularityFactsAgainstR22AndTheRound(t *testing.T) {
	for _, c := range []struct {
		name, body string
		loc        string
		rules      []string
	}{
		{"SSPv6 5.14 progressive over the maximum", `{"ruleset":"mbs-megalink-ssp-v6","kind":"wager_over_maximum","facts":{"seat":1,"wager":"progressive","maximum":400}}`,
			"body.facts.wager", []string{"ruling R22"}},
		{"THBv9 5.13 progressive under the minimum", `{"ruleset":"mbs-megalink-thb-v9","kind":"wager_under_minimum","facts":{"seat":1,"wager":"progressive","minimum":1000,"previouslyUnderMinimum":false}}`,
			"body.facts.wager", []string{"mbs-megalink-thb-v9 3.5.3.1", "ruling R17", "ruling R22"}},
		{"TCPv6 as an additional event (R28)", `{"ruleset":"mbs-megalink-tcp-v6","kind":"foreign_card","additional":[{"kind":"wager_over_maximum","facts":{"seat":1,"wager":"progressive","maximum":400}}],
		  "round":{"positions":[{"seat":1,"wagers":{"ante":1000,"play":1000,"progressive":500}}]}}`,
			"body.additional[0].facts.wager", []string{"ruling R22"}},
		{"RWS 5.1 box total below the round's", `{"ruleset":"rws-mlp-csp-v2","kind":"wager_over_maximum","facts":{"seat":2,"wager":"ante","maximum":50000,"boxTotal":55000,"noticedBeforeClose":true},
		  "round":{"positions":[{"seat":2,"wagers":{"ante":40000,"progressive":20000}}]}}`,
			"body.facts.boxTotal", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := doIrregular(t, http.MethodPost, "/v1/irregularities", c.body)
			if code != http.StatusUnprocessableEntity || !slices.Equal(locations(out), []string{c.loc}) {
				t.Fatalf("status %d locations %v: %v", code, locations(out), out)
			}
			var rules []string
			cited, _ := out["rules"].([]any)
			for _, r := range cited {
				rules = append(rules, r.(string))
			}
			if c.rules != nil && !slices.Equal(rules, c.rules) {
				t.Errorf("rules %v, want %v", rules, c.rules)
			}
		})
	}
}
