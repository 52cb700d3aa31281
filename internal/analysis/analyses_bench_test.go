package analysis

import (
	"context"
	"testing"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// One benchmark per paytable analysis, from a cold engine each time (as a
// `make analysis` run or a what-if request pays): docs/analysis.md's before and
// after figures. THB's main game is timed on one flop class of 1,755
// (BenchmarkAnalysisTHBMainFlop; `make analysis` times the whole).

func BenchmarkAnalysisTCP(b *testing.B) {
	pp, ab := tcpDoc()
	for b.Loop() {
		e := newTCPEngine()
		e.AntePlay(ab, "4.1", "4.2")
		e.PairPlus(pp, "4.3")
	}
}

func BenchmarkAnalysisTHBBonus(b *testing.B) {
	doc := Table2{ruleset.HoleAAandDealerAA: To(1000), ruleset.HoleAA: To(30), ruleset.HoleAKSuited: To(25), ruleset.HoleAQAJSuited: To(20),
		ruleset.HoleAKOffsuit: To(15), ruleset.HoleHighPair: To(10), ruleset.HoleAQAJOffsuit: To(5), ruleset.HoleLowPair: To(3)}
	for b.Loop() {
		THBBonus(ruleset.HoleBonusHand, doc, "4.1.1")
	}
}

// BenchmarkAnalysisRulesets is every ruleset's figures as the service
// computes them (THB's main game served from the embedded figures).
func BenchmarkAnalysisRulesets(b *testing.B) {
	for b.Loop() {
		if _, err := Rulesets(context.Background(), DefaultUnit); err != nil {
			b.Fatal(err)
		}
	}
}
