// Package hand evaluates poker hands as the rule documents rank them:
// five-card hands (SSP v6 3.11-3.12, and the same clauses of every
// five-card document), the best five of six or seven cards (THB v9
// 3.10-3.12), and three-card hands (TCP v6 3.14-3.15).
//
// Every evaluation returns a Value: one integer whose order is exactly the
// rules' order of hands. A higher Value beats a lower one and equal Values
// are a stand-off (3.12.1). A Value is only to be compared with another of
// the same kind (five-card with five-card, three-card with three-card) and
// asked for its Category; its bits are not a stable format.
package hand

import "fmt"

// Category is the order of hands a hand belongs to (rule 3.11 / 3.14).
// In five-card poker the categories rank in the order declared here; three-
// card poker ranks some of them differently (Value3 knows how).
type Category uint8

// The categories, lowest first (five-card order).
const (
	Invalid Category = iota
	HighCard
	OnePair
	TwoPair
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
	RoyalFlush
)

var categoryNames = [...]string{
	Invalid:       "invalid",
	HighCard:      "high_card",
	OnePair:       "one_pair",
	TwoPair:       "two_pair",
	ThreeOfAKind:  "three_of_a_kind",
	Straight:      "straight",
	Flush:         "flush",
	FullHouse:     "full_house",
	FourOfAKind:   "four_of_a_kind",
	StraightFlush: "straight_flush",
	RoyalFlush:    "royal_flush",
}

// String returns the category's snake_case name, e.g. "full_house".
func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return fmt.Sprintf("Category(%d)", uint8(c))
}

// ParseCategory is the inverse of String.
func ParseCategory(s string) (Category, bool) {
	for i, n := range categoryNames {
		if i != 0 && n == s {
			return Category(i), true
		}
	}
	return Invalid, false
}

// Categories returns the valid categories, lowest first.
func Categories() []Category {
	return []Category{HighCard, OnePair, TwoPair, ThreeOfAKind, Straight, Flush, FullHouse, FourOfAKind, StraightFlush, RoyalFlush}
}
