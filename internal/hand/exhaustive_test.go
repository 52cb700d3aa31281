package hand

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
)

// Known totals of five-card poker over one 52-card deck: hands per category
// and distinct hands (equivalence classes) per category.
var fiveCardTotals = map[Category]struct{ hands, classes int }{
	RoyalFlush:    {4, 1},
	StraightFlush: {36, 9},
	FourOfAKind:   {624, 156},
	FullHouse:     {3744, 156},
	Flush:         {5108, 1277},
	Straight:      {10200, 10},
	ThreeOfAKind:  {54912, 858},
	TwoPair:       {123552, 858},
	OnePair:       {1098240, 2860},
	HighCard:      {1302540, 1277},
}

// Every one of the 2,598,960 five-card hands: the table-driven Eval5 gives
// the reference evaluator's class, the category counts and the distinct
// classes per category are the known totals (rule 3.11's ten orders of
// hands), every class 1-7462 occurs, and Eval5All ranks every hand as
// Eval5 (bulkCheck).
func TestAllFiveCardHands(t *testing.T) {
	hands := map[Category]int{}
	seen := make([]bool, NumClasses+1)
	total := 0
	bulk := newBulkCheck(t, "Eval5All", Eval5All)
	for a := card.Card(0); a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				for d := c + 1; d < 52; d++ {
					for e := d + 1; e < 52; e++ {
						v := Eval5(a, b, c, d, e)
						ref := refEval5(a, b, c, d, e)
						if want := refClass(ref); v != want {
							t.Fatalf("%s: Eval5 = %d, reference class %d", card.Format([]card.Card{a, b, c, d, e}), v, want)
						}
						if v.Category() != ref.Category() {
							t.Fatalf("%s: category %s, reference %s", card.Format([]card.Card{a, b, c, d, e}), v.Category(), ref.Category())
						}
						hands[v.Category()]++
						seen[v] = true
						total++
						bulk.add([5]card.Card{a, b, c, d, e}, v)
					}
				}
			}
		}
	}
	bulk.flush()
	if total != 2598960 {
		t.Fatalf("%d hands", total)
	}
	classes := map[Category]int{}
	for v := Value(1); v <= NumClasses; v++ {
		if !seen[v] {
			t.Fatalf("class %d never occurs", v)
		}
		classes[v.Category()]++
	}
	for cat, want := range fiveCardTotals {
		if hands[cat] != want.hands || classes[cat] != want.classes {
			t.Errorf("%s: %d hands in %d classes, want %d in %d", cat, hands[cat], classes[cat], want.hands, want.classes)
		}
	}
}

// The 5-card entry points agree with each other on every class of hand.
func TestFiveCardEntryPointsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 200000; i++ {
		h := deal(rng, 5)
		v := Eval5(h[0], h[1], h[2], h[3], h[4])
		var s card.Set
		for _, c := range h {
			s = s.Add(c)
		}
		bv, used := Best(h)
		if EvalHand(h) != v || EvalMask(s) != v || bv != v || used != [5]card.Card(h) {
			t.Fatalf("%s: Eval5 %d, EvalHand %d, EvalMask %d, Best %d %s", card.Format(h), v, EvalHand(h), EvalMask(s), bv, card.Format(used[:]))
		}
	}
}

// deal returns n distinct random cards.
func deal(rng *rand.Rand, n int) []card.Card {
	out := make([]card.Card, 0, n)
	var s card.Set
	for len(out) < n {
		c := card.Card(rng.IntN(52))
		if !s.Has(c) {
			s = s.Add(c)
			out = append(out, c)
		}
	}
	return out
}

// best5of returns the best Eval5 over every five of the cards.
func best5of(h []card.Card) Value {
	var best Value
	n := len(h)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					for e := d + 1; e < n; e++ {
						best = max(best, Eval5(h[a], h[b], h[c], h[d], h[e]))
					}
				}
			}
		}
	}
	return best
}

