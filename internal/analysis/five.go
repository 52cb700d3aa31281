package analysis

import (
	"sort"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// rankSet is one multiset of five ranks (each rank at most four times): the
// ranks of a five-card hand. There are 6,175 of them.
type rankSet struct {
	counts   [13]uint8 // counts[r-2] for rank r
	parts    []rankCount
	nf       uint16 // dense value of the hand as a non-flush hand (Eval5)
	fl       uint16 // dense value as a flush, when the five ranks are distinct
	distinct bool   // five distinct ranks (can be a flush)
	mask     uint16 // the ranks present, bit r-2
}

type rankCount struct{ r, n uint8 } // rank index 0..12, count

// fiveTables holds every five-card hand value up to suits, evaluated with
// hand.Eval5 (the evaluator that settles rounds), and a dense numbering of
// the 7,462 distinct values in the rules' order (higher beats lower, equal
// is a stand-off, as hand.Value).
type fiveTables struct {
	sets     []rankSet
	byKey    map[uint32]int32 // base-5 encoding of counts -> index in sets
	byMask   [8192]int32      // five distinct ranks (13-bit mask) -> index, else -1
	values   []hand.Value     // dense value -> hand.Value, ascending
	qualify  uint16           // the lowest dense value that qualifies (hand.QualifiesStud)
	category []hand.Category  // dense value -> category
}

func countsKey(c *[13]uint8) uint32 {
	var k uint32
	for i := 12; i >= 0; i-- {
		k = k*5 + uint32(c[i])
	}
	return k
}

// newFiveTables enumerates the rank multisets and evaluates one
// representative of each (and its flush) with hand.Eval5.
func newFiveTables() *fiveTables {
	t := &fiveTables{byKey: make(map[uint32]int32, 6175)}
	for i := range t.byMask {
		t.byMask[i] = -1
	}
	var c [13]uint8
	var raw []hand.Value
	type pending struct{ nf, fl hand.Value }
	var pend []pending
	var rec func(r, left int)
	rec = func(r, left int) {
		if r == 13 {
			if left != 0 {
				return
			}
			s := rankSet{counts: c}
			var cards []card.Card
			for i := 0; i < 13; i++ {
				if c[i] == 0 {
					continue
				}
				s.parts = append(s.parts, rankCount{uint8(i), c[i]})
				s.mask |= 1 << i
				for k := uint8(0); k < c[i]; k++ {
					cards = append(cards, card.New(card.Rank(i+2), card.Suit(k)))
				}
			}
			s.distinct = len(s.parts) == 5
			var p pending
			if s.distinct {
				// all clubs is the flush; one diamond makes it a non-flush
				p.fl = hand.EvalHand(cards)
				cards[0] = card.New(cards[0].Rank(), card.Diamonds)
			}
			p.nf = hand.EvalHand(cards)
			raw = append(raw, p.nf)
			if s.distinct {
				raw = append(raw, p.fl)
				t.byMask[s.mask] = int32(len(t.sets))
			}
			t.byKey[countsKey(&c)] = int32(len(t.sets))
			t.sets = append(t.sets, s)
			pend = append(pend, p)
			return
		}
		for n := 0; n <= 4 && n <= left; n++ {
			c[r] = uint8(n)
			rec(r+1, left-n)
		}
		c[r] = 0
	}
	rec(0, 5)
	sort.Slice(raw, func(i, j int) bool { return raw[i] < raw[j] })
	for i, v := range raw {
		if i == 0 || v != raw[i-1] {
			t.values = append(t.values, v)
		}
	}
	dense := func(v hand.Value) uint16 {
		return uint16(sort.Search(len(t.values), func(i int) bool { return t.values[i] >= v }))
	}
	for i := range t.sets {
		t.sets[i].nf = dense(pend[i].nf)
		if t.sets[i].distinct {
			t.sets[i].fl = dense(pend[i].fl)
		}
	}
	t.qualify = uint16(sort.Search(len(t.values), func(i int) bool { return hand.QualifiesStud(t.values[i]) }))
	t.category = make([]hand.Category, len(t.values))
	for i, v := range t.values {
		t.category[i] = v.Category()
	}
	return t
}

// binom is C(n, k) for the small arguments used here.
func binom(n, k int) int64 {
	if k < 0 || k > n {
		return 0
	}
	r := int64(1)
	for i := 1; i <= k; i++ {
		r = r * int64(n-k+i) / int64(i)
	}
	return r
}

// FiveCardCounts is how many of the C(52,5) = 2,598,960 five-card hands fall
// in each category (index hand.Category).
type FiveCardCounts [hand.RoyalFlush + 1]uint64

// Hands5 is C(52,5).
const Hands5 = 2598960

// categoryCounts counts the five-card hands by category from the rank
// multisets: a multiset R is held by prod C(4, R_r) hands, four of which are
// flushes when its ranks are distinct. TestFiveCardCountsByEnumeration checks
// this against hand.Eval5 on all 2,598,960 hands.
func (t *fiveTables) categoryCounts() FiveCardCounts {
	var out FiveCardCounts
	for _, s := range t.sets {
		n := int64(1)
		for _, p := range s.parts {
			n *= binom(4, int(p.n))
		}
		if s.distinct {
			n -= 4
			out[t.category[s.fl]] += 4
		}
		out[t.category[s.nf]] += uint64(n)
	}
	return out
}

// qualifyingHands is how many of the 2,598,960 five-card hands qualify.
func (t *fiveTables) qualifyingHands() uint64 {
	var q uint64
	for _, s := range t.sets {
		n := int64(1)
		for _, p := range s.parts {
			n *= binom(4, int(p.n))
		}
		if s.distinct {
			n -= 4
			if s.fl >= t.qualify {
				q += 4
			}
		}
		if s.nf >= t.qualify {
			q += uint64(n)
		}
	}
	return q
}
