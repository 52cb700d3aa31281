package irregularity

import (
	"slices"
	"testing"

	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// TestSameRulesetsAndWagersAsSettle: the catalogue covers exactly the
// rulesets settlement knows, and each ruleset's wager names are the wagers
// a settle round may carry (TCP's Ante Bonus is a payment on the Ante, not
// a wager placed), so a round sent to settle is a round this package reads.
func TestSameRulesetsAndWagersAsSettle(t *testing.T) {
	var ids []string
	for _, id := range ruleset.IDs() {
		ids = append(ids, string(id))
	}
	slices.Sort(ids)
	if mine := slices.Sorted(slices.Values(IDs)); !slices.Equal(ids, mine) {
		t.Errorf("ruleset ids %v, catalogue ids %v", ids, IDs)
	}
	for _, id := range IDs {
		rs, _ := ruleset.Get(ruleset.ID(id))
		var want []string
		for _, w := range rs.Wagers {
			if w.PaidOn == "" {
				want = append(want, string(w.Name))
			}
		}
		cat, _ := Catalogue(id)
		got := slices.Clone(cat.Wagers)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: catalogue wagers %v, settle wagers %v", id, got, want)
		}
	}
	if maxAmount != settle.MaxAmount {
		t.Errorf("the largest wager %d differs from settle's %d", maxAmount, settle.MaxAmount)
	}
}
