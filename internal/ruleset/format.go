package ruleset

import (
	"errors"
	"strconv"

	"github.com/tablesettle/tablesettle/internal/money"
)

var errNotOdds = errors.New("ruleset: the price is not odds (to 1 / for 1)")

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// formatMinor writes an amount of minor units with its decimal point:
// 200000 with 2 digits is "2000.00".
func formatMinor(a money.Amount, digits int) string {
	n := int64(a)
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n, 10)
	if digits > 0 {
		for len(s) <= digits {
			s = "0" + s
		}
		s = s[:len(s)-digits] + "." + s[len(s)-digits:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
