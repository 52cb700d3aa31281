package hand

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
)

// rank ranks 5, 6 or 7 cards written as in the rule documents.
func rank(t *testing.T, s string) Value {
	t.Helper()
	cs := card.MustParseList(s)
	switch len(cs) {
	case 5:
		return Eval5(cs[0], cs[1], cs[2], cs[3], cs[4])
	case 6:
		return Eval6(cs[0], cs[1], cs[2], cs[3], cs[4], cs[5])
	case 7:
		return Eval7(cs[0], cs[1], cs[2], cs[3], cs[4], cs[5], cs[6])
	}
	t.Fatalf("%q: %d cards", s, len(cs))
	return 0
}

func rank3(t *testing.T, s string) Value3 {
	t.Helper()
	cs := card.MustParseList(s)
	if len(cs) != 3 {
		t.Fatalf("%q: %d cards", s, len(cs))
	}
	return Eval3(cs[0], cs[1], cs[2])
}

// SSP v6 3.11 (= THB v9 3.11): each example hand of the document is in its
// order of hands, and each order beats the one below it.
func TestOrderOfHandsRule3_11(t *testing.T) {
	examples := []struct {
		rule  string
		cards string
		cat   Category
	}{
		{"3.11.1", "A♦ K♦ Q♦ J♦ 10♦", RoyalFlush},
		{"3.11.2", "J♣ 10♣ 9♣ 8♣ 7♣", StraightFlush},
		{"3.11.3", "A♣ A♥ A♦ A♠ J♥", FourOfAKind},
		{"3.11.4", "K♣ K♥ K♦ A♠ A♥", FullHouse},
		{"3.11.5", "J♥ 8♥ 6♥ 5♥ 2♥", Flush},
		{"3.11.6", "9♣ 8♦ 7♣ 6♥ 5♠", Straight},
		{"3.11.7", "10♠ 10♥ 10♣ 6♥ 3♦", ThreeOfAKind},
		{"3.11.8", "Q♠ Q♥ 6♣ 6♥ 3♦", TwoPair},
		{"3.11.9", "A♣ A♥ 8♦ 6♥ 5♠", OnePair},
		{"3.11.10", "Q♣ 10♥ 6♦ 5♠ 2♥", HighCard},
	}
	for i, ex := range examples {
		t.Run(ex.rule, func(t *testing.T) {
			v := rank(t, ex.cards)
			if v.Category() != ex.cat {
				t.Fatalf("%s: %s, want %s", ex.cards, v.Category(), ex.cat)
			}
			if i+1 < len(examples) {
				if lower := rank(t, examples[i+1].cards); v <= lower {
					t.Fatalf("%s (%d) does not beat %s (%d)", ex.cards, v, examples[i+1].cards, lower)
				}
			}
		})
	}
	// The lowest hand of each order beats the highest of the order below.
	lowHigh := []struct{ rule, low, highBelow string }{
		{"3.11.1 royal over the best straight flush", "As Ks Qs Js Ts", "Kh Qh Jh Th 9h"},
		{"3.11.2 steel wheel over the best four of a kind", "5c 4c 3c 2c Ac", "As Ah Ad Ac Kh"},
		{"3.11.3 lowest quads over the best full house", "2s 2h 2d 2c 3h", "As Ah Ad Kc Kh"},
		{"3.11.4 lowest full house over the best flush", "2s 2h 2d 3c 3h", "As Ks Qs Js 9s"},
		{"3.11.5 lowest flush over the best straight", "7h 5h 4h 3h 2h", "As Kd Qc Jh Ts"},
		{"3.11.6 wheel over the best three of a kind", "5d 4c 3h 2s Ac", "As Ah Ad Kc Qh"},
		{"3.11.7 lowest trips over the best two pair", "2s 2h 2d 3c 4h", "As Ah Kd Kc Qh"},
		{"3.11.8 lowest two pair over the best pair", "3s 3h 2d 2c 4h", "As Ah Kd Qc Jh"},
		{"3.11.9 lowest pair over the best high card", "2s 2h 3d 4c 5h", "As Kh Qd Jc 9h"},
	}
	for _, tc := range lowHigh {
		t.Run(tc.rule, func(t *testing.T) {
			if a, b := rank(t, tc.low), rank(t, tc.highBelow); a <= b {
				t.Fatalf("%s (%d) does not beat %s (%d)", tc.low, a, tc.highBelow, b)
			}
		})
	}
}

