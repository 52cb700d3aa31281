package ruleset_test

import (
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/ruleset/rulesettest"
	"github.com/tablesettle/tablesettle/rules"
)

// Each ruleset's description carries its rule document (Ruleset.Rules):
// the catalogue is the one list of documents. Every document embedded in
// rules/ is one standard ruleset's, named by its id and file, with its
// title as the document gives it (the five of today's as they were
// published); the sixth, test-only ruleset brings its own.
func TestEachDescriptionCarriesItsDocument(t *testing.T) {
	titles := map[ruleset.ID]string{
		ruleset.SSPv6:    "Megalink Singapore Stud Poker (MBS), version 6",
		ruleset.SSPv4:    "Singapore Stud Poker (MBS), version 4",
		ruleset.TCPv6:    "Megalink Three Card Poker (MBS), version 6",
		ruleset.THBv9:    "Megalink Texas Hold'em Bonus Progressive (MBS), version 9",
		ruleset.RWSCSPv2: "Multi-Link Progressive Casino Stud Poker (RWS), version 2",
	}
	files := map[string]ruleset.ID{}
	for _, r := range ruleset.All() {
		d := r.Rules
		title, ok := titles[r.ID]
		if !ok {
			title = d.Title // a ruleset added since: any title but none
		}
		if d.RulesetID != string(r.ID) || d.File != r.Document || d.Title != title || d.Title == "" || d.Body != "" {
			t.Errorf("%s: document %+v, want id %s, file %s, title %q", r.ID, d, r.ID, r.Document, title)
		}
		if n := len(d.Clauses()); n < 50 {
			t.Errorf("%s: %d clauses", r.ID, n)
		}
		files[d.File] = r.ID
	}
	for _, f := range rules.Files() {
		if _, ok := files[f]; !ok {
			t.Errorf("rules/%s is no ruleset's document", f)
		}
	}
	sixth := rulesettest.Sixth()
	if d := sixth.Rules; d.RulesetID != string(sixth.ID) || d.File != sixth.Document || d.Title == "" || len(d.Clauses()) == 0 {
		t.Errorf("the sixth's document %+v", d)
	}
}

// Citations in the two forms the service writes resolve to their text,
// against the documents of the catalogue's descriptions; a ruleset added
// to a catalogue resolves in that catalogue only.
func TestCitationsResolve(t *testing.T) {
	std := ruleset.Standard()
	for _, tc := range []struct {
		cite, want string // want: a part of the resolved text ("" = must not resolve)
	}{
		{"mbs-megalink-tcp-v6 3.11.2", `All "Ante" wagers shall be paid in accordance with the Pay Table stipulated in Rule 4.1.`},
		{"mbs-megalink-tcp-v6 3.11.1", `There shall be no payment on the "Play" wagers.`},
		{"rws-mlp-csp-v2 1.14", "Qualifying Hand"},
		{"mbs-megalink-ssp-v6 4.2", "Pay Table:\nHand\tPays\nRoyal Flush\t100% of the \"Progressive Jackpot\""}, // a heading and its table
		{"rws-mlp-csp-v2 4.1.1", "The maximum payout for a BET shall be SGD 100,000.00 for each betting box."},
		{"mbs-ssp-v4 5.2", "*"}, // SSP v4's section 5 numbers its clauses: 5.2 must resolve
		{"mbs-megalink-thb-v9 3.5.3", "*"},
		{"ruling R12", "The same card appearing twice"},
		{"ruling R5", "split (pool + (n-1) x reset)"},
		{"ruling R29", "only that hit's own entries are reversed"},
		{"ruling R30", ""},
		{"mbs-megalink-tcp-v6 9.99", ""},
		{"nope 3.1", ""},
		{"R12", ""},
		{"test-ssp-v6-sequential 4.1.2", ""},
	} {
		t.Run(tc.cite, func(t *testing.T) {
			c, ok := std.Resolve(tc.cite)
			if tc.want == "" {
				if ok {
					t.Fatalf("%q resolves to %+v, want nothing", tc.cite, c)
				}
				return
			}
			if !ok {
				t.Fatalf("%q does not resolve", tc.cite)
			}
			text := ""
			if c.Ruling != nil {
				text = c.Ruling.Text
			} else {
				text = c.Clause.Text
			}
			if tc.want == "*" && text == "" || tc.want != "*" && !strings.Contains(text, tc.want) {
				t.Errorf("%q resolves to %q, want it to contain %q", tc.cite, text, tc.want)
			}
		})
	}
	cat, err := rulesettest.SixthCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := cat.Resolve("test-ssp-v6-sequential 4.1.2"); !ok || c.RulesetID != "test-ssp-v6-sequential" || !strings.Contains(c.Clause.Text, "Full House 8 to 1") {
		t.Errorf("the sixth's 4.1.2 in its catalogue: %+v %v", c, ok)
	}
	if c, ok := cat.Resolve("mbs-megalink-tcp-v6 3.11.2"); !ok || c.RulesetID != "mbs-megalink-tcp-v6" {
		t.Errorf("a standard citation in the sixth's catalogue: %+v %v", c, ok)
	}
}
