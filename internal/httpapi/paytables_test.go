package httpapi

import (
	"encoding/json"
	"testing"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

func TestGetRuleset(t *testing.T) {
	h, _ := testServer(t)
	w := do(t, h, "GET", "/v1/rulesets/mbs-megalink-ssp-v6", "", nil)
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	var rs ruleset.View
	if err := json.Unmarshal(w.Body.Bytes(), &rs); err != nil {
		t.Fatal(err)
	}
	// mbs-megalink-ssp-v6: version 6 in force 2019-08-02 (rules README).
	if rs.Document.Version != 6 || rs.Document.InForce != "2019-08-02T00:00:00+08:00" || rs.Document.Casino != "MBS" {
		t.Errorf("document %+v", rs.Document)
	}
	if rs.Qualifier.Kind != "ace_king" || rs.Qualifier.Rule != "mbs-megalink-ssp-v6 3.10.2" {
		t.Errorf("qualifier %+v", rs.Qualifier)
	}
	lines := map[string]ruleset.LineView{}
	for _, wg := range rs.Wagers {
		for _, l := range wg.Paytable {
			lines[wg.Name+"/"+l.Hand] = l
		}
	}
	// SSP v6 4.1.2 and 4.2, line by line as printed.
	for key, want := range map[string]string{
		"bet/royal_flush":            "250 to 1",
		"bet/one_pair":               "1 to 1",
		"progressive/royal_flush":    "100% of the Progressive Jackpot",
		"progressive/straight_flush": "10% of the Progressive Jackpot",
		"progressive/four_of_a_kind": "$2,000",
		"progressive/flush":          "$100",
	} {
		l, ok := lines[key]
		if !ok || l.Pays.AsWritten != want {
			t.Errorf("%s: got %+v, want %q", key, l, want)
		}
	}
	if l := lines["progressive/four_of_a_kind"]; l.Pays.Amount == nil || *l.Pays.Amount != 200000 || l.Rule != "mbs-megalink-ssp-v6 4.2" {
		t.Errorf("progressive four of a kind: %+v", l)
	}
	if l := lines["bet/one_pair"]; !l.OrLower || l.Pays.Odds == nil || *l.Pays.Odds != (money.Ratio{Num: 1, Den: 1}) {
		t.Errorf("bet one pair or lower: %+v", l)
	}
}

func TestListRulesets(t *testing.T) {
	h, _ := testServer(t)
	w := do(t, h, "GET", "/v1/rulesets", "", nil)
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	var body struct{ Rulesets []ruleset.View }
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, rs := range body.Rulesets {
		ids = append(ids, rs.ID)
		if len(rs.Wagers) == 0 {
			t.Errorf("%s: no wagers", rs.ID)
		}
	}
	want := []string{"mbs-megalink-ssp-v6", "mbs-megalink-tcp-v6", "mbs-megalink-thb-v9", "mbs-ssp-v4", "rws-mlp-csp-v2"}
	if len(ids) != len(want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("ids %v, want %v", ids, want)
		}
	}
}

func TestUnknownRulesetIs404NamingPathID(t *testing.T) {
	h, _ := testServer(t)
	w := do(t, h, "GET", "/v1/rulesets/mbs-ssp-v5", "", nil)
	if w.Code != 404 {
		t.Fatalf("status %d", w.Code)
	}
	p := decodeProblemDoc(t, w)
	if len(p.Errors) != 1 || p.Errors[0].Location != "path.id" {
		t.Fatalf("problem does not name path.id: %s", w.Body)
	}
}
