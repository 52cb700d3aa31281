// Package tablegen builds the lookup tables of the fast hand evaluator in
// package hand and writes them as Go source (hand/tables_gen.go, by `go
// generate ./internal/hand`). A test in package hand rebuilds them and fails
// if the committed file differs.
//
// The design is a perfect hash over rank multisets, after OMPEval (Henrik
// Aalto): every card carries a 64-bit key, and the key of a hand is the sum
// of its cards' keys.
//
//   - The top 25 bits (from bit KeyRankShift = 39) are the sum of a per-rank
//     multiplier (RankMultipliers) over the hand's cards. The multipliers are
//     chosen so that every multiset of at most 7 ranks with at most 4 of a
//     rank has its own sum (Build checks this), and every sum is below 2^25,
//     so a sum fills the key's top bits exactly and key>>KeyRankShift is it.
//   - Bits 8-29 hold four 4-bit suit counters (flags at Flag) that the
//     evaluator starts at 3: a suit with 5 or more cards sets bit 3 of its
//     counter, so one AND finds a flush. The other bits below 39 are zero.
//
// The layout puts the constants the evaluator adds and tests (SuitBias and
// FlushBits) in instructions' 32-bit immediates, and the perfect-hash row
// (key>>(KeyRankShift+RowShift)) below NumRows with no mask or bounds check.
// hand.Eval7 has a key, and a table, of its own (Key7).
//
// Without a flush the rank sum is hashed to a dense index with one
// displacement per 2^RowShift-wide row of sums (Offsets), found greedily by
// Build (first fit, fullest rows first). With a flush, the 13-bit rank mask
// of the flush suit is the index. Both index one table, Ranks: its first
// FlushSlots entries are Flush, and the rank multisets of 5 to 7 cards take
// exactly the next 73,775 (the hash is minimal above the flushes). One table
// lets the flush index be a uint16 (bits 13-15 of a shifted mask are zero)
// with no mask and no bounds check: the node that saves keeps hand.Eval6
// within Go's inlining budget.
//
// The values stored are dense equivalence classes: 1 is the worst five-card
// hand (7-5-4-3-2 of at least two suits), 7462 the Royal Flush, each class
// a distinct five-card hand under rules 3.11-3.12 of the stud documents.
//
// Three-card hands (TCP v6 3.14-3.15) need no hash: Three holds the value
// of every ordered triple of ranks, at index 169*(r0-2) + 13*(r1-2) +
// (r2-2), and of the same triple suited at that index + 2197. The values
// are package hand's Value3 layout (see Value3Of).
package tablegen

import (
	"bytes"
	"fmt"
	"go/format"
	"math/bits"
	"slices"
)

// RankMultipliers are the per-rank addends of the rank part of a card key,
// indexed by rank-2 (Two first). They are OMPEval's constants.
var RankMultipliers = [13]uint32{0x2000, 0x8001, 0x11000, 0x3a000, 0x91000, 0x176005, 0x366000, 0x41a013, 0x47802e, 0x479068, 0x48c0e4, 0x48f211, 0x494493}

// RowShift sets the width of a perfect-hash row: 2^RowShift rank sums.
const RowShift = 11

// RankBits is the width of a rank sum: every sum is below 2^RankBits.
const RankBits = 25

// KeyRankShift is where a card key's rank multiplier starts: its top
// RankBits bits.
const KeyRankShift = 64 - RankBits

// A key's four 4-bit suit counters start at 3 (SuitBias), so that a fifth
// card of suit s sets the counter's bit 3, its flag, at key bit Flag[s]
// (FlushBits are the four). The flags lie in bits 11-29, under the rank
// sum, and both constants fit an instruction's 32-bit immediate.
//
// A card's mask (Mask) has the bit MaskPos[s] + rank-2: each suit's 13
// ranks with three zero bits above them. The flags are placed so that
// 2^Flag[s] mod FlushMod is MaskPos[s]: a hand's mask shifted right by
// (key & FlushBits) % FlushMod has its flush suit's ranks in bits 0-12 and
// zero in bits 13-15, so a uint16 of it is the flush's index. The Key7
// flags (Flag7) map to the same places, so the seven-card evaluator shares
// the masks.
const FlushMod = 58

