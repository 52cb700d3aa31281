package hand

//go:generate go run ./tablegen/gen -o tables_gen.go

import (
	"math/bits"

	"github.com/tablesettle/tablesettle/internal/card"
)

// Value is a five-card hand's strength under rules 3.11-3.12 of the stud
// documents (and THB v9 3.11-3.12): higher beats lower, equal is a
// stand-off (3.12.1). The zero Value is no hand.
//
// A Value is the hand's equivalence class, 1 to 7462: 1 is the worst hand
// (7-5-4-3-2 of at least two suits), 7462 the Royal Flush, and every other
// number one of the distinct five-card hands the rules tell apart, in
// order. Category tells which order of hands (3.11) a Value belongs to.
type Value uint32

// NumClasses is the number of distinct five-card hands: the highest Value.
const NumClasses = 7462

// Category returns the hand's category (Invalid for a Value out of range).
func (v Value) Category() Category {
	if v == 0 || v > NumClasses {
		return Invalid
	}
	c := RoyalFlush
	for v < categoryFloor[c] {
		c--
	}
	return c
}

// rankShift is tablegen.KeyRankShift: a key's rank sum is key>>rankShift.
// rowShift is tablegen.RowShift: rank sums r>>rowShift share a row. The
// suit counters' constants (suitBias, flushBits, flushBits7, flushMod) are
// generated with the tables.
const (
	rankShift = 39
	rowShift  = 11
)

// rankIndex is the perfect hash of the rank sum in the top 25 bits of a
// key: the sum plus its row's displacement. The row, key>>50, is below
// len(rankOffsets) = 2^14 for every key, so it needs no mask or bounds check.
func rankIndex(key uint64) uint32 {
	return uint32(key>>rankShift) + rankOffsets[key>>(rankShift+rowShift)]
}

// rankLookup ranks a hand without a flush by its key: one perfect-hash
// displacement, one table entry (the index masked, so that no key, however
// wrong, reads outside the table). It is rankIndex written out: each
// inlined call costs the inliner's budget a few nodes more than its body.
func rankLookup(key uint64) Value {
	return Value(rankClasses[(uint32(key>>rankShift)+rankOffsets[key>>(rankShift+rowShift)])&uint32(len(rankClasses)-1)])
}

// flushLookup ranks a hand whose key shows a flush, from the OR of its
// cards' masks. The flush suit's flag, key bit f, is the only flag set, and
// 2^f mod flushMod is where the suit's ranks start in the mask (tablegen.
// Flag, MaskPos): shifted right by that, the mask has them in bits 0-12
// and zero in bits 13-15 (the gap above each suit's ranks). A uint16 of it
// is the flush's index in rankClasses, below flushSlots for any cards, and
// needs no mask or bounds check (a bounds check would give the function a
// frame and a panic path). A flush is the rare case (3% of seven-card
// hands), so the masks are only gathered then.
func flushLookup(key, mask uint64) Value {
	return Value(rankClasses[uint16(mask>>((key&flushBits)%flushMod))])
}

// The fixed-size evaluators add the cards' keys and look the sum up; they
// gather the flush masks only when the key shows five cards of one suit.
// Their cards are separate arguments, so that they travel in registers: an
// array argument is copied through the stack, and reading it back byte by
// byte stalls store-to-load forwarding (Eval7 ran 3x slower that way).
//
// All three are small enough for Go's inliner (Eval5, Eval6 and Eval7
// cost 75, 77 and 79 of its budget of 80; see docs/evaluator-inlining.md):
// a caller's loop pays no call per hand. To fit, they start from a first
// key with the bias already added, spell the two lookups out (a nested
// inlined call costs more than its body), and find the flush suit's ranks
// with one shift (flushLookup); Eval6 and Eval7 gather their flush masks
// two cards at a time (pairMasks). Eval7 has a key and a table of its own
// (tablegen.Key7): the key's low 16 bits are the column of its perfect
// hash and its table has 2^16 entries of Value, so neither index needs a
// shift, a mask or a conversion. A test runs the compiler to keep all
// three inlinable.

