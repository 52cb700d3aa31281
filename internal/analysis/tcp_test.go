package analysis

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/hand"
)

func tcpDoc() (pairPlus, anteBonus Table3) {
	return Table3{hand.StraightFlush: To(40), hand.ThreeOfAKind: To(30), hand.Straight: To(5), hand.Flush: To(4), hand.OnePair: To(1)},
		Table3{hand.StraightFlush: To(5), hand.ThreeOfAKind: To(4), hand.Straight: To(1)}
}

func TestTCPExplore(t *testing.T) {
	e := newTCPEngine()
	pp, ab := tcpDoc()
	t.Logf("classes %d", len(e.classes))
	r := e.PairPlus(pp, "4.3")
	t.Logf("pair plus %+v", r.HouseEdge)
	a := e.AntePlay(ab, "4.1", "4.2")
	t.Logf("ante %s edge %+v risk %+v rate %v bonus %v", a.OptimalRule, a.HouseEdge, a.ElementOfRisk, a.PlayRate, a.AnteBonus)
	t.Logf("qual %+v", e.dealerQualifies())
}
