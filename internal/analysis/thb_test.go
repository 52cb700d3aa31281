package analysis

import "testing"

func TestTHBExplore(t *testing.T) {
	r := THBBonus(holeBonusHand, Table2{HoleAAandDealerAA: To(1000), HoleAA: To(30), HoleAKSuited: To(25), HoleAQAJSuited: To(20),
		HoleAKOffsuit: To(15), HoleHighPair: To(10), HoleAQAJOffsuit: To(5), HoleLowPair: To(3)}, "4.1.1")
	t.Logf("%+v %+v", r.Return, r.HouseEdge)
}