// THB v9 3.10: a seeded sample of six- and seven-card hands, each ranked as
// the best of its five-card subsets: by the fast Eval5 (checked exhaustively
// above) for two million hands, and by the reference evaluator for a
// hundred thousand. Best returns five of the given cards that make the hand,
// and Eval6All and Eval7All rank every hand as Eval6 and Eval7 (bulkCheck).
func TestSevenCardSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	n := 2_000_000
	if testing.Short() {
		n = 200_000
	}
	bulk6, bulk7 := newBulkCheck(t, "Eval6All", Eval6All), newBulkCheck(t, "Eval7All", Eval7All)
	defer bulk6.flush()
	defer bulk7.flush()
	for i := 0; i < n; i++ {
		k := 6 + i%2
		h := deal(rng, k)
		var v Value
		if k == 7 {
			v = Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
			bulk7.add([7]card.Card(h), v)
		} else {
			v = Eval6(h[0], h[1], h[2], h[3], h[4], h[5])
			bulk6.add([6]card.Card(h), v)
		}
		if want := best5of(h); v != want {
			t.Fatalf("%s: %d, best of fives %d", card.Format(h), v, want)
		}
		if i%20 == 0 {
			if want := refClass(refBest(h)); v != want {
				t.Fatalf("%s: %d, reference %d", card.Format(h), v, want)
			}
			bv, used := Best(h)
			if bv != v || Eval5(used[0], used[1], used[2], used[3], used[4]) != v {
				t.Fatalf("%s: Best %d %s, want %d", card.Format(h), bv, card.Format(used[:]), v)
			}
			for _, c := range used {
				if !slices.Contains(h, c) {
					t.Fatalf("%s: Best used %s", card.Format(h), c)
				}
			}
		}
	}
}

// Known totals of six-card hands (the best five of six) over one deck.
var sixCardTotals = map[Category]int{
	RoyalFlush:    188,
	StraightFlush: 1656,
	FourOfAKind:   14664,
	FullHouse:     165984,
	Flush:         205792,
	Straight:      361620,
	ThreeOfAKind:  732160,
	TwoPair:       2532816,
	OnePair:       9730740,
	HighCard:      6612900,
}

// Every one of the 20,358,520 six-card hands (THB v9 3.10 with one card to
// come): Eval6, which inlines and gathers a flush's masks two cards at a
// time (pairMasks), equals the best of the hand's six five-card subsets, the
// category counts are the known totals with 6,075 distinct classes, and
// Eval6All ranks each hand as Eval6 (bulkCheck). -short checks every 64th
// hand against its subsets.
func TestAllSixCardHands(t *testing.T) {
	checkEvery := 1
	if testing.Short() {
		checkEvery = 64
	}
	counts := map[Category]int{}
	var perClass [NumClasses + 1]int
	var h [6]card.Card
	total := 0
	bulk := newBulkCheck(t, "Eval6All", Eval6All)
	for h[0] = 0; h[0] < 52; h[0]++ {
		for h[1] = h[0] + 1; h[1] < 52; h[1]++ {
			for h[2] = h[1] + 1; h[2] < 52; h[2]++ {
				for h[3] = h[2] + 1; h[3] < 52; h[3]++ {
					for h[4] = h[3] + 1; h[4] < 52; h[4]++ {
						for h[5] = h[4] + 1; h[5] < 52; h[5]++ {
							v := Eval6(h[0], h[1], h[2], h[3], h[4], h[5])
							if total%checkEvery == 0 {
								if want := best5of(h[:]); v != want {
									t.Fatalf("%s: %d, best of fives %d", card.Format(h[:]), v, want)
								}
							}
							perClass[v]++
							total++
							bulk.add(h, v)
						}
					}
				}
			}
		}
	}
	bulk.flush()
	if total != 20358520 {
		t.Fatalf("%d hands", total)
	}
	distinct := 0
	for v, n := range perClass {
		if n > 0 {
			distinct++
			counts[Value(v).Category()] += n
		}
	}
	if distinct != 6075 {
		t.Errorf("%d distinct classes, want 6075", distinct)
	}
	for cat, want := range sixCardTotals {
		if counts[cat] != want {
			t.Errorf("%s: %d hands, want %d", cat, counts[cat], want)
		}
	}
}

