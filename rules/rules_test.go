package rules

import (
	"fmt"
	"strings"
	"testing"
)

// Every ruling the service cites, R1-R29, is published, in order, with a
// title and a text.
func TestRulingsR1ToR29(t *testing.T) {
	all := Rulings()
	if len(all) != 29 {
		t.Fatalf("%d rulings, want 29", len(all))
	}
	for i, r := range all {
		if want := fmt.Sprintf("R%d", i+1); r.ID != want {
			t.Errorf("ruling %d is %s, want %s", i, r.ID, want)
		}
		if r.Title == "" || len(r.Text) < 80 {
			t.Errorf("%s: title %q, text of %d bytes", r.ID, r.Title, len(r.Text))
		}
	}
}

func TestRulingByID(t *testing.T) {
	for _, tc := range []struct {
		id, want string
		ok       bool
	}{
		{"R12", "R12", true}, {"r12", "R12", true}, {"12", "R12", true}, {"R28", "R28", true}, {"R29", "R29", true},
		{"R0", "", false}, {"R30", "", false}, {"R", "", false}, {"x", "", false},
	} {
		t.Run(tc.id, func(t *testing.T) {
			r, ok := RulingByID(tc.id)
			if ok != tc.ok || r.ID != tc.want {
				t.Errorf("RulingByID(%q) = %q, %v; want %q, %v", tc.id, r.ID, ok, tc.want, tc.ok)
			}
		})
	}
}

// A ruling resolves by itself; a clause in the document the lookup gives
// for its ruleset id (a catalogue's: internal/ruleset's test resolves
// every form the service writes against the rulesets' own documents).
func TestResolve(t *testing.T) {
	tcp := Document{RulesetID: "mbs-megalink-tcp-v6", File: "mbs-megalink-three-card-poker-v6.txt"}
	asked := ""
	lookup := func(id string) (Document, bool) {
		asked = id
		return tcp, id == tcp.RulesetID
	}
	if c, ok := Resolve("ruling R12", lookup); !ok || c.Ruling == nil || !strings.Contains(c.Ruling.Text, "The same card appearing twice") || asked != "" {
		t.Errorf("ruling R12: %+v %v (asked for %q)", c, ok, asked)
	}
	if c, ok := Resolve("mbs-megalink-tcp-v6 3.11.2", lookup); !ok || c.RulesetID != "mbs-megalink-tcp-v6" || c.Clause == nil ||
		!strings.Contains(c.Clause.Text, "Pay Table stipulated in Rule 4.1.") {
		t.Errorf("mbs-megalink-tcp-v6 3.11.2: %+v %v", c, ok)
	}
	for _, cite := range []string{"mbs-megalink-ssp-v6 4.2", "mbs-megalink-tcp-v6 9.99", "ruling R30", "R12"} {
		if c, ok := Resolve(cite, lookup); ok {
			t.Errorf("%q resolves to %+v, want nothing", cite, c)
		}
	}
}

// A clause's continuation lines join its text, and a sub-clause is its own
// clause (TCP 3.11 and its four parts).
func TestClausesAndSubclauses(t *testing.T) {
	d := Document{RulesetID: "mbs-megalink-tcp-v6", File: "mbs-megalink-three-card-poker-v6.txt"}
	c, ok := d.Clause("3.11")
	if !ok || !strings.HasPrefix(c.Text, "If the Dealer does not have a poker hand containing at least one Queen") {
		t.Fatalf("3.11 = %q, %v", c.Text, ok)
	}
	var nums []string
	for _, s := range d.Subclauses("3.11") {
		nums = append(nums, s.Number)
	}
	if got := strings.Join(nums, " "); got != "3.11.1 3.11.2 3.11.3 3.11.4" {
		t.Errorf("sub-clauses of 3.11: %s", got)
	}
	if files := Files(); len(files) == 0 {
		t.Error("no embedded documents")
	}
	for _, f := range Files() {
		if n := len(Document{File: f}.Clauses()); n < 50 {
			t.Errorf("%s: %d clauses parsed", f, n)
		}
	}
}