// Eval5 ranks five distinct cards under rules 3.11-3.12.
func Eval5(c0, c1, c2, c3, c4 card.Card) Value {
	key := firstKeys[c0] + cardKeys[c1] + cardKeys[c2] + cardKeys[c3] + cardKeys[c4]
	if key&flushBits != 0 {
		return Value(rankClasses[uint16((cardMasks[c0]|cardMasks[c1]|cardMasks[c2]|cardMasks[c3]|cardMasks[c4])>>((key&flushBits)%flushMod))])
	}
	return Value(rankClasses[(uint32(key>>rankShift)+rankOffsets[key>>(rankShift+rowShift)])&uint32(len(rankClasses)-1)])
}

// Eval6 ranks the best five of six distinct cards.
func Eval6(c0, c1, c2, c3, c4, c5 card.Card) Value {
	key := firstKeys[c0] + cardKeys[c1] + cardKeys[c2] + cardKeys[c3] + cardKeys[c4] + cardKeys[c5]
	if key&flushBits != 0 {
		return Value(rankClasses[uint16((pairMasks[c0][c1]|pairMasks[c2][c3]|pairMasks[c4][c5])>>((key&flushBits)%flushMod))])
	}
	return Value(rankClasses[(uint32(key>>rankShift)+rankOffsets[key>>(rankShift+rowShift)])&uint32(len(rankClasses)-1)])
}

// pairMasks[a][b] is cardMasks[a] | cardMasks[b]: the flush paths of Eval6
// and Eval7 read three of them where they would read six masks, which keeps
// them within the inlining budget (a pair costs the inliner 5 nodes, two
// cards 7). Indexed by two card.Cards it needs no bounds check, so it spans
// 256 x 256 entries (512 KiB of address space, zero, in the BSS), of which
// init fills the 52 x 52 of valid cards: 104 KiB are ever touched (55-100
// microseconds at start-up on the shared build machine, mostly the page
// faults; as static data it would add 512 KiB to every binary). Only hands
// with a flush read it (1% of six-card hands, 3% of seven-card), so its
// size costs the common path nothing.
var pairMasks [256][256]uint64

func init() {
	for a := range card.NumCards {
		for b := range card.NumCards {
			pairMasks[a][b] = cardMasks[a] | cardMasks[b]
		}
	}
}

// Eval7 ranks the best five of seven distinct cards (THB v9 3.10: the two
// hole cards and the five community cards).
func Eval7(c0, c1, c2, c3, c4, c5, c6 card.Card) Value {
	key := firstKeys7[c0] + keys7[c1] + keys7[c2] + keys7[c3] + keys7[c4] + keys7[c5] + keys7[c6]
	if key&flushBits7 != 0 {
		return rankClasses7[uint16((pairMasks[c0][c1]|pairMasks[c2][c3]|pairMasks[c4][c5]|cardMasks[c6])>>((key&flushBits7)%flushMod))]
	}
	return rankClasses7[uint16(key)+rankOffsets7[key>>row7Shift]]
}

// Eval5All, Eval6All and Eval7All rank many hands: out[i] is the value of
// hands[i], as Eval5, Eval6 or Eval7 gives it, for every i. They are the
// evaluators for bulk work: Eval7All at about 1.2 times the rate of a loop
// that calls Eval7 per hand, inlined. Four hands share
// one flush test, so the loop branches once per four hands and mispredicts
// at most once (about one step of seven-card hands in nine has a flush:
// 3.06% of the hands do). The flush path reads the cards again through a
// pointer, so that the common path keeps no card in a register (Eval7's
// body inlined into a caller's loop keeps all seven). They panic if out is
// shorter than hands.
func Eval5All(hands [][5]card.Card, out []Value) {
	out = out[:len(hands)]
	for len(hands) >= 4 {
		h, o := (*[4][5]card.Card)(hands), (*[4]Value)(out)
		k0, k1, k2, k3 := key5(&h[0]), key5(&h[1]), key5(&h[2]), key5(&h[3])
		if (k0|k1|k2|k3)&flushBits == 0 {
			o[0], o[1], o[2], o[3] = rankLookup(k0), rankLookup(k1), rankLookup(k2), rankLookup(k3)
		} else {
			o[0], o[1], o[2], o[3] = eval5Key(&h[0], k0), eval5Key(&h[1], k1), eval5Key(&h[2], k2), eval5Key(&h[3], k3)
		}
		hands, out = hands[4:], out[4:]
	}
	for i := range hands {
		out[i] = eval5Key(&hands[i], key5(&hands[i]))
	}
}

