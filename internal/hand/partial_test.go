package hand

import (
	"math/rand/v2"
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
)

// Partial ranks 5, 6 and 7 cards exactly as Eval5, Eval6 and Eval7 (whose
// correctness the exhaustive tests establish), whether the cards are added
// one by one or as two disjoint parts joined (a board and hole cards).
func TestPartialAgreesWithEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 17))
	for i := range 600_000 {
		n := 5 + i%3
		h := deal(rng, n)
		var p, board, hole Partial
		for j, c := range h {
			p = p.Add(c)
			if j < 2 {
				hole = hole.Add(c)
			} else {
				board = board.Add(c)
			}
		}
		var want Value
		switch n {
		case 5:
			want = Eval5(h[0], h[1], h[2], h[3], h[4])
		case 6:
			want = Eval6(h[0], h[1], h[2], h[3], h[4], h[5])
		default:
			want = Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
		}
		if got := p.Value(); got != want {
			t.Fatalf("%s: Partial %d, Eval%d %d", card.Format(h), got, n, want)
		}
		if got := board.Join(hole).Value(); got != want {
			t.Fatalf("%s: joined Partial %d, Eval%d %d", card.Format(h), got, n, want)
		}
	}
	// A royal flush and the worst hand, by name.
	for _, c := range []struct {
		cards string
		want  Value
	}{{"Ah Kh Qh Jh Th 2c 3d", NumClasses}, {"7c 5d 4h 3s 2c", 1}} {
		var p Partial
		for _, x := range card.MustParseList(c.cards) {
			p = p.Add(x)
		}
		if p.Value() != c.want {
			t.Errorf("%s: %d, want %d", c.cards, p.Value(), c.want)
		}
	}
}

// Eval7All equals Eval7 hand by hand for every length from 0 to 9 (steps
// of four and a tail), with a flush in each position of a step; it panics
// when out is shorter than hands, and leaves out beyond len(hands) alone.
// (TestAllSevenCardHands also runs every seven-card hand through it.)
func TestEval7AllLengths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 17))
	flush := [7]card.Card(card.MustParseList("Ah 9h 7h 4h 2h Kc Qd"))
	for n := range 10 {
		for lane := range max(n, 1) {
			hands := make([][7]card.Card, n)
			for i := range hands {
				hands[i] = [7]card.Card(deal(rng, 7))
			}
			if n > 0 {
				hands[lane] = flush
			}
			out := make([]Value, n+1)
			out[n] = 12345
			Eval7All(hands, out)
			for i, h := range hands {
				if want := Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6]); out[i] != want {
					t.Fatalf("n=%d, hand %d %s: Eval7All %d, Eval7 %d", n, i, card.Format(h[:]), out[i], want)
				}
			}
			if out[n] != 12345 {
				t.Fatalf("n=%d: Eval7All wrote past len(hands)", n)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Eval7All with a short out did not panic")
		}
	}()
	Eval7All(make([][7]card.Card, 5), make([]Value, 4))
}