// cmp is -1, 0 or 1 as a ranks below, equal to or above b.
func cmp[V ~uint32](a, b V) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// The tie-break clauses of SSP v6 3.12 (the same in THB v9 3.12, SSP v4 and
// RWS CSP), each case citing the clause it checks. want is +1 when a wins,
// 0 for a stand-off, -1 when b wins.
func TestTieBreaksRule3_12(t *testing.T) {
	cases := []struct {
		rule string
		a, b string
		want int
	}{
		// 3.12 with 3.3.1: same order, different card values rank by card.
		{"3.12 high card: the highest card decides", "A♣ 9♥ 7♦ 5♠ 2♥", "K♣ Q♥ J♦ 9♠ 7♥", 1},
		{"3.12 high card: then the second", "A♣ Q♥ 7♦ 5♠ 2♥", "A♦ J♥ 10♦ 9♠ 7♥", 1},
		{"3.12 high card: down to the fifth card", "A♣ K♥ Q♦ J♠ 3♥", "A♦ K♠ Q♣ J♥ 2♦", 1},
		{"3.12 flush: higher cards win", "K♥ 8♥ 6♥ 5♥ 2♥", "Q♠ J♠ 10♠ 9♠ 7♠", 1},
		{"3.12 flush: down to the fifth card", "A♥ K♥ Q♥ J♥ 3♥", "A♠ K♠ Q♠ J♠ 2♠", 1},
		{"3.12 three of a kind: the higher trips", "3♠ 3♥ 3♣ 4♥ 2♦", "2♠ 2♥ 2♣ A♥ K♦", 1},
		{"3.12 four of a kind: the higher quads", "3♠ 3♥ 3♣ 3♦ 2♦", "2♠ 2♥ 2♣ 2♦ A♦", 1},
		{"3.12 straight: the higher straight", "10♣ 9♦ 8♣ 7♥ 6♠", "9♣ 8♦ 7♦ 6♥ 5♠", 1},
		{"3.12 straight flush: the higher straight flush", "Q♣ J♣ 10♣ 9♣ 8♣", "J♥ 10♥ 9♥ 8♥ 7♥", 1},
		{"3.3.1.2 Q-K-A-2-3 is no straight: ace high", "Q♣ K♦ A♥ 2♠ 3♣", "A♣ K♥ Q♦ 4♠ 2♦", -1},

		// 3.12.1: same order and same ranks: stand-off, whatever the suits (3.3.1.3).
		{"3.12.1 high card stand-off", "A♣ K♥ 8♦ 6♥ 5♠", "A♦ K♠ 8♣ 6♣ 5♥", 0},
		{"3.12.1 flush stand-off across suits", "J♥ 8♥ 6♥ 5♥ 2♥", "J♣ 8♣ 6♣ 5♣ 2♣", 0},
		{"3.12.1 royal flush stand-off", "A♦ K♦ Q♦ J♦ 10♦", "A♠ K♠ Q♠ J♠ 10♠", 0},
		{"3.12.1 one pair stand-off", "A♣ A♥ 8♦ 6♥ 5♠", "A♦ A♠ 8♣ 6♣ 5♥", 0},

		// 3.12.2: two pairs.
		{"3.12.2 the highest pair wins", "K♠ K♥ 2♣ 2♥ 3♦", "Q♠ Q♥ J♣ J♥ A♦", 1},
		{"3.12.2 equal high pairs: the second pair", "Q♠ Q♥ 6♣ 6♥ 3♦", "Q♣ Q♦ 5♣ 5♥ A♦", 1},
		{"3.12.2 equal pairs: the unpaired card", "Q♠ Q♥ 6♣ 6♥ 4♦", "Q♣ Q♦ 6♠ 6♦ 3♦", 1},
		{"3.12.2 equal pairs and fifth card: stand-off", "Q♠ Q♥ 6♣ 6♥ 3♦", "Q♣ Q♦ 6♠ 6♦ 3♠", 0},

		// 3.12.3: one pair.
		{"3.12.3 the higher pair wins", "A♣ A♥ 4♦ 3♥ 2♠", "K♣ K♥ Q♦ J♥ 9♠", 1},
		{"3.12.3 equal pairs: the highest unpaired card", "8♣ 8♥ A♦ 3♥ 2♠", "8♦ 8♠ K♦ Q♥ J♠", 1},
		{"3.12.3 then the second unpaired card", "8♣ 8♥ A♦ 5♥ 2♠", "8♦ 8♠ A♣ 4♥ 3♠", 1},
		{"3.12.3 then the third unpaired card", "8♣ 8♥ A♦ 5♥ 3♠", "8♦ 8♠ A♣ 5♠ 2♠", 1},
		{"3.12.3 all equal: stand-off", "8♣ 8♥ A♦ 5♥ 3♠", "8♦ 8♠ A♣ 5♠ 3♦", 0},

		// 3.12.4 with 3.3.1.2: the wheel is the lowest straight and straight flush.
		{"3.12.4 a six-high straight beats the wheel", "6♣ 5♦ 4♣ 3♥ 2♠", "5♣ 4♦ 3♦ 2♥ A♠", 1},
		{"3.12.4 a six-high straight flush beats the steel wheel", "6♥ 5♥ 4♥ 3♥ 2♥", "5♣ 4♣ 3♣ 2♣ A♣", 1},
		{"3.12.4 an ace-high straight beats a king-high one", "A♣ K♦ Q♣ J♥ 10♠", "K♣ Q♦ J♦ 10♥ 9♠", 1},

		// 3.12.5: full houses rank by their three of a kind.
		{"3.12.5 the higher three of a kind wins", "3♣ 3♥ 3♦ 2♠ 2♥", "2♣ 2♦ 2♠ A♠ A♥", 1},
		{"3.12.5 the pair does not outrank the trips", "K♣ K♥ K♦ 2♠ 2♥", "Q♣ Q♥ Q♦ A♠ A♥", 1},

		// 3.12.6: straights and straight flushes of the same ranks stand off.
		{"3.12.6 straight stand-off", "8♣ 9♦ 10♣ J♥ Q♠", "8♦ 9♣ 10♥ J♠ Q♦", 0},
		{"3.12.6 straight flush stand-off", "8♣ 9♣ 10♣ J♣ Q♣", "8♥ 9♥ 10♥ J♥ Q♥", 0},
		{"3.12.6 wheel stand-off", "A♣ 2♦ 3♣ 4♥ 5♠", "A♦ 2♣ 3♥ 4♠ 5♦", 0},

		// THB v9 3.10 and 3.12 on seven cards: the best five of the seven.
		{"THB 3.12.5 community trips: the higher pair wins", "K♣ K♥ K♦ 7♠ 2♥ A♠ A♦", "K♣ K♥ K♦ 7♠ 2♥ Q♠ Q♦", 1},
		{"THB 3.12.5 community trips, equal pairs: stand-off", "K♣ K♥ K♦ 7♠ 2♥ Q♣ Q♦", "K♣ K♥ K♦ 7♠ 2♥ Q♥ Q♠", 0},
		{"THB 3.12.5 a higher full house than the board's", "K♣ K♥ 7♦ 7♠ 2♥ K♠ 2♦", "K♣ K♥ 7♦ 7♠ 2♥ 7♣ A♦", 1},
		{"THB 3.12.2 the board's fifth card plays: stand-off", "A♣ A♥ K♦ K♠ Q♥ J♠ 2♦", "A♣ A♥ K♦ K♠ Q♥ J♦ 3♦", 0},
		{"THB 3.12.2 a third pair is the kicker", "A♣ A♥ K♦ K♠ 5♥ Q♠ Q♦", "A♣ A♥ K♦ K♠ 5♥ J♠ 2♦", 1},
		{"THB 3.12.3 only five cards count: stand-off", "A♣ A♥ K♦ Q♠ J♥ 3♠ 2♦", "A♣ A♥ K♦ Q♠ J♥ 4♣ 3♦", 0},
		{"THB 3.12.4 a six-high straight beats the wheel on one board", "A♣ 2♥ 3♦ 4♠ 8♥ 5♠ 6♦", "A♣ 2♥ 3♦ 4♠ 8♥ 5♦ K♦", 1},
		{"THB 3.11 a flush beats a straight on one board", "9♥ 8♥ 7♦ 6♥ 2♥ 5♣ A♥", "9♥ 8♥ 7♦ 6♥ 2♥ 5♣ 10♣", 1},
		{"THB 3.11.1 royal flush from seven cards", "A♦ K♦ Q♦ J♦ 2♠ 10♦ 9♦", "A♦ K♦ Q♦ J♦ 2♠ 9♦ 8♦", 1},
		{"THB 3.10 six cards: the best five", "A♣ A♥ K♦ K♠ Q♥ 2♠", "A♣ A♥ K♦ K♠ J♥ 2♦", 1},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			a, b := rank(t, tc.a), rank(t, tc.b)
			if got := cmp(a, b); got != tc.want {
				t.Fatalf("%s (%d, %s) vs %s (%d, %s): got %d, want %d", tc.a, a, a.Category(), tc.b, b, b.Category(), got, tc.want)
			}
		})
	}
}