// Known totals of seven-card hands (the best five of seven) over one deck.
var sevenCardTotals = map[Category]int{
	RoyalFlush:    4324,
	StraightFlush: 37260,
	FourOfAKind:   224848,
	FullHouse:     3473184,
	Flush:         4047644,
	Straight:      6180020,
	ThreeOfAKind:  6461620,
	TwoPair:       31433400,
	OnePair:       58627800,
	HighCard:      23294460,
}

// Every one of the 133,784,560 seven-card hands (THB v9 3.10): the category
// counts are the known totals and 4824 distinct classes occur, and
// Eval7All ranks each exactly as Eval7 (bulkCheck). With
// HAND_EXHAUSTIVE=1 (`make test-exhaustive`, about a minute on one core)
// each hand is also checked to equal the best of its 21 five-card subsets;
// without it the check runs on every 1024th hand, and -short skips the test.
func TestAllSevenCardHands(t *testing.T) {
	full := os.Getenv("HAND_EXHAUSTIVE") != ""
	if testing.Short() && !full {
		t.Skip("-short: set HAND_EXHAUSTIVE=1 to rank all 133,784,560 seven-card hands")
	}
	checkEvery := 1024
	if full {
		checkEvery = 1
	}
	counts := map[Category]int{}
	var perClass [NumClasses + 1]int
	var h [7]card.Card
	total := 0
	bulk := newBulkCheck(t, "Eval7All", Eval7All)
	for h[0] = 0; h[0] < 52; h[0]++ {
		for h[1] = h[0] + 1; h[1] < 52; h[1]++ {
			for h[2] = h[1] + 1; h[2] < 52; h[2]++ {
				for h[3] = h[2] + 1; h[3] < 52; h[3]++ {
					for h[4] = h[3] + 1; h[4] < 52; h[4]++ {
						for h[5] = h[4] + 1; h[5] < 52; h[5]++ {
							for h[6] = h[5] + 1; h[6] < 52; h[6]++ {
								v := Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
								if total%checkEvery == 0 {
									if want := best5of(h[:]); v != want {
										t.Fatalf("%s: %d, best of fives %d", card.Format(h[:]), v, want)
									}
								}
								perClass[v]++
								total++
								bulk.add(h, v)
							}
						}
					}
				}
			}
		}
	}
	bulk.flush()
	if total != 133784560 {
		t.Fatalf("%d hands", total)
	}
	distinct := 0
	for v, n := range perClass {
		if n > 0 {
			distinct++
			counts[Value(v).Category()] += n
		}
	}
	if distinct != 4824 {
		t.Errorf("%d distinct classes, want 4824", distinct)
	}
	for cat, want := range sevenCardTotals {
		if counts[cat] != want {
			t.Errorf("%s: %d hands, want %d", cat, counts[cat], want)
		}
	}
}

// Known totals of three-card poker (TCP v6 3.14): hands and distinct hands
// per category over one deck.
var threeCardTotals = map[Category]struct{ hands, classes int }{
	StraightFlush: {48, 12},
	ThreeOfAKind:  {52, 13},
	Straight:      {720, 12},
	Flush:         {1096, 274},
	OnePair:       {3744, 156},
	HighCard:      {16440, 274},
}