var (
	Flag       = [4]int{29, 11, 22, 17}
	Flag7      = [4]int{29, 39, 22, 45}
	MaskPos    = [4]int{2, 18, 34, 50}
	SuitBias   = bias(Flag)
	Bias7      = bias(Flag7)
	FlushBits  = flags(Flag)
	FlushBits7 = flags(Flag7)
)

func bias(flag [4]int) (b uint64) {
	for _, f := range flag {
		b |= 3 << (f - 3)
	}
	return b
}

func flags(flag [4]int) (b uint64) {
	for _, f := range flag {
		b |= 1 << f
	}
	return b
}

// Key is card c's key (c = 4*(rank-2) + suit), with no bias.
func Key(c int) uint64 {
	return uint64(RankMultipliers[c/4])<<KeyRankShift | 1<<(Flag[c%4]-3)
}

// Mask is card c's bit in a hand's mask.
func Mask(c int) uint64 {
	return 1 << (MaskPos[c%4] + c/4)
}

// checkLayout fails unless each flag maps to its suit's mask place and no
// two counters, or two suits' ranks, overlap; the counters lie in bits lo
// to hi-1.
func checkLayout(flag [4]int, lo, hi int) error {
	for s, x := range flag {
		if p := (uint64(1) << x) % FlushMod; p != uint64(MaskPos[s]) {
			return fmt.Errorf("tablegen: flag %d gives shift %d, not %d", x, p, MaskPos[s])
		}
		if x-3 < lo || x >= hi {
			return fmt.Errorf("tablegen: flag %d outside bits %d-%d", x, lo, hi-1)
		}
		for u, y := range flag[:s] {
			if x-y < 4 && y-x < 4 || MaskPos[s]-MaskPos[u] < 16 {
				return fmt.Errorf("tablegen: suits %d and %d overlap", u, s)
			}
		}
	}
	if MaskPos[3]+13 > 64 {
		return fmt.Errorf("tablegen: suit 3's ranks pass bit 63")
	}
	return nil
}

// NumRows is the number of perfect-hash rows: every rank sum is below 2^25.
const NumRows = 1 << (RankBits - RowShift)

// FlushSlots is where the rank multisets start in Ranks: entries 0 to 8191
// are Flush, indexed by a 13-bit rank mask.
const FlushSlots = 8192

// Categories, lowest first, as numbered by package hand.
const (
	catHighCard = iota + 1
	catOnePair
	catTwoPair
	catThreeOfAKind
	catStraight
	catFlush
	catFullHouse
	catFourOfAKind
	catStraightFlush
	catRoyalFlush
)

// Tables are the evaluator's lookup tables.
type Tables struct {
	Offsets [NumRows]uint32 // per row: added (mod 2^32) to the rank sum
	Ranks   []uint16        // Flush, then the class of each non-flush rank multiset of 5-7 cards
	Flush   [8192]uint16    // class of the best flush in a 13-bit rank mask (5-7 bits set)
	// CategoryFloor[c] is the lowest class of category c (index 1-10), and
	// CategoryFloor[11] is one more than the highest class.
	CategoryFloor [12]uint16
	// Three is the Value3 of each ordered rank triple, unsuited then suited.
	Three [2 * 13 * 13 * 13]uint32
	// Offsets7 and Ranks7 are the seven-card table (see Key7): per row of
	// Key7 sums its displacement (mod 2^16), and Flush then the class of
	// every non-flush rank multiset of exactly 7 cards, in 2^16 entries.
	Offsets7 [NumRows]uint16
	Ranks7   []uint32
}

// Three-card categories in TCP v6 3.14's order, lowest first (package
// hand's Value3 bits 20-23).
const (
	three3HighCard = iota + 1
	three3Pair
	three3Flush
	three3Straight
	three3Trips
	three3StraightFlush
)

