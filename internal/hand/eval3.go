package hand

import "github.com/tablesettle/tablesettle/internal/card"

// Value3 is a three-card hand's strength under TCP v6 3.14-3.15: higher
// beats lower, equal is a stand-off.
//
// Layout (compare Values, do not decode them): the three-card category
// order (1 high card to 6 straight flush) in bits 20-23, then up to three
// 4-bit ranks in the order 3.15 compares them.
type Value3 uint32

// order3 is the rank of each category in three-card poker (3.14): straight
// flush > three of a kind > straight > flush > pair > high card.
var order3 = [...]uint32{HighCard: 1, OnePair: 2, Flush: 3, Straight: 4, ThreeOfAKind: 5, StraightFlush: 6}
var category3 = [...]Category{0: Invalid, 1: HighCard, 2: OnePair, 3: Flush, 4: Straight, 5: ThreeOfAKind, 6: StraightFlush}

// Category returns the three-card hand's category: one of StraightFlush,
// ThreeOfAKind, Straight, Flush, OnePair, HighCard (Invalid for the zero
// Value3).
func (v Value3) Category() Category {
	if i := v >> 20; int(i) < len(category3) {
		return category3[i]
	}
	return Invalid
}

func mk3(cat Category, ranks ...card.Rank) Value3 {
	v := order3[cat] << 20
	shift := 16
	for _, r := range ranks {
		v |= uint32(r) << shift
		shift -= 4
	}
	return Value3(v)
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
		top = card.Three // A-2-3, 3.3.1.2 and 3.15.3
	case r[0] == r[1]+1 && r[1] == r[2]+1:
		top = r[0]
	}
	switch {
	case top != 0 && flush:
		return mk3(StraightFlush, top) // 3.15.3, 3.15.4
	case r[0] == r[2]:
		return mk3(ThreeOfAKind, r[0])
	case top != 0:
		return mk3(Straight, top) // 3.15.3, 3.15.4
	case flush:
		return mk3(Flush, r[0], r[1], r[2])
	case r[0] == r[1]:
		return mk3(OnePair, r[0], r[2]) // 3.15.2
	case r[1] == r[2]:
		return mk3(OnePair, r[1], r[0]) // 3.15.2
	default:
		return mk3(HighCard, r[0], r[1], r[2])
	}
}

// QualifiesTCP reports whether a three-card dealer hand qualifies in TCP:
// "at least one Queen or higher" (TCP v6 3.11), read as a hand ranked at
// least Queen high (ruling R15): Q-3-2 or better, any pair, flush or
// straight (2-3-4, A-2-3) included.
func QualifiesTCP(v Value3) bool {
	return v >= minQueen
}

// minQueen is the lowest Queen-high hand: Q 3 2 offsuit.
const minQueen = Value3(1<<20 | uint32(card.Queen)<<16 | uint32(card.Three)<<12 | uint32(card.Two)<<8)
