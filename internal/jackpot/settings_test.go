package jackpot_test

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
)

// TestPatchNamesTheRulesetItsCurrencyCannotServe: audit defect 9 at PATCH.
// An SSP v4 pool in USD (SSP v4 settles in any currency) cannot take
// mbs-megalink-ssp-v6, whose prizes are in SGD (4.2): the change names
// rulesets[1].
func TestPatchNamesTheRulesetItsCurrencyCannotServe(t *testing.T) {
	s := jackpottest.MBSSettings()
	s.Currency, s.Rulesets = "USD", []string{"mbs-ssp-v4"}
	p, _, err := jackpot.New("p", s, ops, t0)
	if err != nil {
		t.Fatal(err)
	}
	ns := p.Settings
	ns.Rulesets = []string{"mbs-ssp-v4", "mbs-megalink-ssp-v6"}
	if _, _, err := jackpot.ChangeSettings(p, ns, ops, "", t0); err == nil || fieldOf(err) != "rulesets[1]" {
		t.Fatalf("%v, want invalid rulesets[1]", err)
	}
}