// Value3Of is the value of a three-card hand with ranks r0, r1, r2 (2-14,
// any order), suited or not, under TCP v6 3.14-3.15: the category's order
// in bits 20-23, then up to three 4-bit ranks in the order 3.15 compares
// them. A-2-3 is the lowest straight (3.15.3), Q-K-A the highest.
func Value3Of(r0, r1, r2 int, suited bool) uint32 {
	r := []int{r0, r1, r2}
	slices.Sort(r)
	slices.Reverse(r) // r[0] >= r[1] >= r[2]
	mk := func(cat int, ranks ...int) uint32 {
		v := uint32(cat) << 20
		shift := 16
		for _, x := range ranks {
			v |= uint32(x) << shift
			shift -= 4
		}
		return v
	}
	top := 0
	switch {
	case r[0] == 14 && r[1] == 3 && r[2] == 2:
		top = 3 // A-2-3, 3.3.1.2 and 3.15.3
	case r[0] == r[1]+1 && r[1] == r[2]+1:
		top = r[0]
	}
	switch {
	case top != 0 && suited:
		return mk(three3StraightFlush, top) // 3.15.3, 3.15.4
	case r[0] == r[2]:
		return mk(three3Trips, r[0])
	case top != 0:
		return mk(three3Straight, top) // 3.15.3, 3.15.4
	case suited:
		return mk(three3Flush, r[0], r[1], r[2])
	case r[0] == r[1]:
		return mk(three3Pair, r[0], r[2]) // 3.15.2
	case r[1] == r[2]:
		return mk(three3Pair, r[1], r[0]) // 3.15.2
	}
	return mk(three3HighCard, r[0], r[1], r[2])
}

// structured is a hand's value as category<<20 then up to five 4-bit ranks
// (2-14) in the order rule 3.12 compares them. Order-equivalent to the
// rules; Build maps it to dense classes.
func structured(cat int, ranks ...int) uint32 {
	v := uint32(cat) << 20
	shift := 16
	for _, r := range ranks {
		v |= uint32(r) << shift
		shift -= 4
	}
	return v
}

// straightTop returns the top rank (2-14) of the highest straight in a
// 13-bit rank mask (bit r-2 for rank r), 5 for the wheel A-2-3-4-5 (rule
// 3.3.1.2, 3.12.4), or 0 if there is none.
func straightTop(mask uint32) int {
	for top := 14; top >= 6; top-- {
		m := uint32(0x1f) << (top - 6)
		if mask&m == m {
			return top
		}
	}
	const wheel = 1<<12 | 0xf
	if mask&wheel == wheel {
		return 5
	}
	return 0
}

// bestOfCounts is the best five-card hand, without a flush, that a multiset
// of 5 to 7 ranks makes (counts[r-2] cards of rank r).
func bestOfCounts(counts [13]int) uint32 {
	var mask uint32
	for i, n := range counts {
		if n > 0 {
			mask |= 1 << i
		}
	}
	// ranksWith lists ranks (2-14), highest first, with at least n cards,
	// skipping the ranks in skip.
	ranksWith := func(n int, skip ...int) []int {
		var out []int
		for i := 12; i >= 0; i-- {
			if counts[i] >= n && !slices.Contains(skip, i+2) {
				out = append(out, i+2)
			}
		}
		return out
	}
	if q := ranksWith(4); len(q) > 0 {
		return structured(catFourOfAKind, q[0], ranksWith(1, q[0])[0])
	}
	if t := ranksWith(3); len(t) > 0 {
		if p := ranksWith(2, t[0]); len(p) > 0 {
			return structured(catFullHouse, t[0], p[0]) // 3.12.5
		}
	}
	if top := straightTop(mask); top != 0 {
		return structured(catStraight, top) // 3.12.4, 3.12.6
	}
	if t := ranksWith(3); len(t) > 0 {
		k := ranksWith(1, t[0])
		return structured(catThreeOfAKind, t[0], k[0], k[1])
	}
	if p := ranksWith(2); len(p) >= 2 {
		return structured(catTwoPair, p[0], p[1], ranksWith(1, p[0], p[1])[0]) // 3.12.2
	}
	if p := ranksWith(2); len(p) == 1 {
		k := ranksWith(1, p[0])
		return structured(catOnePair, p[0], k[0], k[1], k[2]) // 3.12.3
	}
	k := ranksWith(1)
	return structured(catHighCard, k[0], k[1], k[2], k[3], k[4])
}

