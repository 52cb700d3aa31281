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

// Citations in the two forms the service writes resolve to their text.
func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		cite, want string // want: a part of the resolved text ("" = must not resolve)
	}{
		{"mbs-megalink-tcp-v6 3.11.2", `All "Ante" wagers shall be paid in accordance with the Pay Table stipulated in Rule 4.1.`},
		{"mbs-megalink-tcp-v6 3.11.1", `There shall be no payment on the "Play" wagers.`},
		{"rws-mlp-csp-v2 1.14", "Qualifying Hand"},
		{"mbs-megalink-ssp-v6 4.2", "Pay Table:\nHand\tPays\nRoyal Flush\t100% of the \"Progressive Jackpot\""}, // a heading and its table
		{"rws-mlp-csp-v2 4.1.1", "The maximum payout for a BET shall be SGD 100,000.00 for each betting box."},
		{"mbs-ssp-v4 5.2", ""},
		{"ruling R12", "The same card appearing twice"},
		{"ruling R5", "split (pool + (n-1) x reset)"},
		{"ruling R29", "only that hit's own entries are reversed"},
		{"ruling R30", ""},
		{"mbs-megalink-tcp-v6 9.99", ""},
		{"nope 3.1", ""},
		{"R12", ""},
	} {
		t.Run(tc.cite, func(t *testing.T) {
			c, ok := Resolve(tc.cite)
			if tc.cite == "mbs-ssp-v4 5.2" {
				// SSP v4's section 5 numbers its clauses: 5.2 must resolve.
				if !ok || c.Clause == nil || c.Clause.Text == "" {
					t.Fatalf("%q does not resolve", tc.cite)
				}
				return
			}
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
			if !strings.Contains(text, tc.want) {
				t.Errorf("%q resolves to %q, want it to contain %q", tc.cite, text, tc.want)
			}
		})
	}
}

// A clause's continuation lines join its text, and a sub-clause is its own
// clause (TCP 3.11 and its four parts).
func TestClausesAndSubclauses(t *testing.T) {
	d, _ := DocumentOf("mbs-megalink-tcp-v6")
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
	for _, d := range Documents {
		if n := len(d.Clauses()); n < 50 {
			t.Errorf("%s: %d clauses parsed", d.RulesetID, n)
		}
	}
}
