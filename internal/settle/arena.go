package settle

import (
	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// A settlement is many small values: the rules each line cites, each
// position's hands and lines, the cards written out. Allocated one by one
// they would be most of a round's cost, so a round hands them out of arenas,
// one allocation per kind per round. Every slice handed out is capped at
// its length (or at the room it was given), so an append to it copies
// instead of running into its neighbour's.

// cites cites each non-empty document rule; rulings pass through.
func (v *round) cites(rules ...string) []string { return v.citesThen(nil, rules...) }

// citesThen is cites(rules...) followed by more (citations already), in
// one slice of the arena: a line's clauses and the tie-break clauses that
// decided it, without a copy to append one to the other.
func (v *round) citesThen(more []string, rules ...string) []string {
	start := v.reserve(len(rules) + len(more))
	for _, r := range rules {
		switch {
		case r == "":
		case len(r) > 7 && r[:7] == "ruling ":
			v.citeArena = append(v.citeArena, r)
		default:
			v.citeArena = append(v.citeArena, v.cite(r))
		}
	}
	v.citeArena = append(v.citeArena, more...)
	end := len(v.citeArena)
	return v.citeArena[start:end:end]
}

// joined is the lists one after the other (citations already), in one
// slice of the arena.
func (v *round) joined(lists ...[]string) []string {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	start := v.reserve(n)
	for _, l := range lists {
		v.citeArena = append(v.citeArena, l...)
	}
	end := len(v.citeArena)
	return v.citeArena[start:end:end]
}

// reserve makes room for n more citations in the arena and returns where
// they start.
func (v *round) reserve(n int) int {
	if cap(v.citeArena)-len(v.citeArena) < n {
		v.citeArena = make([]string, 0, max(10*len(v.pos), n))
	}
	return len(v.citeArena)
}

// sorted is a copy of cards, highest rank first, in the round's card
// arena (a sorted hand for the dealer and one or two for each position).
func (v *round) sorted(cards []card.Card) []card.Card {
	if cap(v.cardArena)-len(v.cardArena) < len(cards) {
		v.cardArena = make([]card.Card, 0, max(5*(2*len(v.pos)+1), len(cards)))
	}
	start := len(v.cardArena)
	v.cardArena = append(v.cardArena, cards...)
	out := v.cardArena[start:len(v.cardArena):len(v.cardArena)]
	sortInPlace(out)
	return out
}

// newHand returns a pointer to a copy of h.
func (v *round) newHand(h Hand) *Hand {
	if len(v.hands) == cap(v.hands) {
		n := len(v.pos) // a main hand each, and a jackpot hand where it differs
		if v.rs.Hands.Progressive != v.rs.Hands.Main {
			n *= 2
		}
		v.hands = make([]Hand, 0, n)
	}
	v.hands = append(v.hands, h)
	return &v.hands[len(v.hands)-1]
}

// linesRoom is the lines a position needs room for: one per wager placed,
// and TCP's Ante Bonus (a line over a limit gets a second line returning the
// excess: rare, it grows the slice).
func (v *round) linesRoom(p *position) int {
	if v.rs.Game == ruleset.GameThreeCard {
		return len(p.stakes) + 1
	}
	return len(p.stakes)
}

// newLines returns an empty slice with room for n lines.
func (v *round) newLines(n int) []Line {
	if cap(v.lines)-len(v.lines) < n {
		size := 0
		for i := range v.pos {
			size += v.linesRoom(&v.pos[i])
		}
		v.lines = make([]Line, 0, max(size, n))
	}
	start := len(v.lines)
	v.lines = v.lines[:start+n]
	return v.lines[start : start : start+n]
}

// formatPair formats two card lists as formatCards does, in one allocation.
func formatPair(a, b []card.Card) (string, string) {
	buf := make([]byte, 0, 3*(len(a)+len(b)))
	buf = appendCards(buf, a)
	n := len(buf)
	buf = appendCards(buf, b)
	s := string(buf)
	return s[:n], s[n:]
}

func appendCards(b []byte, cards []card.Card) []byte {
	for i, c := range cards {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, c.Rank().String()...)
		b = append(b, c.Suit().String()...)
	}
	return b
}
