package ruleset

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/money"
)

// lineOf is the line of wager w paying hand h.
func lineOf(t *testing.T, v View, w, h string) LineView {
	t.Helper()
	for _, wg := range v.Wagers {
		for _, l := range wg.Paytable {
			if wg.Name == w && l.Hand == h {
				return l
			}
		}
	}
	t.Fatalf("%s: no line %s/%s", v.ID, w, h)
	return LineView{}
}

// SSP v6 as published: the document (version 6, in force 2019-08-02
// Singapore time), the qualifier (3.10.2) and the 4.1.2 and 4.2 lines,
// each price as printed and as data, each rule cited.
func TestViewSSPv6Paytables(t *testing.T) {
	v := mustGet(t, SSPv6).View()
	if v.Document != (DocumentView{File: "mbs-megalink-singapore-stud-poker-v6.txt", Casino: "MBS", Version: 6, InForce: "2019-08-02T00:00:00+08:00"}) {
		t.Errorf("document %+v", v.Document)
	}
	if v.Qualifier.Kind != "ace_king" || v.Qualifier.Rule != "mbs-megalink-ssp-v6 3.10.2" {
		t.Errorf("qualifier %+v", v.Qualifier)
	}
	if l := lineOf(t, v, "bet", "royal_flush"); l.Pays.AsWritten != "250 to 1" || l.Pays.Kind != "to_one" ||
		*l.Pays.Odds != (money.Ratio{Num: 250, Den: 1}) || l.Pays.Amount != nil || l.Rule != "mbs-megalink-ssp-v6 4.1.2" {
		t.Errorf("4.1.2 royal flush: %+v", l)
	}
	if l := lineOf(t, v, "bet", "one_pair"); !l.OrLower || *l.Pays.Odds != (money.Ratio{Num: 1, Den: 1}) {
		t.Errorf("4.1.2 one pair or lower: %+v", l)
	}
	if l := lineOf(t, v, "progressive", "four_of_a_kind"); l.Pays.AsWritten != "$2,000" || *l.Pays.Amount != 200000 ||
		*l.Pays.Currency != money.SGD || l.Pays.Odds != nil || l.Rule != "mbs-megalink-ssp-v6 4.2" {
		t.Errorf("4.2 four of a kind: %+v", l)
	}
	if l := lineOf(t, v, "progressive", "straight_flush"); l.Pays.AsWritten != "10% of the Progressive Jackpot" || *l.Pays.BasisPoints != 1000 {
		t.Errorf("4.2 straight flush: %+v", l)
	}
	if v.Caps != nil || v.Selections != nil {
		t.Errorf("SSP v6 has no caps or selections: %+v %+v", v.Caps, v.Selections)
	}
}

// RWS CSP v2: the Bet is twice the Ante, another amount settled under
// 5.3 (ruling R20), and its winnings per box are capped at SGD 100,000
// (4.1.1, ruling R11).
func TestViewRWSMultipleAndCap(t *testing.T) {
	v := mustGet(t, RWSCSPv2).View()
	var bet *WagerView
	for i := range v.Wagers {
		if v.Wagers[i].Name == "bet" {
			bet = &v.Wagers[i]
		}
	}
	if bet == nil || bet.Multiple == nil || *bet.Multiple != (MultipleView{Of: "ante", Times: 2, Fixed: false, Rule: "rws-mlp-csp-v2 5.3"}) {
		t.Fatalf("bet multiple: %+v", bet)
	}
	want := []CapView{{Wager: "bet", Kind: "winnings_per_box", Amount: 100_000_00, Currency: money.SGD, Rule: "rws-mlp-csp-v2 4.1.1"}}
	if len(v.Caps) != 1 || v.Caps[0] != want[0] {
		t.Errorf("caps %+v, want %+v", v.Caps, want)
	}
}

// SSP v4's system selections (ruling R13): Magic Card, Lucky Player and
// Lucky Dealer, each 5 to 1 under 4.5 on its jackpot wager.
func TestViewSSPv4Selections(t *testing.T) {
	v := mustGet(t, SSPv4).View()
	if len(v.Selections) != 4 {
		t.Fatalf("selections %+v", v.Selections)
	}
	s := v.Selections[3]
	if s.Name != "lucky_dealer" || s.Wager != "progressiveDealer" || s.Rule != "mbs-ssp-v4 4.4.1" || s.PayRule != "mbs-ssp-v4 4.5" ||
		s.Pays.AsWritten != "5 to 1" || *s.Pays.Odds != (money.Ratio{Num: 5, Den: 1}) {
		t.Errorf("lucky dealer: %+v", s)
	}
}
