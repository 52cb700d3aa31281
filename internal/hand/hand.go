// Package hand evaluates poker hands as the rule documents rank them:
// five-card hands (SSP v6 3.11-3.12, and the same clauses of every
// five-card document), the best five of six or seven cards (THB v9
// 3.10-3.12), and three-card hands (TCP v6 3.14-3.15).
//
// Every evaluation returns one integer whose order is exactly the rules'
// order of hands: a higher value beats a lower one and equal values are a
// stand-off (3.12.1). A five-card Value (also the best five of six or
// seven) is the hand's equivalence class, 1 (7-5-4-3-2 offsuit) to 7462
// (Royal Flush); a three-card Value3 has its own scale. Compare a value
// only with another of the same kind, and ask it for its Category.
//
// Eval5, Eval6 and Eval7 are table-driven (see package tablegen): a few
// nanoseconds and no allocation per hand. The cards given to any evaluator
// must be valid and distinct; the API and settlement check that first.
// Best panics otherwise; the others never panic but return a meaningless
// value.
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
// A switch, not a search of categoryNames: settlement parses a paytable
// line's category for every line it looks up (TestCategoryNames
// checks it against String).
func ParseCategory(s string) (Category, bool) {
	switch s {
	case "high_card":
		return HighCard, true
	case "one_pair":
		return OnePair, true
	case "two_pair":
		return TwoPair, true
	case "three_of_a_kind":
		return ThreeOfAKind, true
	case "straight":
		return Straight, true
	case "flush":
		return Flush, true
	case "full_house":
		return FullHouse, true
	case "four_of_a_kind":
		return FourOfAKind, true
	case "straight_flush":
		return StraightFlush, true
	case "royal_flush":
		return RoyalFlush, true
	}
	return Invalid, false
}

// Categories returns the valid categories, lowest first.
func Categories() []Category {
	return []Category{HighCard, OnePair, TwoPair, ThreeOfAKind, Straight, Flush, FullHouse, FourOfAKind, StraightFlush, RoyalFlush}
}
