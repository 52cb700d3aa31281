package hand

// The reference evaluator: the plain, obviously-correct five-card evaluator
// the package started with, kept in the tests as the independent check of
// the table-driven one (it shares no code or tables with it). It returns a
// structured value (category in bits 20-23, then the ranks rule 3.12
// compares, most significant first); refClass maps that to the dense
// class the fast evaluator returns, by position among all 7462 classes.

import (
	"slices"
	"sync"

	"github.com/tablesettle/tablesettle/internal/card"
)

type refValue uint32

func (v refValue) Category() Category { return Category(v >> 20) }

func mk(cat Category, ranks ...card.Rank) refValue {
	v := uint32(cat) << 20
	shift := 16
	for _, r := range ranks {
		v |= uint32(r) << shift
		shift -= 4
	}
	return refValue(v)
}

func straightHigh(mask uint16) card.Rank {
	for top := card.Ace; top >= card.Six; top-- {
		m := uint16(0x1f) << (top - 6)
		if mask&m == m {
			return top
		}
	}
	const wheel = 1<<12 | 0xf // A,2,3,4,5
	if mask&wheel == wheel {
		return card.Five
	}
	return 0
}

// refEval5 ranks five distinct cards under rules 3.11-3.12.
func refEval5(c0, c1, c2, c3, c4 card.Card) refValue {
	cs := [5]card.Card{c0, c1, c2, c3, c4}
	var counts [15]uint8
	var mask uint16
	flush := true
	for i, c := range cs {
		r := c.Rank()
		counts[r]++
		mask |= 1 << (r - 2)
		if i > 0 && c.Suit() != cs[0].Suit() {
			flush = false
		}
	}
	if top := straightHigh(mask); top != 0 && popcount(mask) == 5 {
		switch {
		case flush && top == card.Ace:
			return mk(RoyalFlush, top)
		case flush:
			return mk(StraightFlush, top)
		default:
			return mk(Straight, top)
		}
	}
	// Group ranks by count, then by rank, both descending.
	var quads, trips, pairs, singles []card.Rank
	for r := card.Ace; r >= card.Two; r-- {
		switch counts[r] {
		case 4:
			quads = append(quads, r)
		case 3:
			trips = append(trips, r)
		case 2:
			pairs = append(pairs, r)
		case 1:
			singles = append(singles, r)
		}
	}
	switch {
	case len(quads) == 1:
		return mk(FourOfAKind, quads[0], singles[0])
	case len(trips) == 1 && len(pairs) == 1:
		return mk(FullHouse, trips[0], pairs[0]) // 3.12.5
	case flush:
		return mk(Flush, singles...)
	case len(trips) == 1:
		return mk(ThreeOfAKind, trips[0], singles[0], singles[1])
	case len(pairs) == 2:
		return mk(TwoPair, pairs[0], pairs[1], singles[0]) // 3.12.2
	case len(pairs) == 1:
		return mk(OnePair, pairs[0], singles[0], singles[1], singles[2]) // 3.12.3
	default:
		return mk(HighCard, singles...)
	}
}

func popcount(m uint16) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// refBest is the best five of 5-7 cards by trying every five-card subset.
func refBest(cards []card.Card) refValue {
	var best refValue
	n := len(cards)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					for e := d + 1; e < n; e++ {
						best = max(best, refEval5(cards[a], cards[b], cards[c], cards[d], cards[e]))
					}
				}
			}
		}
	}
	return best
}

// refClasses lists every distinct five-card value of the reference
// evaluator, ascending: one hand per rank multiset (suits mixed) and one per
// five distinct ranks in one suit.
var refClasses = sync.OnceValue(func() []refValue {
	var out []refValue
	var rec func(r card.Rank, hand []card.Card, n [15]int)
	rec = func(r card.Rank, hand []card.Card, n [15]int) {
		if len(hand) == 5 {
			if !slices.ContainsFunc(hand, func(c card.Card) bool { return c.Suit() != card.Clubs }) {
				// five singletons, all clubs: make it no flush
				hand[0] = card.New(hand[0].Rank(), card.Diamonds)
			}
			out = append(out, refEval5(hand[0], hand[1], hand[2], hand[3], hand[4]))
			return
		}
		if r < card.Two {
			return
		}
		for k := 0; k <= 4 && len(hand)+k <= 5; k++ {
			h := slices.Clone(hand)
			for s := 0; s < k; s++ {
				h = append(h, card.New(r, card.Suit(s))) // a rank's copies: suits 0, 1, ...
			}
			rec(r-1, h, n)
		}
	}
	rec(card.Ace, nil, [15]int{})
	for m := 0; m < 1<<13; m++ {
		var h []card.Card
		for r := 0; r < 13; r++ {
			if m&(1<<r) != 0 {
				h = append(h, card.New(card.Rank(r+2), card.Spades))
			}
		}
		if len(h) == 5 {
			out = append(out, refEval5(h[0], h[1], h[2], h[3], h[4]))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
})

// refClass is the dense class (1-7462) of a reference value.
func refClass(v refValue) Value {
	cs := refClasses()
	i, ok := slices.BinarySearch(cs, v)
	if !ok {
		panic("refClass: not a five-card value")
	}
	return Value(i + 1)
}
