package hand_test

import (
	"fmt"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// Each game ranks as its document orders hands, citing the rules; the
// best cards are listed highest first.
func TestEvaluate(t *testing.T) {
	ranked := []struct {
		name, cards, game, category, best, rules string
	}{
		{"stud 3.11-3.12: king high", "8C TS KC 9H 4S", "five_card", "high_card", "Kc Ts 9h 8c 4s", "[mbs-megalink-ssp-v6 3.11 mbs-megalink-ssp-v6 3.12]"},
		{"TCP v6 3.14: a straight flush of three", "Qh Ah Kh", "three_card", "straight_flush", "Ah Kh Qh", "[mbs-megalink-tcp-v6 3.14 mbs-megalink-tcp-v6 3.15]"},
		{"THB v9 3.10: the best five of seven", "2c 2d 9s 9h 9c Kd 3s", "holdem", "full_house", "9s 9h 9c 2d 2c", "[mbs-megalink-thb-v9 3.10 mbs-megalink-thb-v9 3.11 mbs-megalink-thb-v9 3.12]"},
	}
	for _, c := range ranked {
		t.Run(c.name, func(t *testing.T) {
			e, err := hand.Evaluate(c.cards, c.game)
			if err != nil || e.Category != c.category || e.Best != c.best || fmt.Sprint(e.Rules) != c.rules || e.Rank <= 0 {
				t.Errorf("Evaluate(%q, %s) = %+v, %v", c.cards, c.game, e, err)
			}
		})
	}
	for _, c := range []struct {
		name, cards, game, field string
	}{
		{"unreadable", "Xx 2c 3c 4c 5c", "five_card", "cards"},
		{"repeated", "2c 2c 3c 4c 5c", "five_card", "cards"},
		{"four for five_card", "2c 3c 4c 5c", "five_card", "cards"},
		{"eight for holdem", "2c 3c 4c 5c 6c 7c 8c 9c", "holdem", "cards"},
		{"unknown game", "2c 3c 4c", "omaha", "game"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := hand.Evaluate(c.cards, c.game)
			if e, ok := fault.As(err); !ok || e.Kind != fault.Invalid || e.Field() != c.field {
				t.Errorf("got %v, want invalid at %s", err, c.field)
			}
		})
	}
}
