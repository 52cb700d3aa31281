package analysis

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// THB v9 4.1.1 Bonus, by enumeration of all 1,326 x 1,225 hole-card deals
// with the settlement's own classifier (ruleset.HoleBonusHand). The counts
// are the textbook ones: A-A is 6 of 1,326 two-card hands, and the dealer
// then holds the other two Aces in 1 of 1,225 deals.
func TestTHBBonusCounts(t *testing.T) {
	doc := Table2{ruleset.HoleAAandDealerAA: To(1000), ruleset.HoleAA: To(30), ruleset.HoleAKSuited: To(25), ruleset.HoleAQAJSuited: To(20),
		ruleset.HoleAKOffsuit: To(15), ruleset.HoleHighPair: To(10), ruleset.HoleAQAJOffsuit: To(5), ruleset.HoleLowPair: To(3)}
	r := THBBonus(ruleset.HoleBonusHand, doc, "4.1.1")
	want := map[string]uint64{
		ruleset.HoleAAandDealerAA: 6 * 1,
		ruleset.HoleAA:            6 * 1224,
		ruleset.HoleAKSuited:      4 * 1225,
		ruleset.HoleAQAJSuited:    8 * 1225,
		ruleset.HoleAKOffsuit:     12 * 1225,
		ruleset.HoleHighPair:      18 * 1225,
		ruleset.HoleAQAJOffsuit:   24 * 1225,
		ruleset.HoleLowPair:       54 * 1225,
		"no_bonus_hand":           (1326 - 126) * 1225,
	}
	for _, o := range r.Outcomes {
		if o.Count != want[o.Outcome] {
			t.Errorf("%s: %d deals, want %d", o.Outcome, o.Count, want[o.Outcome])
		}
	}
	// total returned: (6*1001 + 6*1224*31 + 1225*(4*26 + 8*21 + 12*16 + 18*11 + 24*6 + 54*4)) / (1326*1225)
	if got := r.Return.Rat().RatString(); got != "148562/162435" {
		t.Errorf("return %s, want 148562/162435 (91.459353%%)", got)
	}
}
