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
func (v *round) cites(rules ...string) []string {
	if cap(v.citeArena)-len(v.citeArena) < len(rules) {
		v.citeArena = make([]string, 0, max(10*len(v.pos), len(rules)))
	}
	start := len(v.citeArena)
	for _, r := range rules {
		switch {
		case r == "":
		case len(r) > 7 && r[:7] == "ruling ":
			v.citeArena = append(v.citeArena, r)
		default:
			v.citeArena = append(v.citeArena, v.cite(r))
		}
	}
	end := len(v.citeArena)
	return v.citeArena[start:end:end]
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