// TCP v6 3.14 order and 3.15 tie-breaks for three-card hands.
func TestThreeCardRules3_14_3_15(t *testing.T) {
	cats := []struct {
		rule  string
		cards string
		cat   Category
	}{
		{"3.14.1", "Q♠ K♠ A♠", StraightFlush},
		{"3.14.2", "2♣ 2♥ 2♦", ThreeOfAKind},
		{"3.14.3", "A♣ 2♥ 3♦", Straight},
		{"3.14.4", "K♥ 9♥ 2♥", Flush},
		{"3.14.5", "A♣ A♥ K♦", OnePair},
		{"3.14.6", "A♣ K♥ J♦", HighCard},
	}
	for i, c := range cats {
		t.Run(c.rule, func(t *testing.T) {
			v := rank3(t, c.cards)
			if v.Category() != c.cat {
				t.Fatalf("%s: %s, want %s", c.cards, v.Category(), c.cat)
			}
			if i+1 < len(cats) {
				// the lowest of this order beats the highest of the next
				if lower := rank3(t, cats[i+1].cards); v <= lower {
					t.Fatalf("%s does not beat %s", c.cards, cats[i+1].cards)
				}
			}
		})
	}
	cases := []struct {
		rule string
		a, b string
		want int
	}{
		{"3.14 straight flush beats three of a kind", "A♣ 2♣ 3♣", "A♠ A♥ A♦", 1},
		{"3.14 three of a kind beats a straight", "2♣ 2♥ 2♦", "Q♠ K♦ A♥", 1},
		{"3.14 straight beats a flush", "A♣ 2♥ 3♦", "A♠ K♠ J♠", 1},
		{"3.14 flush beats a pair", "5♥ 3♥ 2♥", "A♠ A♥ K♦", 1},
		{"3.14 pair beats high card", "2♠ 2♥ 3♦", "A♠ K♥ J♦", 1},
		{"3.15 high card: highest card first", "A♠ 3♥ 2♦", "K♠ Q♥ 10♦", 1},
		{"3.15 high card: then the next", "A♠ Q♥ 2♦", "A♦ J♥ 10♣", 1},
		{"3.15 flush: then the third card", "A♠ Q♠ 3♠", "A♥ Q♥ 2♥", 1},
		{"3.15.1 high card stand-off", "A♠ Q♥ 2♦", "A♦ Q♣ 2♥", 0},
		{"3.15.1 flush stand-off", "K♥ 9♥ 2♥", "K♣ 9♣ 2♣", 0},
		{"3.15.1 three of a kind: higher wins", "3♣ 3♥ 3♦", "2♣ 2♥ 2♦", 1},
		{"3.15.2 the higher pair wins", "K♠ K♥ 2♦", "Q♠ Q♥ A♦", 1},
		{"3.15.2 equal pairs: the unpaired card", "Q♠ Q♥ A♦", "Q♣ Q♦ K♦", 1},
		{"3.15.2 equal pair and card: stand-off", "Q♠ Q♥ A♦", "Q♣ Q♦ A♠", 0},
		{"3.15.3 2-3-4 beats A-2-3", "2♣ 3♥ 4♦", "A♣ 2♦ 3♥", 1},
		{"3.15.3 2-3-4 suited beats A-2-3 suited", "2♥ 3♥ 4♥", "A♣ 2♣ 3♣", 1},
		{"3.15.3 Q-K-A is the highest straight", "Q♣ K♥ A♦", "J♣ Q♦ K♥", 1},
		{"3.3.1.2 K-A-2 is no straight", "K♣ A♥ 2♦", "A♣ K♦ 3♥", -1},
		{"3.15.4 straight stand-off", "8♣ 9♥ 10♦", "8♦ 9♣ 10♥", 0},
		{"3.15.4 straight flush stand-off", "8♣ 9♣ 10♣", "8♥ 9♥ 10♥", 0},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			a, b := rank3(t, tc.a), rank3(t, tc.b)
			if got := cmp(a, b); got != tc.want {
				t.Fatalf("%s (%s) vs %s (%s): got %d, want %d", tc.a, a.Category(), tc.b, b.Category(), got, tc.want)
			}
		})
	}
}

