package hand

import (
	"github.com/tablesettle/tablesettle/internal/card"
)

// Value is a five-card hand's strength: higher beats lower, equal is a
// stand-off. The zero Value is no hand.
//
// Layout (subject to change; compare Values, do not decode them): the
// category in bits 20-23, then up to five 4-bit ranks, most significant
// first, in the order the tie-break clauses of rule 3.12 compare them.
type Value uint32

// Category returns the hand's category.
func (v Value) Category() Category { return Category(v >> 20) }

func mk(cat Category, ranks ...card.Rank) Value {
	v := uint32(cat) << 20
	shift := 16
	for _, r := range ranks {
		v |= uint32(r) << shift
		shift -= 4
	}
	return Value(v)
}

// straightHigh returns the top rank of the straight in a 13-bit rank mask
// (bit r-2 set for rank r), Five for the wheel A-2-3-4-5, or 0 if none.
// Rule 3.12.4: a straight with a six or higher outranks the wheel.
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

// Eval5 ranks five distinct cards under rules 3.11-3.12.
func Eval5(c0, c1, c2, c3, c4 card.Card) Value {
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

// EvalHand ranks a five-card hand given as a slice; it panics unless
// len(cards) == 5.
func EvalHand(cards []card.Card) Value {
	_ = cards[4]
	return Eval5(cards[0], cards[1], cards[2], cards[3], cards[4])
}

// Best returns the best five-card hand that can be made from 5 to 7 cards
// (THB v9 3.10: the best five of the player's two and the five community
// cards) and the five cards that make it. It panics on fewer than 5 or more
// than 7 cards.
func Best(cards []card.Card) (Value, [5]card.Card) {
	n := len(cards)
	if n < 5 || n > 7 {
		panic("hand.Best: need 5 to 7 cards")
	}
	var best Value
	var used [5]card.Card
	var idx [5]int
	var rec func(start, depth int)
	rec = func(start, depth int) {
		if depth == 5 {
			v := Eval5(cards[idx[0]], cards[idx[1]], cards[idx[2]], cards[idx[3]], cards[idx[4]])
			if v > best {
				best = v
				for i, j := range idx {
					used[i] = cards[j]
				}
			}
			return
		}
		for i := start; i <= n-(5-depth); i++ {
			idx[depth] = i
			rec(i+1, depth+1)
		}
	}
	rec(0, 0)
	return best, used
}

// Value3 is a three-card hand's strength under TCP v6 3.14-3.15: higher
// beats lower, equal is a stand-off.
type Value3 uint32

// order3 is the rank of each category in three-card poker (3.14): straight
// flush > three of a kind > straight > flush > pair > high card.
var order3 = [...]uint32{HighCard: 1, OnePair: 2, Flush: 3, Straight: 4, ThreeOfAKind: 5, StraightFlush: 6}
var category3 = [...]Category{1: HighCard, 2: OnePair, 3: Flush, 4: Straight, 5: ThreeOfAKind, 6: StraightFlush}

// Category returns the three-card hand's category: one of StraightFlush,
// ThreeOfAKind, Straight, Flush, OnePair, HighCard.
func (v Value3) Category() Category { return category3[v>>20] }

func mk3(cat Category, ranks ...card.Rank) Value3 {
	return Value3(uint32(mk(Invalid, ranks...)) | order3[cat]<<20)
}

// Eval3 ranks three distinct cards under TCP v6 3.14-3.15. A-2-3 is the
// lowest straight (3.15.3), Q-K-A the highest; Q-K-A suited is a Straight
// Flush (the document has no Royal Flush of three cards).
func Eval3(c0, c1, c2 card.Card) Value3 {
	r := [3]card.Rank{c0.Rank(), c1.Rank(), c2.Rank()}
	// sort descending
	if r[0] < r[1] {
		r[0], r[1] = r[1], r[0]
	}
	if r[1] < r[2] {
		r[1], r[2] = r[2], r[1]
	}
	if r[0] < r[1] {
		r[0], r[1] = r[1], r[0]
	}
	flush := c0.Suit() == c1.Suit() && c1.Suit() == c2.Suit()
	var top card.Rank
	switch {
	case r[0] == card.Ace && r[1] == card.Three && r[2] == card.Two:
		top = card.Three // A-2-3, 3.15.3
	case r[0] == r[1]+1 && r[1] == r[2]+1:
		top = r[0]
	}
	switch {
	case top != 0 && flush:
		return mk3(StraightFlush, top)
	case r[0] == r[2]:
		return mk3(ThreeOfAKind, r[0])
	case top != 0:
		return mk3(Straight, top)
	case flush:
		return mk3(Flush, r[0], r[1], r[2])
	case r[0] == r[1]:
		return mk3(OnePair, r[0], r[2]) // 3.15.2
	case r[1] == r[2]:
		return mk3(OnePair, r[1], r[0])
	default:
		return mk3(HighCard, r[0], r[1], r[2])
	}
}

// QualifiesStud reports whether a five-card dealer hand qualifies in the
// stud games: "an Ace and a King or higher" (SSP v6 3.10, RWS CSP, SSP v4),
// read as a hand ranked at least Ace-King high (ruling R15): any pair or
// better qualifies, as does every straight, the wheel included.
func QualifiesStud(v Value) bool {
	return v >= minAceKing
}

// minAceKing is the lowest Ace-King-high hand: A K 4 3 2.
var minAceKing = mk(HighCard, card.Ace, card.King, card.Four, card.Three, card.Two)

// QualifiesTCP reports whether a three-card dealer hand qualifies in TCP:
// "at least one Queen or higher" (TCP v6 3.11), read as a hand ranked at
// least Queen high (ruling R15): Q-3-2 or better, any pair, flush or
// straight (2-3-4, A-2-3) included.
func QualifiesTCP(v Value3) bool {
	return v >= minQueen
}

// minQueen is the lowest Queen-high hand: Q 3 2 offsuit.
var minQueen = mk3(HighCard, card.Queen, card.Three, card.Two)
