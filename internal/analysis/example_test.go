package analysis_test

import (
	"context"
	"fmt"

	"github.com/tablesettle/tablesettle/internal/analysis"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// A what-if Pair Plus table: TCP v6 4.3 with straights at 6 to 1 and
// flushes at 3 to 1, the common casino table (7.28% published).
func ExampleCompute() {
	figs, err := analysis.Compute(context.Background(), []analysis.Spec{{
		Ruleset: "what-if", Game: "three_card", PairPlusRule: "proposed",
		PairPlus: analysis.Table3{hand.StraightFlush: analysis.To(40), hand.ThreeOfAKind: analysis.To(30),
			hand.Straight: analysis.To(6), hand.Flush: analysis.To(3), hand.OnePair: analysis.To(1)},
	}})
	if err != nil {
		panic(err)
	}
	pp := figs[0].Wagers[0]
	fmt.Println(pp.Wager, pp.HouseEdge.Num+"/"+pp.HouseEdge.Den, pp.HouseEdge.Percent+"%")
	for _, o := range pp.Outcomes {
		fmt.Println(o.Outcome, o.Count, o.Pays)
	}
	// Output:
	// pair_plus 402/5525 7.276018%
	// straight_flush 48 40 to 1
	// three_of_a_kind 52 30 to 1
	// straight 720 6 to 1
	// flush 1096 3 to 1
	// one_pair 3744 1 to 1
	// high_card 16440 loses
}