// Eval6All: see Eval5All.
func Eval6All(hands [][6]card.Card, out []Value) {
	out = out[:len(hands)]
	for len(hands) >= 4 {
		h, o := (*[4][6]card.Card)(hands), (*[4]Value)(out)
		k0, k1, k2, k3 := key6(&h[0]), key6(&h[1]), key6(&h[2]), key6(&h[3])
		if (k0|k1|k2|k3)&flushBits == 0 {
			o[0], o[1], o[2], o[3] = rankLookup(k0), rankLookup(k1), rankLookup(k2), rankLookup(k3)
		} else {
			o[0], o[1], o[2], o[3] = eval6Key(&h[0], k0), eval6Key(&h[1], k1), eval6Key(&h[2], k2), eval6Key(&h[3], k3)
		}
		hands, out = hands[4:], out[4:]
	}
	for i := range hands {
		out[i] = eval6Key(&hands[i], key6(&hands[i]))
	}
}

// Eval7All: see Eval5All.
func Eval7All(hands [][7]card.Card, out []Value) {
	out = out[:len(hands)]
	for len(hands) >= 4 {
		h, o := (*[4][7]card.Card)(hands), (*[4]Value)(out)
		k0, k1, k2, k3 := key7(&h[0]), key7(&h[1]), key7(&h[2]), key7(&h[3])
		if (k0|k1|k2|k3)&flushBits == 0 {
			o[0], o[1], o[2], o[3] = rankLookup(k0), rankLookup(k1), rankLookup(k2), rankLookup(k3)
		} else {
			o[0], o[1], o[2], o[3] = eval7Key(&h[0], k0), eval7Key(&h[1], k1), eval7Key(&h[2], k2), eval7Key(&h[3], k3)
		}
		hands, out = hands[4:], out[4:]
	}
	for i := range hands {
		out[i] = eval7Key(&hands[i], key7(&hands[i]))
	}
}

// key5, key6 and key7 are the key of their cards (suitBias included: the
// bulk loops keep the add, an immediate, rather than read a second table);
// eval5Key, eval6Key and eval7Key rank the cards whose key is key (for the
// hands of a step with a flush among them, and the last hands). They stay
// calls (go:noinline): inlined into the bulk loops (eval5Key fits the
// budget since the lookups were spelled out), they keep every card of the
// step live across the loop, spilled, and Eval5All ran 0.8-0.9x.
func key5(h *[5]card.Card) uint64 {
	return suitBias + cardKeys[h[0]] + cardKeys[h[1]] + cardKeys[h[2]] + cardKeys[h[3]] + cardKeys[h[4]]
}

func key6(h *[6]card.Card) uint64 {
	return suitBias + cardKeys[h[0]] + cardKeys[h[1]] + cardKeys[h[2]] + cardKeys[h[3]] + cardKeys[h[4]] + cardKeys[h[5]]
}

func key7(h *[7]card.Card) uint64 {
	return suitBias + cardKeys[h[0]] + cardKeys[h[1]] + cardKeys[h[2]] + cardKeys[h[3]] + cardKeys[h[4]] + cardKeys[h[5]] + cardKeys[h[6]]
}

//go:noinline
func eval5Key(h *[5]card.Card, key uint64) Value {
	if key&flushBits != 0 {
		return flushLookup(key, cardMasks[h[0]]|cardMasks[h[1]]|cardMasks[h[2]]|cardMasks[h[3]]|cardMasks[h[4]])
	}
	return rankLookup(key)
}

//go:noinline
func eval6Key(h *[6]card.Card, key uint64) Value {
	if key&flushBits != 0 {
		return flushLookup(key, cardMasks[h[0]]|cardMasks[h[1]]|cardMasks[h[2]]|cardMasks[h[3]]|cardMasks[h[4]]|cardMasks[h[5]])
	}
	return rankLookup(key)
}

//go:noinline
func eval7Key(h *[7]card.Card, key uint64) Value {
	if key&flushBits != 0 {
		return flushLookup(key, cardMasks[h[0]]|cardMasks[h[1]]|cardMasks[h[2]]|cardMasks[h[3]]|cardMasks[h[4]]|cardMasks[h[5]]|cardMasks[h[6]])
	}
	return rankLookup(key)
}

