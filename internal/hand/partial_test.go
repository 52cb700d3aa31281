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

// Eval5All, Eval6All and Eval7All equal Eval5, Eval6 and Eval7 hand by
// hand for every length from 0 to 9 (steps of four and a tail), with a
// flush in each position of a step; they panic when out is shorter than
// hands, and leave out beyond len(hands) alone. (The exhaustive and sample
// tests also run every hand they rank through them: bulkCheck.)
func TestEvalAllLengths(t *testing.T) {
	flush := card.MustParseList("Ah 9h 7h 4h 2h Kc Qd")
	t.Run("5", func(t *testing.T) {
		checkAllLengths(t, [5]card.Card(flush), func(h []card.Card) [5]card.Card { return [5]card.Card(h) },
			func(h [5]card.Card) Value { return Eval5(h[0], h[1], h[2], h[3], h[4]) }, Eval5All)
	})
	t.Run("6", func(t *testing.T) {
		checkAllLengths(t, [6]card.Card(flush), func(h []card.Card) [6]card.Card { return [6]card.Card(h) },
			func(h [6]card.Card) Value { return Eval6(h[0], h[1], h[2], h[3], h[4], h[5]) }, Eval6All)
	})
	t.Run("7", func(t *testing.T) {
		checkAllLengths(t, [7]card.Card(flush), func(h []card.Card) [7]card.Card { return [7]card.Card(h) },
			func(h [7]card.Card) Value { return Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6]) }, Eval7All)
	})
}

func checkAllLengths[H any](t *testing.T, flush H, conv func([]card.Card) H, one func(H) Value, all func([]H, []Value)) {
	rng := rand.New(rand.NewPCG(7, 17))
	for n := range 10 {
		for lane := range max(n, 1) {
			hands := make([]H, n)
			for i := range hands {
				hands[i] = conv(deal(rng, 7)) // its first 5, 6 or 7
			}
			if n > 0 {
				hands[lane] = flush
			}
			out := make([]Value, n+1)
			out[n] = 12345
			all(hands, out)
			for i, h := range hands {
				if want := one(h); out[i] != want {
					t.Fatalf("n=%d, hand %d %v: bulk %d, one at a time %d", n, i, h, out[i], want)
				}
			}
			if out[n] != 12345 {
				t.Fatalf("n=%d: wrote past len(hands)", n)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a short out did not panic")
		}
	}()
	all(make([]H, 5), make([]Value, 4))
}
