package hand

import "github.com/tablesettle/tablesettle/internal/card"

// Value3 is a three-card hand's strength under TCP v6 3.14-3.15: higher
// beats lower, equal is a stand-off.
//
// Layout (compare Values, do not decode them): the three-card category
// order (1 high card to 6 straight flush) in bits 20-23, then up to three
// 4-bit ranks in the order 3.15 compares them.
type Value3 uint32

// category3 is the category of each three-card order (3.14, lowest
// first): straight flush > three of a kind > straight > flush > pair > high
// card.
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

// Eval3 ranks three distinct cards under TCP v6 3.14-3.15. A-2-3 is the
// lowest straight (3.15.3), Q-K-A the highest; Q-K-A suited is a Straight
// Flush (the document has no Royal Flush of three cards).
//
// One lookup: threeValues (tablegen.Value3Of, generated) holds every
// ordered triple of ranks, then every suited one (each value without its
// low 8 bits, which are zero), so no sorting or branching on the ranks
// happens here. A card's rank index is c>>2 and its
// suit c&3 (package card's numbering).
func Eval3(c0, c1, c2 card.Card) Value3 {
	i := uint(c0>>2)*169 + uint(c1>>2)*13 + uint(c2>>2)
	if ((c0^c1)|(c0^c2))&3 == 0 {
		i += 13 * 13 * 13 // suited
	}
	return Value3(threeValues[i&uint(len(threeValues)-1)]) << 8
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