// bestOfFlush is the best five-card hand in one suit holding the ranks of a
// 13-bit mask with 5 to 7 bits set.
func bestOfFlush(mask uint32) uint32 {
	if top := straightTop(mask); top == 14 {
		return structured(catRoyalFlush, 14)
	} else if top != 0 {
		return structured(catStraightFlush, top)
	}
	var k []int
	for i := 12; i >= 0 && len(k) < 5; i-- {
		if mask&(1<<i) != 0 {
			k = append(k, i+2)
		}
	}
	return structured(catFlush, k...)
}

// multisets calls f for every multiset of ranks with min to max cards and
// at most 4 of a rank.
func multisets(min, max int, f func(counts [13]int, n int)) {
	var counts [13]int
	var rec func(r, n int)
	rec = func(r, n int) {
		if r == 13 {
			if n >= min {
				f(counts, n)
			}
			return
		}
		for c := 0; c <= 4 && n+c <= max; c++ {
			counts[r] = c
			rec(r+1, n+c)
		}
		counts[r] = 0
	}
	rec(0, 0)
}

// RankSum is the rank part of the key of a multiset.
func RankSum(counts [13]int) uint32 {
	var k uint32
	for i, n := range counts {
		k += uint32(n) * RankMultipliers[i]
	}
	return k
}

// Build computes the tables. It fails if the multipliers do not give every
// multiset its own sum below 2^25.
func Build() (*Tables, error) {
	if err := checkLayout(Flag, 0, KeyRankShift); err != nil {
		return nil, err
	}
	// The 7462 five-card classes, in order.
	var classes []uint32
	multisets(5, 5, func(c [13]int, _ int) { classes = append(classes, bestOfCounts(c)) })
	for m := uint32(0); m < 8192; m++ {
		if bits.OnesCount32(m) == 5 {
			classes = append(classes, bestOfFlush(m))
		}
	}
	slices.Sort(classes)
	classes = slices.Compact(classes)
	class := func(s uint32) uint16 {
		i, ok := slices.BinarySearch(classes, s)
		if !ok {
			panic(fmt.Sprintf("tablegen: hand %#x is no five-card class", s))
		}
		return uint16(i + 1)
	}

	t := &Tables{}
	for c := 1; c <= 11; c++ {
		i, _ := slices.BinarySearch(classes, uint32(c)<<20)
		t.CategoryFloor[c] = uint16(i + 1)
	}

	// Rank multisets of 5-7 cards: their sums and classes.
	type entry struct {
		sum   uint32
		class uint16
	}
	var entries []entry
	seen := map[uint32]bool{}
	var err error
	multisets(5, 7, func(c [13]int, _ int) {
		s := RankSum(c)
		if seen[s] || s>>RankBits != 0 {
			err = fmt.Errorf("tablegen: rank sum %#x repeated or out of range", s)
		}
		seen[s] = true
		entries = append(entries, entry{s, class(bestOfCounts(c))})
	})
	if err != nil {
		return nil, err
	}

	// Perfect hash: place rows, fullest first, at the lowest displacement
	// where none of their columns collides.
	rows := make([][]entry, NumRows)
	for _, e := range entries {
		rows[e.sum>>RowShift] = append(rows[e.sum>>RowShift], e)
	}
	order := fullestFirst(rows)
	for m := uint32(0); m < 8192; m++ {
		if n := bits.OnesCount32(m); n >= 5 && n <= 7 {
			t.Flush[m] = class(bestOfFlush(m))
		}
	}

	const colMask = 1<<RowShift - 1
	sl := newSlots(FlushSlots + 2*len(entries) + 2<<RowShift)
	table := make([]uint16, FlushSlots, FlushSlots+len(entries))
	copy(table, t.Flush[:])
	for _, r := range order {
		row := rows[r]
		c0 := int(row[0].sum & colMask)
		var d int
	search:
		for f := sl.free(c0); ; f = sl.free(f + 1) {
			d = f - c0
			for _, e := range row[1:] {
				if sl.used[d+int(e.sum&colMask)] {
					continue search
				}
			}
			break
		}
		for _, e := range row {
			i := d + int(e.sum&colMask)
			sl.take(i)
			for len(table) <= i {
				table = append(table, 0)
			}
			table[i] = e.class
		}
		t.Offsets[r] = uint32(d) - uint32(r)<<RowShift
	}
	t.Ranks = table

	if err := t.build7(class); err != nil {
		return nil, err
	}

	// Three cards: every ordered rank triple, then suited (a suited triple
	// of repeated ranks cannot be dealt; its entry is never read).
	for i := range 13 * 13 * 13 {
		r0, r1, r2 := i/169+2, i/13%13+2, i%13+2
		t.Three[i] = Value3Of(r0, r1, r2, false)
		if r0 != r1 && r1 != r2 && r0 != r2 {
			t.Three[13*13*13+i] = Value3Of(r0, r1, r2, true)
		}
	}
	return t, nil
}

