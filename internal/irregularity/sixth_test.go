package irregularity

import (
	"slices"
	"testing"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/ruleset/rulesettest"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// sixthID is the sixth, test-only ruleset (internal/ruleset/rulesettest):
// SSP v6 with Full House 8 to 1 on the Bet and RWS-style major prizes.
const sixthID = rulesettest.SixthID

// sixthCatalogue registers the sixth ruleset from its one place.
func sixthCatalogue(t *testing.T) ruleset.Catalogue {
	t.Helper()
	cat, err := rulesettest.SixthCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.With(rulesettest.Sixth()); err == nil {
		t.Fatal("a second ruleset with the same id was accepted")
	}
	return cat
}

// TestSixthRulesetSettlesAndDecides: a ruleset added as data alone is
// settled (its own paytable, its own citations) and its irregularities
// decided (the Megalink section 5 its description names), and the
// standard catalogue does not see it.
func TestSixthRulesetSettlesAndDecides(t *testing.T) {
	cat := sixthCatalogue(t)
	if _, ok := ruleset.Lookup(sixthID); ok {
		t.Fatal("the standard catalogue sees the test ruleset")
	}
	d, _ := cat.Lookup(sixthID)
	if !d.Majors.Sequential || !d.Majors.SettleWindow {
		t.Fatalf("majors %+v", d.Majors)
	}

	t.Run("settle_4.1.2_FullHouse8To1", func(t *testing.T) {
		round := settle.Round{Ruleset: string(sixthID), Dealer: "As Kd 7h 4c 2s", ProgressiveUnit: 100,
			Positions: []settle.Position{{Seat: 2, Cards: "Qh Qd Qs 9c 9d", Wagers: map[string]money.Amount{"ante": 1000, "bet": 2000, "progressive": 100}}}}
		s, err := settle.Settler{Rulesets: cat}.Settle(round)
		if err != nil {
			t.Fatal(err)
		}
		got := map[ruleset.Wager]money.Amount{}
		var betRules []string
		for _, l := range s.Positions[0].Lines {
			got[l.Wager] = l.Returned
			if l.Wager == ruleset.Bet {
				betRules = l.Rules
			}
		}
		// Ante 1 to 1: 2000; Bet 8 to 1: 2000 + 16000; Full House SGD 200.
		want := map[ruleset.Wager]money.Amount{ruleset.Ante: 2000, ruleset.Bet: 18000, ruleset.Progressive: 20000}
		for w, a := range want {
			if got[w] != a {
				t.Errorf("%s returned %d, want %d", w, got[w], a)
			}
		}
		if !slices.Contains(betRules, string(sixthID)+" 4.1.2") {
			t.Errorf("bet rules %v do not cite %s 4.1.2", betRules, sixthID)
		}
		// The standard SSP v6 pays the same hand 7 to 1: 2000 + 14000.
		round.Ruleset = string(ruleset.SSPv6)
		std, err := settle.Settle(round)
		if err != nil || std.Positions[0].Lines[1].Returned != 16000 {
			t.Fatalf("standard SSP v6 bet: %+v %v", std.Positions[0].Lines, err)
		}
		if _, err := settle.Settle(settle.Round{Ruleset: string(sixthID)}); err == nil {
			t.Fatal("package settle.Settle knows the test ruleset")
		}
	})

	t.Run("irregularity_5.4_TwoCardsExposedVoid", func(t *testing.T) {
		rs, ok := For(cat, sixthID)
		if !ok {
			t.Fatal("no catalogue for the sixth ruleset")
		}
		if !slices.Equal(rs.Wagers, []string{"ante", "bet", "progressive"}) || rs.ReferClause != "6.1" {
			t.Fatalf("wagers %v refer %q", rs.Wagers, rs.ReferClause)
		}
		out, err := Decide(rs, "cards_exposed_in_deal", map[string]any{"cardsExposed": 2},
			round(pos(1, "ante=1000", "bet=2000", "progressive=100")))
		if err != nil {
			t.Fatal(err)
		}
		if out.Action != RoundVoid || !slices.Equal(out.Rules, []string{string(sixthID) + " 5.4"}) || out.Settlement.TotalReturned != 3100 {
			t.Fatalf("%s %v returned %d", out.Action, out.Rules, out.Settlement.TotalReturned)
		}
		other, _ := Decide(rs, KindOther, nil, nil)
		if other.Action != Referred || !slices.Equal(other.Rules, []string{string(sixthID) + " 6.1"}) {
			t.Fatalf("other: %s %v", other.Action, other.Rules)
		}
	})
}

// RWS 5.9 is data: the burnt-card kind is decided under the clause the
// description names, and a ruleset of the same section 5 whose game burns
// no card has no such kind (another ruleset's kind: referred, 5.24).
func TestBurntCardClauseIsData_RWS_5_9(t *testing.T) {
	r, _ := ruleset.Get(ruleset.RWSCSPv2)
	r.ID, r.Irregularities.BurntCard = "test-rws-no-burn", ""
	cat, err := ruleset.Standard().With(r)
	if err != nil {
		t.Fatal(err)
	}
	std, _ := For(cat, ruleset.RWSCSPv2)
	out, err := Decide(std, "burnt_card_not_discarded", map[string]any{"playerSawCards": true, "reconstructable": true}, nil)
	if err != nil || out.Action != RoundVoid || !slices.Equal(out.Rules, []string{"rws-mlp-csp-v2 5.9", "rws-mlp-csp-v2 5.22"}) {
		t.Fatalf("standard: %s %v %v", out.Action, out.Rules, err)
	}
	nb, _ := For(cat, "test-rws-no-burn")
	if _, ok := nb.Kind("burnt_card_not_discarded"); ok {
		t.Fatal("a game that burns no card has the burnt-card kind")
	}
	out, err = Decide(nb, "burnt_card_not_discarded", nil, nil)
	if err != nil || out.Action != Referred || !slices.Equal(out.Rules, []string{"test-rws-no-burn 5.24"}) {
		t.Fatalf("no burn: %s %v %v", out.Action, out.Rules, err)
	}
}

// RWS 5.1 is data: the maximum is on the box's total (facts.boxTotal); a
// ruleset of the same section 5 with the maximum on each wager returns the
// excess of the wager itself (ruling R11): 5000 over 3000 returns 2000.
func TestBoxMaximumIsData_RWS_5_1(t *testing.T) {
	r, _ := ruleset.Get(ruleset.RWSCSPv2)
	r.ID, r.Irregularities.BoxMaximum = "test-rws-wager-maximum", false
	cat, err := ruleset.Standard().With(r)
	if err != nil {
		t.Fatal(err)
	}
	std, _ := For(cat, ruleset.RWSCSPv2)
	k, _ := std.Kind("wager_over_maximum")
	if !slices.ContainsFunc(k.Facts, func(f Fact) bool { return f.Name == "boxTotal" }) {
		t.Fatal("RWS 5.1: no boxTotal fact")
	}
	pw, _ := For(cat, "test-rws-wager-maximum")
	out, err := Decide(pw, "wager_over_maximum", map[string]any{"seat": 1, "wager": "ante", "maximum": 3000}, round(pos(1, "ante=5000")))
	if err != nil || out.Action != SettledToMaximum || out.Settlement.TotalReturned != 2000 {
		t.Fatalf("%s %v %v", out.Action, out.Settlement, err)
	}
}
