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
		out := make([]Value, 5) // the bulk form, in a step of four and in the tail
		switch len(h) {
		case 5:
			got = Eval5(h[0], h[1], h[2], h[3], h[4])
			x := [5]card.Card(h)
			Eval5All([][5]card.Card{x, x, x, x, x}, out)
		case 6:
			got = Eval6(h[0], h[1], h[2], h[3], h[4], h[5])
			x := [6]card.Card(h)
			Eval6All([][6]card.Card{x, x, x, x, x}, out)
		case 7:
			got = Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
			if r := Eval7(h[6], h[5], h[4], h[3], h[2], h[1], h[0]); r != got {
				t.Fatalf("%s: order changes the value: %d vs %d", card.Format(h), got, r)
			}
			x := [7]card.Card(h)
			Eval7All([][7]card.Card{x, x, x, x, x}, out)
		}
		for _, v := range out {
			if v != got {
				t.Fatalf("%s: one hand %d, bulk %v", card.Format(h), got, out)
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

// The fixed-size evaluators are total: repeated or invalid cards (a caller's
// bug: the API and settlement reject them first) give a meaningless value,
// never a panic. Such hands hash outside the rank table's 73,775 entries
// (which follow its 8,192 flush entries; checked below, so the test
// exercises the guard); the table is padded to a power of two and the index
// masked, and a flush index is a uint16 (Eval6 also reads pairMasks, 256 x
// 256 for the same reason).
func TestEvalNeverPanics(t *testing.T) {
	outside := 0
	check := func(cs ...card.Card) {
		key := uint64(suitBias)
		for _, c := range cs {
			key += cardKeys[c]
		}
		if i := rankIndex(key); key&flushBits == 0 && (i < flushSlots || i >= flushSlots+numRankClasses) {
			outside++
		}
		switch len(cs) {
		case 5:
			Eval5(cs[0], cs[1], cs[2], cs[3], cs[4])
		case 7:
			Eval6(cs[0], cs[1], cs[2], cs[3], cs[4], cs[5])
			Eval7(cs[0], cs[1], cs[2], cs[3], cs[4], cs[5], cs[6])
			h := [7]card.Card(cs)
			Eval7All([][7]card.Card{h, h, h, h, h}, make([]Value, 5))
		}
	}
	for c := 0; c < 256; c++ {
		x, y := card.Card(c), card.Card(255-c)
		check(x, x, x, x, x)
		check(x, y, x, y, x, y, x)
		check(x, x+1, x+2, x+3, x, x+1, x+2) // one rank five to seven times
		check(x, x+1, x+2, x+3, x+4)
	}
	if outside == 0 {
		t.Fatal("no input hashed outside the table: the test does not exercise the guard")
	}
	t.Logf("%d inputs hashed outside the table", outside)
}

func FuzzEvalNeverPanics(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{255, 52, 51, 0, 4, 8, 12})
	f.Fuzz(func(t *testing.T, data []byte) {
		var c [7]card.Card
		for i := range c {
			if i < len(data) {
				c[i] = card.Card(data[i])
			}
		}
		Eval5(c[0], c[1], c[2], c[3], c[4])
		Eval6(c[0], c[1], c[2], c[3], c[4], c[5])
		Eval7(c[0], c[1], c[2], c[3], c[4], c[5], c[6])
		Eval7All([][7]card.Card{c, c, c, c, c}, make([]Value, 5))
		c5, c6 := [5]card.Card(c[:5]), [6]card.Card(c[:6])
		Eval5All([][5]card.Card{c5, c5, c5, c5, c5}, make([]Value, 5))
		Eval6All([][6]card.Card{c6, c6, c6, c6, c6}, make([]Value, 5))
	})
}
