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
func (p Pay) AsWritten() string { return p.spell(true) }

// spell is the one price formatter. A price has two spellings, both in
// answers: printed, as a document's paytable prints it (AsWritten: a $ for
// SGD, thousands grouped, cents only when there are some, a percentage
// without trailing zeros, "of the Progressive Jackpot"), or cited, as
// settlement writes it on its lines (String: the currency's code, every
// minor digit, two decimals of a percentage, "of the pool").
func (p Pay) spell(printed bool) string {
	switch p.Kind {
	case ToOne:
		return itoa(p.Odds.Num) + " to " + itoa(p.Odds.Den)
	case ForOne:
		return itoa(p.Odds.Num) + " for " + itoa(p.Odds.Den)
	case Fixed:
		if !printed {
			// The cited spelling is data, pinned byte for byte in the
			// settlement lines' odds and the golden answers ("SGD
			// 2000.00"): money.Currency.Format's amount without its
			// thousands grouping (messages group them; a line's odds
			// stay as clients match them).
			return strings.ReplaceAll(p.Currency.Format(p.Amount), ",", "")
		}
		code := string(p.Currency) + " "
		if p.Currency == money.SGD {
			code = "$"
		}
		return code + printedAmount(p.Amount, p.Currency.MinorDigits())
	case PoolPercent:
		bp := int64(p.BasisPoints)
		s := itoa(bp / 100)
		if r := bp % 100; r != 0 {
			f := fmt.Sprintf("%02d", r)
			if printed {
				f = strings.TrimRight(f, "0")
			}
			s += "." + f
		}
		if printed {
			return s + "% of the Progressive Jackpot"
		}
		return s + "% of the pool"
	}
	return string(p.Kind)
}

// printedAmount writes an amount of minor units with digits decimals as
// the documents print it: grouped in thousands and with no decimals when
// they are all 0 (200000 with 2 digits is "2,000"). The plain spelling
// ("SGD 2000.00") is money.Currency.Format's without its grouping.
func printedAmount(a money.Amount, digits int) string {
	n := int64(a)
	unit := int64(1)
	for range digits {
		unit *= 10
	}
	whole, frac := n/unit, n%unit
	s := thousands(whole)
	if digits > 0 && frac != 0 {
		s += fmt.Sprintf(".%0*d", digits, frac)
	}
	return s
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
