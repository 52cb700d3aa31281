package card

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Every accepted spelling of a card parses to the same card (the rule
// documents write suits as symbols: SSP v6 3.11 examples).
func TestParseForms(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{"As", "As"}, {"AS", "As"}, {"as", "As"}, {"A♠", "As"}, {"a♤", "As"},
		{"10h", "Th"}, {"Th", "Th"}, {"T♥", "Th"}, {"10♥", "Th"}, {"tH", "Th"},
		{"2c", "2c"}, {"2♣", "2c"}, {"Kd", "Kd"}, {"K♦", "Kd"}, {"q♢", "Qd"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			c, err := Parse(tc.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.in, err)
			}
			if got := c.String(); got != tc.want {
				t.Fatalf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

// All 52 cards round-trip through their canonical form, and the canonical
// forms are 52 distinct strings.
func TestRoundTripAll52(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Deck() {
		s := c.String()
		if seen[s] {
			t.Fatalf("%s printed twice", s)
		}
		seen[s] = true
		p, err := Parse(s)
		if err != nil || p != c {
			t.Fatalf("Parse(%s) = %v, %v; want %d", s, p, err, c)
		}
		b, err := c.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var u Card
		if err := u.UnmarshalText(b); err != nil || u != c {
			t.Fatalf("text round trip of %s: %v %v", s, u, err)
		}
	}
	if len(seen) != 52 {
		t.Fatalf("%d cards", len(seen))
	}
}

func TestParseListSeparators(t *testing.T) {
	got, err := ParseList("8C TS, KC,9H  4S")
	if err != nil {
		t.Fatal(err)
	}
	if s := Format(got); s != "8c Ts Kc 9h 4s" {
		t.Fatalf("got %q", s)
	}
	if got, err := ParseList(" , "); err != nil || len(got) != 0 {
		t.Fatalf("empty list: %v %v", got, err)
	}
}

// A bad token is named with its 1-based position.
func TestParseListErrorNamesTokenAndPosition(t *testing.T) {
	for _, tc := range []struct {
		in    string
		token string
		pos   int
	}{
		{"As Kx", "Kx", 2},
		{"1h As", "1h", 1},
		{"As,Ks,Qs,11s", "11s", 4},
		{"As Ks 10", "10", 3},
		{"As A", "A", 2},
		{"Ass", "Ass", 1},
		{"A♠♠", "A♠♠", 1},
		{"Joker", "Joker", 1},
	} {
		_, err := ParseList(tc.in)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("%q: got %v, want ParseError", tc.in, err)
		}
		if pe.Token != tc.token || pe.Position != tc.pos {
			t.Fatalf("%q: got token %q pos %d, want %q %d", tc.in, pe.Token, pe.Position, tc.token, tc.pos)
		}
	}
}

func TestDuplicate(t *testing.T) {
	if c, ok := Duplicate(MustParseList("As Kd"), MustParseList("Qh AS")); !ok || c.String() != "As" {
		t.Fatalf("got %v %v", c, ok)
	}
	if _, ok := Duplicate(MustParseList("As Kd Qh")); ok {
		t.Fatal("no duplicate expected")
	}
}

// FuzzParseList: the parser never panics, a success yields valid cards
// whose canonical form parses back to the same list, and a failure names a
// token that is in the input.
func FuzzParseList(f *testing.F) {
	for _, s := range []string{"As Kd", "10h,T♥", "A♠ 2♣", "", "1", "10", "x", "♠A", "As,,Kd", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cards, err := ParseList(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Position < 1 || pe.Token == "" {
				t.Fatalf("%q: bad error %v", s, err)
			}
			return
		}
		for _, c := range cards {
			if !c.Valid() {
				t.Fatalf("%q: invalid card %d", s, c)
			}
		}
		back, err := ParseList(Format(cards))
		if err != nil || len(back) != len(cards) {
			t.Fatalf("%q: canonical form %q does not parse back: %v", s, Format(cards), err)
		}
		for i := range back {
			if back[i] != cards[i] {
				t.Fatalf("%q: round trip changed card %d", s, i)
			}
		}
	})
}

// ParseList splits where strings.FieldsFunc on its separators splits (the
// reference it is compared with), runes beyond ASCII included.
func TestParseListSplitsAsFieldsFunc(t *testing.T) {
	reference := func(s string) ([]Card, error) {
		tokens := strings.FieldsFunc(s, func(r rune) bool {
			return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
		})
		cards := make([]Card, 0, len(tokens))
		for i, tok := range tokens {
			c, ok := parse(tok)
			if !ok {
				return nil, &ParseError{Token: tok, Position: i + 1}
			}
			cards = append(cards, c)
		}
		return cards, nil
	}
	for _, s := range []string{"", " ", ",,", "As", " As ", "As,Kd", "As\tKd\nQh\rJc", "10h,T♥ A♠", "A♠\u00a0K♠",
		"As Kd x", "As \xff Kd", "\xffAs", "As,,,Kd, ,", "♠A", "As Kd Qh Jc Tc 9c 8c 7c"} {
		got, err := ParseList(s)
		want, werr := reference(s)
		if !reflect.DeepEqual(got, want) || fmt.Sprint(err) != fmt.Sprint(werr) || cap(got) != cap(want) {
			t.Errorf("ParseList(%q) = %v, %v (cap %d); want %v, %v (cap %d)", s, got, err, cap(got), want, werr, cap(want))
		}
	}
}