// Source is tables_gen.go for package hand, gofmt'd.
func (t *Tables) Source() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by go generate (internal/hand/tablegen); DO NOT EDIT.\n\n")
	b.WriteString("package hand\n\n")
	fmt.Fprintf(&b, "// cardKeys holds each card's key: the rank multiplier in the top %d bits\n", RankBits)
	fmt.Fprintf(&b, "// (from bit %d) and 1 in its suit's 4-bit counter (flag at tablegen.Flag). Indexes\n", KeyRankShift)
	b.WriteString("// 52-255 are zero so that indexing by a card.Card needs no bounds check.\n")
	b.WriteString("var cardKeys = [256]uint64{\n")
	for c := 0; c < 52; c++ {
		fmt.Fprintf(&b, "\t%#x,\n", Key(c))
	}
	b.WriteString("}\n\n")
	b.WriteString("// firstKeys is cardKeys with every suit counter started at 3 (SuitBias), for\n")
	b.WriteString("// a hand's first card: a hand's key is firstKeys[c0] plus cardKeys of the\n")
	b.WriteString("// others, one addition fewer than adding the bias.\n")
	b.WriteString("var firstKeys = [256]uint64{\n")
	for c := 0; c < 256; c++ {
		k := uint64(0)
		if c < 52 {
			k = Key(c)
		}
		fmt.Fprintf(&b, "\t%#x,\n", k+SuitBias)
	}
	b.WriteString("}\n\n")
	b.WriteString("// cardMasks holds each card's bit in a hand's mask: suit s's ranks from\n")
	b.WriteString("// bit tablegen.MaskPos[s], with three zero bits above them.\n")
	b.WriteString("var cardMasks = [256]uint64{\n")
	for c := 0; c < 52; c++ {
		fmt.Fprintf(&b, "\t%#x,\n", Mask(c))
	}
	b.WriteString("}\n\n")
	b.WriteString("// The key layout (tablegen.Flag, Flag7, MaskPos): a key's suit counters\n")
	b.WriteString("// start at 3 (suitBias; firstKeys7 holds Eval7's bias); flushBits and\n")
	b.WriteString("// flushBits7 are their flags; a flag mod flushMod is where its suit's\n")
	b.WriteString("// ranks start in cardMasks.\n")
	fmt.Fprintf(&b, "const (\n\tsuitBias = %#x\n\tflushBits = %#x\n\tflushBits7 = %#x\n\tflushMod = %d\n\trow7Shift = %d\n)\n\n",
		SuitBias, FlushBits, FlushBits7, FlushMod, Row7Shift)
	fmt.Fprintf(&b, "// categoryFloor[c] is the lowest Value of category c; [11] is one past the Royal Flush.\n")
	fmt.Fprintf(&b, "var categoryFloor = [12]Value{")
	for i, f := range t.CategoryFloor {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d", f)
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "// rankOffsets is the perfect-hash displacement of each 2^%d-wide row of rank sums.\n", RowShift)
	fmt.Fprintf(&b, "var rankOffsets = [%d]uint32{", NumRows)
	writeList(&b, t.Offsets[:], func(v uint32) string { return fmt.Sprintf("%#x", v) })
	b.WriteString("}\n\n")
	size := 1
	for size < len(t.Ranks) {
		size *= 2
	}
	fmt.Fprintf(&b, "// numRankClasses is the number of rank multisets of 5 to 7 cards.\nconst numRankClasses = %d\n\n", len(t.Ranks)-FlushSlots)
	fmt.Fprintf(&b, "// flushSlots is where the rank multisets start in rankClasses.\nconst flushSlots = %d\n\n", FlushSlots)
	b.WriteString("// rankClasses is, at index m below flushSlots, the class of the best flush\n")
	b.WriteString("// in a 13-bit rank mask m of one suit, then the class of each rank multiset\n")
	b.WriteString("// of 5 to 7 cards without a flush. Its size is a power of two so that a\n")
	b.WriteString("// masked index needs no bounds check and no input, however wrong, can index\n")
	b.WriteString("// outside it.\n")
	fmt.Fprintf(&b, "var rankClasses = [%d]uint16{", size)
	writeList(&b, t.Ranks, func(v uint16) string { return fmt.Sprint(v) })
	b.WriteString("}\n\n")
	b.WriteString("// threeValues is the Value3, shifted right 8 bits (its low 8 bits are\n")
	b.WriteString("// always zero), of each ordered triple of ranks: index 169*(r0-2) +\n")
	b.WriteString("// 13*(r1-2) + (r2-2), plus 2197 when the three cards are suited. Its size\n")
	b.WriteString("// is a power of two so that a masked index needs no bounds check; entries\n")
	b.WriteString("// past 4393 are zero.\n")
	b.WriteString("var threeValues = [8192]uint16{")
	for _, v := range t.Three {
		if v&0xff != 0 || v>>24 != 0 {
			return nil, fmt.Errorf("tablegen: three-card value %#x does not fit 16 bits shifted by 8", v)
		}
	}
	writeList(&b, t.Three[:], func(v uint32) string { return fmt.Sprintf("%#x", v>>8) })
	b.WriteString("}\n\n")
	t.source7(&b)
	return format.Source(b.Bytes())
}

