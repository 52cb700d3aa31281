package ruleset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tablesettle/tablesettle/internal/money"
)

// AsWritten writes a price the way the rule documents print it in their
// paytables: "250 to 1", "400 for 1", "$2,000" (a fixed SGD amount, cents
// only when there are some; another currency is written "JPY 5,000"),
// "10% of the Progressive Jackpot". (String is the spelling settlement
// cites on its lines: "SGD 2000.00", "100% of the pool".)
func (p Pay) AsWritten() string {
	switch p.Kind {
	case ToOne:
		return fmt.Sprintf("%d to %d", p.Odds.Num, p.Odds.Den)
	case ForOne:
		return fmt.Sprintf("%d for %d", p.Odds.Num, p.Odds.Den)
	case Fixed:
		digits := p.Currency.MinorDigits()
		unit := int64(1)
		for range digits {
			unit *= 10
		}
		whole, frac := int64(p.Amount)/unit, int64(p.Amount)%unit
		sym := "$"
		if p.Currency != money.SGD {
			sym = string(p.Currency) + " "
		}
		s := sym + thousands(whole)
		if frac != 0 {
			s += fmt.Sprintf(".%0*d", digits, frac)
		}
		return s
	case PoolPercent:
		bp := int64(p.BasisPoints)
		s := strconv.FormatInt(bp/100, 10)
		if r := bp % 100; r != 0 {
			s += strings.TrimRight(fmt.Sprintf(".%02d", r), "0")
		}
		return s + "% of the Progressive Jackpot"
	}
	return string(p.Kind)
}

// thousands writes n with comma separators: 2000 -> "2,000".
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// UsesDocCurrency reports whether the ruleset has amounts of its own
// (fixed prizes, caps), which are in its document's currency: such a
// ruleset settles only in that currency (settlement refuses a round in
// another, and a pool in another could never accept a round).
func (rs *Ruleset) UsesDocCurrency() bool {
	if len(rs.Caps) > 0 {
		return true
	}
	for _, w := range rs.Wagers {
		for _, e := range w.Paytable {
			if e.Pay.Kind == Fixed {
				return true
			}
		}
	}
	return false
}
