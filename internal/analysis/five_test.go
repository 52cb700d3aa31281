package analysis

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// The rank-multiset counting every figure here rests on must agree with
// hand.Eval5 run on every one of the 2,598,960 hands, category by category
// and in the number of hands the dealer's "Ace-King or better" qualifies
// (SSP v6 3.10.2, ruling R15). The totals are also the textbook ones
// (Wizard of Odds, "Ask the Wizard: Caribbean Stud Poker": 1,463,700
// qualifying hands, 56.32%).
func TestFiveCardCountsByEnumeration(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates 2,598,960 hands")
	}
	ft := newFiveTables()
	if len(ft.values) != 7462 {
		t.Errorf("%d distinct five-card values, want 7,462", len(ft.values))
	}
	var brute FiveCardCounts
	var qual uint64
	for a := 0; a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				for d := c + 1; d < 52; d++ {
					for e := d + 1; e < 52; e++ {
						v := hand.Eval5(card.Card(a), card.Card(b), card.Card(c), card.Card(d), card.Card(e))
						brute[v.Category()]++
						if hand.QualifiesStud(v) {
							qual++
						}
					}
				}
			}
		}
	}
	if got := ft.categoryCounts(); got != brute {
		t.Errorf("by rank multiset %v, by enumeration %v", got, brute)
	}
	want := FiveCardCounts{hand.HighCard: 1302540, hand.OnePair: 1098240, hand.TwoPair: 123552, hand.ThreeOfAKind: 54912,
		hand.Straight: 10200, hand.Flush: 5108, hand.FullHouse: 3744, hand.FourOfAKind: 624, hand.StraightFlush: 36, hand.RoyalFlush: 4}
	if brute != want {
		t.Errorf("enumeration %v, want %v", brute, want)
	}
	if got := ft.qualifyingHands(); got != qual || qual != 1463700 {
		t.Errorf("qualifying: by rank multiset %d, by enumeration %d, want 1,463,700", got, qual)
	}
}

// Spot checks of the stud engine against brute force: for a few player
// hands and up cards, deal all 163,185 dealer completions and settle each
// with hand.Eval5 and hand.QualifiesStud.
func TestStudCountsAgainstBruteForce(t *testing.T) {
	e := sharedStudEngine()
	cases := []struct{ player, up string }{
		{"As Kd 7c 4h 2s", "Kh"}, // Ace-King high, up card pairs the King
		{"As Ks Qs Js 9s", "Ts"}, // a flush; the up card would have made it a royal
		{"2c 2d 7h 7s Kc", "2h"}, // two pair
		{"5h 4h 3h 2h Ah", "6h"}, // the wheel straight flush
		{"Qd Jc 8s 6h 3c", "Ac"}, // below Ace-King
		{"Tc Td Th 9c 9d", "Ts"}, // full house, up card is the last Ten
	}
	for _, tc := range cases {
		p := card.MustParseList(tc.player)
		u := card.MustParseList(tc.up)[0]
		var used uint64
		for _, c := range p {
			used |= 1 << c
		}
		used |= 1 << u
		pv := hand.EvalHand(p)
		var want studCounts
		var rest []card.Card
		for c := card.Card(0); c < 52; c++ {
			if used&(1<<c) == 0 {
				rest = append(rest, c)
			}
		}
		for a := 0; a < len(rest); a++ {
			for b := a + 1; b < len(rest); b++ {
				for c := b + 1; c < len(rest); c++ {
					for d := c + 1; d < len(rest); d++ {
						dv := hand.Eval5(u, rest[a], rest[b], rest[c], rest[d])
						switch {
						case !hand.QualifiesStud(dv):
							want.nq++
						case dv < pv:
							want.win++
						case dv == pv:
							want.tie++
						default:
							want.lose++
						}
					}
				}
			}
		}
		got, ok := e.countsFor(p, u)
		if !ok || got != want {
			t.Errorf("%s vs up %s: engine %+v, brute force %+v", tc.player, tc.up, got, want)
		}
	}
}