func writeList[T any](b *bytes.Buffer, vs []T, f func(T) string) {
	for i, v := range vs {
		if i%16 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(f(v))
		b.WriteByte(',')
	}
	b.WriteString("\n")
}

// The seven-card table: hand.Eval7's own key, masks and table, laid out so
// that its body fits Go's inlining budget (docs/evaluator-inlining.md).
//
//   - A Key7 holds a card's rank multiplier split in two: its low RowShift
//     bits at bits 0-15 (the column: seven of them sum below 2^14, so a
//     uint16 of the key is their sum) and the rest from bit Row7Shift (the
//     row, key>>Row7Shift, below NumRows). Together they are the rank sum,
//     so every rank multiset has its own (row, column).
//   - Its four 4-bit suit counters have their flags (bit 3) at Flag7, bits
//     22-45, between the column's carries (bits 16-18) and the row; 2^Flag7[s]
//     mod FlushMod is MaskPos[s], as for Flag, so the flush index is found
//     the same way from the same masks.
//   - The table has 2^16 entries of hand.Value, indexed by a uint16 sum:
//     no mask, no conversion of the value, no bounds check.
const (
	Row7Shift = 64 - (RankBits - RowShift)
	Size7     = 1 << 16
)

// Key7 is card c's seven-card key (c = 4*(rank-2) + suit), with no bias.
func Key7(c int) uint64 {
	m := uint64(RankMultipliers[c/4])
	return m&(1<<RowShift-1) | 1<<(Flag7[c%4]-3) | m>>RowShift<<Row7Shift
}