// ref3 is an independent three-card key: the TCP v6 3.14 order of the
// category (SF 6, trips 5, straight 4, flush 3, pair 2, high card 1), then
// the ranks 3.15 compares, most significant first, in base 16.
func ref3(cs [3]card.Card) (Category, int) {
	r := []int{int(cs[0].Rank()), int(cs[1].Rank()), int(cs[2].Rank())}
	slices.Sort(r)
	slices.Reverse(r) // r[0] >= r[1] >= r[2]
	flush := cs[0].Suit() == cs[1].Suit() && cs[0].Suit() == cs[2].Suit()
	top := 0
	if r[0]-r[1] == 1 && r[1]-r[2] == 1 {
		top = r[0]
	} else if r[0] == 14 && r[1] == 3 && r[2] == 2 {
		top = 3 // Ace low (3.3.1.2, 3.15.3)
	}
	key := func(order int, ranks ...int) int {
		k := order
		for _, x := range ranks {
			k = k*16 + x
		}
		for range 3 - len(ranks) {
			k *= 16
		}
		return k
	}
	switch {
	case top > 0 && flush:
		return StraightFlush, key(6, top)
	case r[0] == r[2]:
		return ThreeOfAKind, key(5, r[0])
	case top > 0:
		return Straight, key(4, top)
	case flush:
		return Flush, key(3, r...)
	case r[0] == r[1]:
		return OnePair, key(2, r[0], r[2])
	case r[1] == r[2]:
		return OnePair, key(2, r[1], r[0])
	}
	return HighCard, key(1, r...)
}

// Every one of the 22,100 three-card hands: the known category counts and
// distinct hands, and Eval3 orders them exactly as the independent ref3 key
// does (equal iff equal, TCP v6 3.15.1).
func TestAllThreeCardHands(t *testing.T) {
	hands := map[Category]int{}
	byKey := map[int]Value3{}
	classes := map[Category]map[Value3]bool{}
	total := 0
	for a := card.Card(0); a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				v := Eval3(a, b, c)
				cat, key := ref3([3]card.Card{a, b, c})
				if v.Category() != cat {
					t.Fatalf("%s: %s, reference %s", card.Format([]card.Card{a, b, c}), v.Category(), cat)
				}
				if prev, ok := byKey[key]; ok && prev != v {
					t.Fatalf("%s: %d, but an equal hand is %d", card.Format([]card.Card{a, b, c}), v, prev)
				}
				byKey[key] = v
				if classes[cat] == nil {
					classes[cat] = map[Value3]bool{}
				}
				classes[cat][v] = true
				hands[cat]++
				total++
			}
		}
	}
	if total != 22100 {
		t.Fatalf("%d hands", total)
	}
	keys := make([]int, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i := 1; i < len(keys); i++ {
		if byKey[keys[i-1]] >= byKey[keys[i]] {
			t.Fatalf("order differs from the reference at key %x", keys[i])
		}
	}
	for cat, want := range threeCardTotals {
		if hands[cat] != want.hands || len(classes[cat]) != want.classes {
			t.Errorf("%s: %d hands in %d classes, want %d in %d", cat, hands[cat], len(classes[cat]), want.hands, want.classes)
		}
	}
}

// bulkCheck checks a bulk evaluator (Eval5All, Eval6All, Eval7All) against
// the values its one-hand form gave: hands are collected in batches of
// 4,093, so that each lands in every position of a four-hand step over the
// run, and each batch ends in a tail of one.
type bulkCheck[H any] struct {
	t     *testing.T
	name  string
	all   func([]H, []Value)
	hands []H
	want  []Value
	out   []Value
}

const bulkBatch = 4093

func newBulkCheck[H any](t *testing.T, name string, all func([]H, []Value)) *bulkCheck[H] {
	return &bulkCheck[H]{t: t, name: name, all: all, out: make([]Value, bulkBatch)}
}

func (b *bulkCheck[H]) add(h H, want Value) {
	b.hands, b.want = append(b.hands, h), append(b.want, want)
	if len(b.hands) == bulkBatch {
		b.flush()
	}
}

func (b *bulkCheck[H]) flush() {
	b.t.Helper()
	b.all(b.hands, b.out)
	for i, v := range b.want {
		if b.out[i] != v {
			b.t.Fatalf("%v: %s %d, one hand at a time %d", b.hands[i], b.name, b.out[i], v)
		}
	}
	b.hands, b.want = b.hands[:0], b.want[:0]
}