// Dealer qualifiers (SSP v6 3.10.2, TCP v6 3.11) read as ruling R15 reads
// them: a hand ranked at least Ace-King high / Queen high.
func TestQualifiersRulingR15(t *testing.T) {
	stud := []struct {
		cards string
		want  bool
	}{
		{"A♠ K♦ 4♣ 3♥ 2♠", true}, // the lowest Ace-King high
		{"A♠ K♦ Q♣ J♥ 9♠", true},
		{"A♠ Q♦ J♣ 10♥ 8♠", false}, // Ace-Queen high: no King
		{"K♠ Q♦ J♣ 10♥ 8♠", false}, // no Ace
		{"A♠ 2♦ 3♣ 4♥ 5♠", true},   // the wheel, ranked above every high card
		{"2♠ 2♦ 3♣ 4♥ 6♠", true},   // any pair
		{"7♠ 5♦ 4♣ 3♥ 2♠", false},  // the worst hand
		{"A♥ Q♥ 9♥ 5♥ 2♥", true},   // a flush
		{"A♠ K♦ Q♣ J♥ 10♠", true},  // the ace-high straight
		{"A♥ K♥ Q♥ J♥ 10♥", true},  // royal flush
		{"A♠ Q♦ J♣ 10♥ 9♠", false}, // best Ace-Queen high
		{"A♠ K♦ 5♣ 3♥ 2♠", true},   // above A-K-4-3-2
	}
	for _, tc := range stud {
		t.Run("SSP 3.10.2 R15 "+tc.cards, func(t *testing.T) {
			if got := QualifiesStud(rank(t, tc.cards)); got != tc.want {
				t.Fatalf("QualifiesStud(%s) = %v, want %v", tc.cards, got, tc.want)
			}
		})
	}
	if v := rank(t, "A♠ K♦ 4♣ 3♥ 2♠"); v != minAceKing {
		t.Fatalf("A K 4 3 2 ranks %d, minAceKing is %d", v, minAceKing)
	}
	if QualifiesStud(minAceKing - 1) {
		t.Fatal("the hand just below A K 4 3 2 qualifies")
	}

	tcp := []struct {
		cards string
		want  bool
	}{
		{"Q♠ 3♦ 2♣", true},   // the lowest Queen high
		{"J♠ 10♦ 8♣", false}, // Jack high
		{"J♠ 9♦ 8♣", false},
		{"K♠ 3♦ 2♣", true},
		{"A♠ 3♦ 2♣", true},  // A-2-3 is a straight (3.15.3)
		{"2♠ 3♦ 4♣", true},  // straight
		{"3♠ 3♦ 2♣", true},  // any pair
		{"J♥ 8♥ 4♥", true},  // flush
		{"9♠ 10♦ J♣", true}, // Jack-high straight
		{"5♠ 3♦ 2♣", false}, // the worst hand
		{"Q♠ J♦ 9♣", true},
	}
	for _, tc := range tcp {
		t.Run("TCP 3.11 R15 "+tc.cards, func(t *testing.T) {
			if got := QualifiesTCP(rank3(t, tc.cards)); got != tc.want {
				t.Fatalf("QualifiesTCP(%s) = %v, want %v", tc.cards, got, tc.want)
			}
		})
	}
	if v := rank3(t, "Q♠ 3♦ 2♣"); v != minQueen {
		t.Fatalf("Q 3 2 ranks %d, minQueen is %d", v, minQueen)
	}
}

