package hand

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
)

// cardsFrom turns fuzz bytes into up to seven distinct cards (byte mod 52,
// repeats skipped).
func cardsFrom(data []byte) []card.Card {
	var s card.Set
	var out []card.Card
	for _, b := range data {
		c := card.Card(b % card.NumCards)
		if !s.Has(c) {
			s = s.Add(c)
			out = append(out, c)
			if len(out) == 7 {
				break
			}
		}
	}
	return out
}

// FuzzEval: for any five to seven distinct cards, the table-driven
// evaluators equal the reference evaluator (every five-card subset tried),
// in any order of the cards.
func FuzzEval(f *testing.F) {
	for _, s := range []string{"As Ks Qs Js Ts 9s 8s", "2c 2d 2h 2s 3c 3d 3h", "Ah 2h 3h 4h 5d 6c 7s", "Kc Kh Kd 7s 2h", "9h 8h 7d 6h 2h 5c"} {
		var b []byte
		for _, c := range card.MustParseList(s) {
			b = append(b, byte(c))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h := cardsFrom(data)
		if len(h) < 5 {
			return
		}
		want := refClass(refBest(h))
		var got Value
		var s card.Set
		for _, c := range h {
			s = s.Add(c)
		}
		switch len(h) {
		case 5:
			got = Eval5(h[0], h[1], h[2], h[3], h[4])
		case 6:
			got = Eval6(h[0], h[1], h[2], h[3], h[4], h[5])
		case 7:
			got = Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
			if r := Eval7(h[6], h[5], h[4], h[3], h[2], h[1], h[0]); r != got {
				t.Fatalf("%s: order changes the value: %d vs %d", card.Format(h), got, r)
			}
		}
		if got != want || EvalMask(s) != want {
			t.Fatalf("%s: fast %d, EvalMask %d, reference %d", card.Format(h), got, EvalMask(s), want)
		}
		if v, _ := Best(h); v != want {
			t.Fatalf("%s: Best %d, reference %d", card.Format(h), v, want)
		}
	})
}