func (t *Tables) build7(class func(uint32) uint16) error {
	if err := checkLayout(Flag7, 19, Row7Shift); err != nil {
		return err
	}
	type entry struct {
		col   uint16
		class uint32
	}
	rows := make([][]entry, NumRows)
	seen := map[[2]uint64]bool{}
	var err error
	multisets(7, 7, func(c [13]int, _ int) {
		var k uint64
		for i, n := range c {
			k += uint64(n) * Key7(4*i)
		}
		k -= 7 << (Flag7[0] - 3) // the seven suit-0 counts, not part of the hash
		col, row := k&0xffff, k>>Row7Shift
		if seen[[2]uint64{row, col}] || k&^(0xffff|(NumRows-1)<<Row7Shift) != 0 {
			err = fmt.Errorf("tablegen: seven-card key %#x repeated or out of place", k)
		}
		seen[[2]uint64{row, col}] = true
		rows[row] = append(rows[row], entry{uint16(col), uint32(class(bestOfCounts(c)))})
	})
	if err != nil {
		return err
	}
	t.Ranks7 = make([]uint32, Size7)
	for m := range FlushSlots {
		t.Ranks7[m] = uint32(t.Flush[m])
	}
	sl := newSlots(Size7)
	for _, r := range fullestFirst(rows) {
		row := rows[r]
		found := false
	search:
		for f := sl.free(0); f < Size7; f = sl.free(f + 1) {
			d := uint16(f) - row[0].col
			for _, e := range row[1:] {
				if sl.used[e.col+d] {
					continue search
				}
			}
			for _, e := range row {
				sl.take(int(e.col + d))
				t.Ranks7[e.col+d] = e.class
			}
			t.Offsets7[r] = d
			found = true
			break
		}
		if !found {
			return fmt.Errorf("tablegen: no room for seven-card row %d", r)
		}
	}
	return nil
}

func (t *Tables) source7(b *bytes.Buffer) {
	b.WriteString("// keys7 holds each card's seven-card key (tablegen.Key7): the low bits of\n")
	fmt.Fprintf(b, "// its rank multiplier at bits 0-15, the rest from bit %d, and 1 in its\n", Row7Shift)
	b.WriteString("// suit's counter, whose flag is tablegen.Flag7. firstKeys7 has every\n")
	b.WriteString("// counter started at 3 too. Indexes 52-255 hold no card.\n")
	b.WriteString("var keys7 = [256]uint64{\n")
	for c := range 52 {
		fmt.Fprintf(b, "\t%#x,\n", Key7(c))
	}
	b.WriteString("}\n\n")
	b.WriteString("var firstKeys7 = [256]uint64{\n")
	for c := range 256 {
		k := Bias7
		if c < 52 {
			k += Key7(c)
		}
		fmt.Fprintf(b, "\t%#x,\n", k)
	}
	b.WriteString("}\n\n")
	b.WriteString("// rankOffsets7 is the displacement (mod 2^16) of each row of seven-card keys.\n")
	fmt.Fprintf(b, "var rankOffsets7 = [%d]uint16{", NumRows)
	writeList(b, t.Offsets7[:], func(v uint16) string { return fmt.Sprint(v) })
	b.WriteString("}\n\n")
	b.WriteString("// rankClasses7 is, below flushSlots, the class of the best flush in a\n")
	b.WriteString("// 13-bit rank mask, then the class of each rank multiset of exactly 7\n")
	b.WriteString("// cards without a flush, at its key's column plus its row's displacement.\n")
	b.WriteString("// Entries no hand of seven valid cards reaches are 0 (no hand).\n")
	fmt.Fprintf(b, "var rankClasses7 = [%d]Value{", Size7)
	writeList(b, t.Ranks7, func(v uint32) string { return fmt.Sprint(v) })
	b.WriteString("}\n")
}

// fullestFirst lists the rows that hold entries, fullest first (ties in row
// order): the order in which the perfect hashes place them.
func fullestFirst[E any](rows [][]E) []int {
	order := make([]int, 0, len(rows))
	for r := range rows {
		if len(rows[r]) > 0 {
			order = append(order, r)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(rows[b]) - len(rows[a]) })
	return order
}

// slots are a perfect-hash table's entries, the first FlushSlots taken by
// the flushes. next[i] leads to the lowest free slot at or after i
// (union-find with path halving), so that a search visits only the
// displacements that put a row's first column on a free slot.
type slots struct {
	used []bool
	next []int32
}

func newSlots(n int) *slots {
	s := &slots{used: make([]bool, n), next: make([]int32, n+1)}
	for i := range s.next {
		s.next[i] = int32(i)
	}
	for i := range FlushSlots {
		s.take(i)
	}
	return s
}

// free is the lowest free slot at or after i (len(used) when none is).
func (s *slots) free(i int) int {
	for int(s.next[i]) != i {
		s.next[i] = s.next[s.next[i]]
		i = int(s.next[i])
	}
	return i
}

func (s *slots) take(i int) {
	s.used[i] = true
	s.next[i] = int32(i + 1)
}