// Category names are the API's snake_case names and parse back.
func TestCategoryNames(t *testing.T) {
	want := []string{"high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush"}
	for i, c := range Categories() {
		if c.String() != want[i] {
			t.Errorf("%d: %q, want %q", c, c.String(), want[i])
		}
		if p, ok := ParseCategory(want[i]); !ok || p != c {
			t.Errorf("ParseCategory(%q) = %v %v", want[i], p, ok)
		}
	}
	for _, s := range []string{"invalid", "", "Full_House", "full_house "} {
		if c, ok := ParseCategory(s); ok || c != Invalid {
			t.Errorf("ParseCategory(%q) = %v %v, want no category", s, c, ok)
		}
	}
	if Value(0).Category() != Invalid || Value(NumClasses+1).Category() != Invalid || Value3(0).Category() != Invalid {
		t.Error("out-of-range values must have the Invalid category")
	}
	if Value(1).Category() != HighCard || Value(NumClasses).Category() != RoyalFlush {
		t.Error("1 is a high card and 7462 the royal flush")
	}
}

// Best finds the five cards that make the hand, from 5, 6 or 7 cards.
func TestBestReturnsTheFiveUsed(t *testing.T) {
	cases := []struct {
		rule, cards, best string
		cat               Category
	}{
		{"THB 3.10 royal in seven", "2♠ A♦ K♦ Q♦ J♦ 3♣ 10♦", "A♦ K♦ Q♦ J♦ 10♦", RoyalFlush},
		{"THB 3.10 full house from seven", "K♣ K♥ K♦ 7♦ 7♠ 2♦ 9♦", "K♣ K♥ K♦ 7♦ 7♠", FullHouse},
		{"THB 3.10 six cards", "A♣ A♥ 5♦ 9♠ Q♥ 2♠", "A♣ A♥ 9♠ Q♥ 5♦", OnePair},
		{"3.11 five cards are their own best", "8♣ 10♠ K♣ 9♥ 4♠", "8♣ 10♠ K♣ 9♥ 4♠", HighCard},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			v, used := Best(card.MustParseList(tc.cards))
			if v.Category() != tc.cat || v != rank(t, tc.cards) {
				t.Fatalf("%s: %s (%d)", tc.cards, v.Category(), v)
			}
			want := card.MustParseList(tc.best)
			if Eval5(used[0], used[1], used[2], used[3], used[4]) != v {
				t.Fatalf("the five used, %s, do not make the hand", card.Format(used[:]))
			}
			for _, c := range want {
				found := false
				for _, u := range used {
					found = found || u == c
				}
				if !found {
					t.Fatalf("used %s, want %s", card.Format(used[:]), tc.best)
				}
			}
		})
	}
	for _, bad := range []string{"As Kd Qh Jc", "As Kd Qh Jc Ts 9s 8s 7s", "As As Qh Jc Ts"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Best(%s) did not panic", bad)
				}
			}()
			Best(card.MustParseList(bad))
		}()
	}
	if EvalMask(0) != 0 || EvalMask(card.Set(1<<52|31)) != 0 {
		t.Error("EvalMask of a wrong number of cards or of a non-card must be 0")
	}
}
