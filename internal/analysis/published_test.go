package analysis

import (
	"bytes"
	"context"
	"testing"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Every embedded figure is recomputed (the whole set takes about 2-4 s on
// two cores, the stud pass included) and must equal, byte for byte, what
// `make analysis` wrote: the served figures are the code's figures.
func TestPublishedFiguresRecompute(t *testing.T) {
	reports, err := Rulesets(context.Background(), DefaultUnit)
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != len(ruleset.All()) {
		t.Fatalf("%d reports for %d rulesets", len(reports), len(ruleset.All()))
	}
	for _, r := range reports {
		got, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := Published(r.Ruleset)
		if !ok {
			t.Errorf("%s: no data/%s.json; run make analysis", r.Ruleset, r.Ruleset)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: data/%s.json differs from the figures the code computes; run make analysis", r.Ruleset, r.Ruleset)
		}
		if _, ok, err := PublishedFigures(r.Ruleset); !ok || err != nil {
			t.Errorf("%s: decode: %v", r.Ruleset, err)
		}
	}
}

// The paytables the analysis reads from package ruleset are the documents'
// (TCP v6 4.2, 4.3; SSP v6 4.1.2, SSP v4 4.1.2, RWS 4.1): the analysis
// figures are of the tables that settle rounds.
func TestRulesetSpecs(t *testing.T) {
	pp, ab := tcpDoc()
	tcp, _ := ruleset.Get(ruleset.TCPv6)
	s, err := FromRuleset(tcp, DefaultUnit)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.PairPlus) != len(pp) || len(s.AnteBonus) != len(ab) {
		t.Fatalf("TCP tables %v %v", s.PairPlus, s.AnteBonus)
	}
	for c, o := range pp {
		if s.PairPlus[c] != o {
			t.Errorf("Pair Plus %s: %v, document 4.3 %v", c, s.PairPlus[c], o)
		}
	}
	for c, o := range ab {
		if s.AnteBonus[c] != o {
			t.Errorf("Ante Bonus %s: %v, document 4.2 %v", c, s.AnteBonus[c], o)
		}
	}
	want := []int64{0, 1, 1, 2, 3, 4, 5, 7, 20, 50, 250} // SSP v6 4.1.2 by category
	for _, id := range []ruleset.ID{ruleset.SSPv6, ruleset.SSPv4, ruleset.RWSCSPv2} {
		r, _ := ruleset.Get(id)
		s, err := FromRuleset(r, DefaultUnit)
		if err != nil {
			t.Fatal(err)
		}
		for c := 1; c < len(want); c++ {
			if s.StudBet[c] != To(want[c]) {
				t.Errorf("%s Bet category %d: %v, want %d to 1", id, c, s.StudBet[c], want[c])
			}
		}
		if (id == ruleset.RWSCSPv2) != (s.StudCapNote != "") {
			t.Errorf("%s: cap note %q", id, s.StudCapNote)
		}
	}
}

// The element of risk and the house edge of the documents' own Bet table
// (royal 250, straight flush 50; RWS's SGD 100,000 cap left out), pinned so
// that a change to the evaluator or the engine cannot pass unseen.
func TestStudDocumentFigures(t *testing.T) {
	r, ok, err := PublishedFigures(string(ruleset.SSPv6))
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	if len(r.AnteBet) != 2 {
		t.Fatalf("%d strategies", len(r.AnteBet))
	}
	if got := r.AnteBet[0].HouseEdge.Percent; got != "5.199082" {
		t.Errorf("optimal house edge %s%%", got)
	}
	if got := r.AnteBet[1].HouseEdge.Percent; got != "5.444397" {
		t.Errorf("pair or better house edge %s%%", got)
	}
	if got := r.DealerQualifies.Rat().RatString(); got != "205/364" { // 1,463,700 / 2,598,960
		t.Errorf("dealer qualifies %s", got)
	}
}
