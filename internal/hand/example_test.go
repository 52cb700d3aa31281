package hand_test

import (
	"fmt"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// Two five-card hands compared under SSP v6 3.12.2: equal pairs, so the
// unpaired card decides.
func ExampleEval5() {
	p := card.MustParseList("Q♠ Q♥ 6♣ 6♥ 4♦")
	d := card.MustParseList("Qc Qd 6s 6d 3d")
	player := hand.Eval5(p[0], p[1], p[2], p[3], p[4])
	dealer := hand.Eval5(d[0], d[1], d[2], d[3], d[4])
	fmt.Println(player.Category(), player > dealer)
	// Output: two_pair true
}

// Hold'em (THB v9 3.10): the best five of the two hole cards and the five
// community cards, and which five they are.
func ExampleBest() {
	cards := card.MustParseList("Ah Kh  Qh Jh 2c 10h 9s")
	v, five := hand.Best(cards)
	fmt.Println(v.Category(), card.Format(five[:]))
	// Output: royal_flush Ah Kh Qh Jh Th
}

// Eval7 takes the seven cards as arguments; equal Values are a stand-off
// (THB v9 3.12.5: the board's three Kings, then the higher pair).
func ExampleEval7() {
	board := card.MustParseList("Kc Kh Kd 7s 2h")
	a, b := card.MustParseList("As Ad"), card.MustParseList("Qs Qd")
	va := hand.Eval7(a[0], a[1], board[0], board[1], board[2], board[3], board[4])
	vb := hand.Eval7(b[0], b[1], board[0], board[1], board[2], board[3], board[4])
	fmt.Println(va.Category(), va > vb)
	// Output: full_house true
}

// Three Card Poker (TCP v6 3.14-3.15): A-2-3 is the lowest straight, and a
// straight beats a flush.
func ExampleEval3() {
	s := card.MustParseList("A♣ 2♥ 3♦")
	f := card.MustParseList("A♠ K♠ J♠")
	straight := hand.Eval3(s[0], s[1], s[2])
	flush := hand.Eval3(f[0], f[1], f[2])
	fmt.Println(straight.Category(), flush.Category(), straight > flush)
	// Output: straight flush true
}

// The dealer qualifiers, as ruling R15 reads them.
func ExampleQualifiesStud() {
	for _, s := range []string{"As Kd 4c 3h 2s", "As Qd Jc Th 8s", "As 2d 3c 4h 5s"} {
		c := card.MustParseList(s)
		fmt.Println(s, hand.QualifiesStud(hand.Eval5(c[0], c[1], c[2], c[3], c[4])))
	}
	// Output:
	// As Kd 4c 3h 2s true
	// As Qd Jc Th 8s false
	// As 2d 3c 4h 5s true
}

func ExampleQualifiesTCP() {
	for _, s := range []string{"Qs 3d 2c", "Js Td 8c", "3s 3d 2c"} {
		c := card.MustParseList(s)
		fmt.Println(s, hand.QualifiesTCP(hand.Eval3(c[0], c[1], c[2])))
	}
	// Output:
	// Qs 3d 2c true
	// Js Td 8c false
	// 3s 3d 2c true
}
