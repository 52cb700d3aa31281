// Package card is the 52-card deck: cards, ranks and suits, their parsing
// and their one canonical printed form.
//
// A card prints as its rank (2-9, T, J, Q, K, A) followed by its suit as a
// lower-case letter (c, d, h, s): "As", "Th", "2c". The parser also accepts
// the rule documents' forms: "10h", "AS", "as", "T♥", "A♠".
package card

import (
	"fmt"
	"strings"
)

// Rank is a card's rank, Two (2) to Ace (14). Rule 3.3.1 of every rule
// document: Ace, King, Queen, Jack, 10, 9 ... 2, suits of no value.
type Rank uint8

// The thirteen ranks.
const (
	Two Rank = iota + 2
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

// Suit is a card's suit. Suits never rank (rule 3.3.1.3); the order here only
// fixes the card index.
type Suit uint8

// The four suits.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

// Card is one of the 52 cards, 0 to 51: (rank-2)*4 + suit.
type Card uint8

// NumCards is the size of the deck.
const NumCards = 52

// New returns the card of rank r and suit s.
func New(r Rank, s Suit) Card { return Card((uint8(r)-2)*4 + uint8(s)) }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(uint8(c)/4 + 2) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(uint8(c) % 4) }

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c < NumCards }

const rankChars = "23456789TJQKA"
const suitChars = "cdhs"

// String returns the canonical form, e.g. "As", "Th", "2c".
func (c Card) String() string {
	if !c.Valid() {
		return fmt.Sprintf("Card(%d)", uint8(c))
	}
	return string([]byte{rankChars[c.Rank()-2], suitChars[c.Suit()]})
}

// String returns the rank's character: 2-9, T, J, Q, K, A.
func (r Rank) String() string {
	if r < Two || r > Ace {
		return fmt.Sprintf("Rank(%d)", uint8(r))
	}
	return rankChars[r-2 : r-1]
}

// String returns the suit's letter: c, d, h, s.
func (s Suit) String() string {
	if s > Spades {
		return fmt.Sprintf("Suit(%d)", uint8(s))
	}
	return suitChars[s : s+1]
}

// MarshalText implements encoding.TextMarshaler with the canonical form.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("card: invalid card %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler; it accepts every form
// Parse accepts.
func (c *Card) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// ParseError is a token that is not a card, with its 1-based position in the
// list it came from (1 for a single card).
type ParseError struct {
	Token    string
	Position int
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("card %d: %q is not a card (want a rank 2-10, T, J, Q, K, A and a suit c, d, h, s or ♣, ♦, ♥, ♠)", e.Position, e.Token)
}

// Parse reads one card: rank then suit, case-insensitive; rank 10 may be
// written "10" or "T"; the suit may be a letter or a symbol (♣ ♦ ♥ ♠, also
// the white-suit forms ♧ ♢ ♡ ♤).
func Parse(s string) (Card, error) {
	c, ok := parse(s)
	if !ok {
		return 0, &ParseError{Token: s, Position: 1}
	}
	return c, nil
}

func parse(s string) (Card, bool) {
	if len(s) < 2 {
		return 0, false
	}
	var r Rank
	rest := s[1:]
	switch s[0] {
	case '2', '3', '4', '5', '6', '7', '8', '9':
		r = Rank(s[0] - '0')
	case '1':
		if s[1] != '0' {
			return 0, false
		}
		r, rest = Ten, s[2:]
	case 'T', 't':
		r = Ten
	case 'J', 'j':
		r = Jack
	case 'Q', 'q':
		r = Queen
	case 'K', 'k':
		r = King
	case 'A', 'a':
		r = Ace
	default:
		return 0, false
	}
	var su Suit
	switch rest {
	case "c", "C", "♣", "♧":
		su = Clubs
	case "d", "D", "♦", "♢":
		su = Diamonds
	case "h", "H", "♥", "♡":
		su = Hearts
	case "s", "S", "♠", "♤":
		su = Spades
	default:
		return 0, false
	}
	return New(r, su), true
}

// MustParse is Parse for tests and fixtures: it panics on a bad card.
func MustParse(s string) Card {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseList reads cards separated by spaces and/or commas, e.g.
// "8C TS KC 9H 4S" or "A♠,K♠". An empty string is an empty list. It does not
// check for repeated cards: see Set and Duplicate.
func ParseList(s string) ([]Card, error) {
	// Tokens are found by hand rather than with strings.FieldsFunc, whose
	// []string would be an allocation per list on settlement's hot path. The
	// separators are ASCII, so scanning bytes splits as scanning runes does.
	n := 0
	for i := 0; i < len(s); {
		i = skipSeparators(s, i)
		if i < len(s) {
			n++
			i = tokenEnd(s, i)
		}
	}
	cards := make([]Card, 0, n)
	for i := 0; i < len(s); {
		i = skipSeparators(s, i)
		if i == len(s) {
			break
		}
		start := i
		i = tokenEnd(s, i)
		t := s[start:i]
		c, ok := parse(t)
		if !ok {
			return nil, &ParseError{Token: t, Position: len(cards) + 1}
		}
		cards = append(cards, c)
	}
	return cards, nil
}

func isSeparator(c byte) bool { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSeparators(s string, i int) int {
	for i < len(s) && isSeparator(s[i]) {
		i++
	}
	return i
}

func tokenEnd(s string, i int) int {
	for i < len(s) && !isSeparator(s[i]) {
		i++
	}
	return i
}

// MustParseList is ParseList for tests and fixtures.
func MustParseList(s string) []Card {
	cs, err := ParseList(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// Format prints cards in canonical form separated by single spaces.
func Format(cards []Card) string {
	var b strings.Builder
	b.Grow(len(cards) * 3)
	for i, c := range cards {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// Set is a set of cards as a 52-bit mask.
type Set uint64

// Has reports whether c is in the set.
func (s Set) Has(c Card) bool { return s&(1<<c) != 0 }

// Add returns the set with c added.
func (s Set) Add(c Card) Set { return s | 1<<c }

// Duplicate returns the first card that occurs more than once in cards, and
// whether there is one.
func Duplicate(cards ...[]Card) (Card, bool) {
	var seen Set
	for _, cs := range cards {
		for _, c := range cs {
			if seen.Has(c) {
				return c, true
			}
			seen = seen.Add(c)
		}
	}
	return 0, false
}

// Deck returns the 52 cards in index order.
func Deck() []Card {
	d := make([]Card, NumCards)
	for i := range d {
		d[i] = Card(i)
	}
	return d
}
