package httpapi

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The rulings and the documents' clauses resolve through the API (issue 15
// section 4): a citation an answer carries is a GET away.
func TestRulingsAndClausesResolve(t *testing.T) {
	h, _ := testServer(t)
	for _, tc := range []struct {
		path   string
		status int
		want   string // a part of the body
	}{
		{"/v1/rulings", 200, `"cite":"ruling R29"`},
		{"/v1/rulings/R29", 200, `"title":"Undoing one hit among majors paid one after another (R6, R7)"`},
		{"/v1/rulings/R12", 200, `"title":"Irregularities the cards show"`},
		{"/v1/rulings/r5", 200, `"id":"R5"`},
		{"/v1/rulings/R30", 404, `"location":"path.id"`},
		{"/v1/rulesets/mbs-megalink-tcp-v6/clauses/3.11.2", 200, `All \"Ante\" wagers shall be paid in accordance with the Pay Table stipulated in Rule 4.1.`},
		{"/v1/rulesets/mbs-megalink-tcp-v6/clauses/3.11", 200, `"cite":"mbs-megalink-tcp-v6 3.11.4"`},
		{"/v1/rulesets/mbs-megalink-tcp-v6/clauses/9.9", 404, `"location":"path.clause"`},
		{"/v1/rulesets/nope/clauses/3.1", 404, `"location":"path.id"`},
		{"/v1/rulesets/rws-mlp-csp-v2/document", 200, `"cite":"rws-mlp-csp-v2 5.18.1"`},
		{"/v1/rulesets/nope/document", 404, `"location":"path.id"`},
	} {
		t.Run(tc.path, func(t *testing.T) {
			w := do(t, h, "GET", tc.path, "", nil)
			if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.want) {
				t.Errorf("GET %s: %d %s; want %d and %s", tc.path, w.Code, w.Body.String(), tc.status, tc.want)
			}
		})
	}
	var list RulingList
	if err := json.Unmarshal(do(t, h, "GET", "/v1/rulings", "", nil).Body.Bytes(), &list); err != nil || len(list.Rulings) != 29 {
		t.Fatalf("GET /v1/rulings: %d rulings, %v; want 29", len(list.Rulings), err)
	}
}

// Every citation in the answers of the committed settle events and in the
// published rulesets resolves to a ruling or a clause of the cited
// document, through the API.
func TestEveryCitationResolves(t *testing.T) {
	h, _ := testServer(t)
	var answers [][]byte
	answers = append(answers, do(t, h, "GET", "/v1/rulesets", "", nil).Body.Bytes())
	files, _ := filepath.Glob(filepath.Join("..", "..", "events", "settle", "settle-*.json"))
	if len(files) == 0 {
		t.Fatal("no settle events")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ev struct {
			Body            string `json:"body"`
			IsBase64Encoded bool   `json:"isBase64Encoded"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		body := []byte(ev.Body)
		if ev.IsBase64Encoded {
			if body, err = base64.StdEncoding.DecodeString(ev.Body); err != nil {
				t.Fatal(err)
			}
		}
		w := do(t, h, "POST", "/v1/rounds/settle", "application/json", body)
		if w.Code != 200 {
			t.Fatalf("%s: %d %s", f, w.Code, w.Body.String())
		}
		answers = append(answers, w.Body.Bytes())
	}
	cites := map[string]bool{}
	for _, a := range answers {
		var v any
		if err := json.Unmarshal(a, &v); err != nil {
			t.Fatal(err)
		}
		collectCitations(v, "", cites)
	}
	if len(cites) < 40 {
		t.Fatalf("only %d distinct citations collected", len(cites))
	}
	for c := range cites {
		var path string
		if id, ok := strings.CutPrefix(c, "ruling "); ok {
			path = "/v1/rulings/" + id
		} else {
			id, clause, ok := strings.Cut(c, " ")
			if !ok {
				t.Errorf("citation %q is in neither form", c)
				continue
			}
			path = "/v1/rulesets/" + id + "/clauses/" + url.PathEscape(clause)
		}
		if w := do(t, h, "GET", path, "", nil); w.Code != 200 {
			t.Errorf("citation %q: GET %s answers %d", c, path, w.Code)
		}
	}
}

// collectCitations gathers the strings of every field named rule, rules or
// ending in Rule.
func collectCitations(v any, key string, into map[string]bool) {
	isRule := key == "rule" || key == "rules" || strings.HasSuffix(key, "Rule")
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			collectCitations(e, k, into)
		}
	case []any:
		for _, e := range v {
			collectCitations(e, key, into)
		}
	case string:
		if isRule && v != "" {
			into[v] = true
		}
	}
}