// Partial is some distinct cards as the evaluator sees them: the sum of
// their keys (rank sum and suit counters) and the OR of their suit masks.
// The zero Partial holds no card. Add and Value are small enough to
// inline, so a loop that shares cards between hands (a board and each
// player's hole cards) adds the shared ones once and pays no call per
// hand:
//
//	board := hand.Partial{}.Add(b0).Add(b1).Add(b2).Add(b3).Add(b4)
//	v := board.Add(h0).Add(h1).Value()
//
// Adding a card twice, or more than 7 cards, gives a meaningless Value.
type Partial struct {
	key, mask uint64
}

// Add returns p with card c added (c must not be in p already).
func (p Partial) Add(c card.Card) Partial {
	return Partial{p.key + cardKeys[c], p.mask | cardMasks[c]}
}

// Join returns the cards of p and q together (they must be disjoint).
func (p Partial) Join(q Partial) Partial {
	return Partial{p.key + q.key, p.mask | q.mask}
}

// Value ranks the best five of p's 5 to 7 cards, as Eval5, Eval6 and Eval7
// do (for fewer or more cards it is meaningless).
func (p Partial) Value() Value {
	key := p.key + suitBias
	if key&flushBits != 0 {
		return flushLookup(key, p.mask)
	}
	return rankLookup(key)
}

// evalSum ranks a hand from its key sum (with suitBias) and mask OR.
func evalSum(key, mask uint64) Value {
	if key&flushBits != 0 {
		return flushLookup(key, mask)
	}
	return rankLookup(key)
}

// EvalMask ranks the best five of the 5 to 7 cards in s; it returns the
// zero Value (no hand) for any other number of cards.
func EvalMask(s card.Set) Value {
	if n := bits.OnesCount64(uint64(s)); n < 5 || n > 7 || s>>card.NumCards != 0 {
		return 0
	}
	key, mask := uint64(suitBias), uint64(0)
	for m := uint64(s); m != 0; m &= m - 1 {
		c := uint8(bits.TrailingZeros64(m))
		key += cardKeys[c]
		mask |= cardMasks[c]
	}
	return evalSum(key, mask)
}

// EvalHand ranks a five-card hand given as a slice; it panics unless
// len(cards) == 5.
func EvalHand(cards []card.Card) Value {
	_ = cards[4]
	if len(cards) != 5 {
		panic("hand.EvalHand: need 5 cards")
	}
	return Eval5(cards[0], cards[1], cards[2], cards[3], cards[4])
}

// evalN ranks the best five of 5 to 7 distinct cards.
func evalN(cards []card.Card) Value {
	key, mask := uint64(suitBias), uint64(0)
	for _, c := range cards {
		key += cardKeys[c]
		mask |= cardMasks[c]
	}
	return evalSum(key, mask)
}

// Best returns the best five-card hand that can be made from 5 to 7
// distinct cards (THB v9 3.10: the best five of the player's two and the
// five community cards) and the five cards that make it, in the order they
// were given. When several fives make the same best hand (3.12.1: equal
// hands are a stand-off), it returns the first in that order. It panics on
// fewer than 5 or more than 7 cards, or on a repeated or invalid card.
func Best(cards []card.Card) (Value, [5]card.Card) {
	n := len(cards)
	if n < 5 || n > 7 {
		panic("hand.Best: need 5 to 7 cards")
	}
	var seen card.Set
	for _, c := range cards {
		if !c.Valid() || seen.Has(c) {
			panic("hand.Best: repeated or invalid card " + c.String())
		}
		seen = seen.Add(c)
	}
	best := evalN(cards)
	var used [5]card.Card
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					for e := d + 1; e < n; e++ {
						if Eval5(cards[a], cards[b], cards[c], cards[d], cards[e]) == best {
							used = [5]card.Card{cards[a], cards[b], cards[c], cards[d], cards[e]}
							return best, used
						}
					}
				}
			}
		}
	}
	panic("hand.Best: unreachable: no five of the cards make their best hand")
}

// QualifiesStud reports whether a five-card dealer hand qualifies in the
// stud games: "an Ace and a King or higher" (SSP v6 3.10, RWS CSP, SSP v4),
// read as a hand ranked at least Ace-King high (ruling R15): any pair or
// better qualifies, as does every straight, the wheel included.
func QualifiesStud(v Value) bool {
	return v >= minAceKing
}

// minAceKing is the Value of the lowest Ace-King-high hand, A K 4 3 2 of at
// least two suits (a test checks it).
const minAceKing Value = 1114
