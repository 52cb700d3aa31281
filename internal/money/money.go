// Package money is amounts of money as integer minor units with an ISO 4217
// currency, and the integer odds and rates that multiply them (ruling R1: no
// floating point touches money).
package money

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
)

// Amount is a count of a currency's minor unit (SGD cents by default).
type Amount int64

// Currency is an ISO 4217 alphabetic code, e.g. "SGD".
type Currency string

// SGD is the default currency of every ruleset (ruling R1).
const SGD Currency = "SGD"

// minorDigits is the number of minor-unit digits of the currencies the
// service accepts (ISO 4217).
var minorDigits = map[Currency]int{
	"SGD": 2, "USD": 2, "EUR": 2, "GBP": 2, "AUD": 2, "HKD": 2, "MYR": 2,
	"CNY": 2, "MOP": 2, "PHP": 2, "THB": 2, "KRW": 0, "JPY": 0, "VND": 0,
}

// Valid reports whether c is a currency the service knows.
func (c Currency) Valid() bool { _, ok := minorDigits[c]; return ok }

// MinorDigits returns the number of minor-unit digits of c (2 for SGD).
func (c Currency) MinorDigits() int { return minorDigits[c] }

// Format writes a in c's major units with the currency and the thousands
// grouped, as a message or a document states an amount: 1474 SGD is
// "SGD 14.74", 123456789 SGD is "SGD 1,234,567.89", -1475 SGD is
// "-SGD 14.75", 1234567 JPY is "JPY 1,234,567". It is the one formatter of
// money.
func (c Currency) Format(a Amount) string {
	n := uint64(a)
	neg := a < 0
	if neg {
		n = -n // two's complement: exact for math.MinInt64 too
	}
	s := strconv.FormatUint(n, 10)
	frac := ""
	if d := c.MinorDigits(); d > 0 {
		for len(s) <= d {
			s = "0" + s
		}
		s, frac = s[:len(s)-d], "."+s[len(s)-d:]
	}
	s = string(c) + " " + group(s) + frac
	if neg {
		s = "-" + s
	}
	return s
}

// Grouped writes a count of minor units with its thousands grouped
// (10000000000 is "10,000,000,000"): a message that names a field's bound
// in the field's own unit writes it so, beside Format's amount.
func Grouped(a Amount) string {
	if a < 0 {
		return "-" + group(strconv.FormatUint(-uint64(a), 10))
	}
	return group(strconv.FormatInt(int64(a), 10))
}

// group puts a comma between each three digits of digits, from the right.
func group(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	b := make([]byte, 0, len(digits)+len(digits)/3)
	for i := 0; i < len(digits); i++ {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, digits[i])
	}
	return string(b)
}

// ErrOverflow is returned when a computation does not fit in an int64 of
// minor units.
var ErrOverflow = errors.New("money: amount overflows int64 minor units")

// Ratio is a non-negative rational number Num/Den, used for odds ("5 to 1"
// is 5/1) and for rates.
type Ratio struct {
	Num int64 `json:"num"`
	Den int64 `json:"den"`
}

// MulFloor returns a * r rounded down (toward negative infinity for a
// negative a is never needed: a must be >= 0). It is the one rounding of
// odds in the service: winnings below the minor unit are not paid.
func MulFloor(a Amount, r Ratio) (Amount, error) {
	if a < 0 || r.Num < 0 || r.Den <= 0 {
		return 0, fmt.Errorf("money: MulFloor(%d, %d/%d): negative or zero denominator", a, r.Num, r.Den)
	}
	hi, lo := bits.Mul64(uint64(a), uint64(r.Num))
	if hi >= uint64(r.Den) {
		return 0, ErrOverflow
	}
	q, _ := bits.Div64(hi, lo, uint64(r.Den))
	if q > 1<<63-1 {
		return 0, ErrOverflow
	}
	return Amount(q), nil
}

// Add returns a + b, or ErrOverflow.
func Add(a, b Amount) (Amount, error) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, ErrOverflow
	}
	return s, nil
}

// BasisPoints is a rate in hundredths of a percent: 10000 is 100%.
type BasisPoints int64

// Of returns bp of a, rounded down, and the remainder in units of
// 1/10000 of the minor unit (so that fractions can be carried, never
// dropped: floor*10000 + rem == a*bp).
func (bp BasisPoints) Of(a Amount) (Amount, int64, error) {
	if a < 0 || bp < 0 {
		return 0, 0, fmt.Errorf("money: %d bp of %d: negative", bp, a)
	}
	hi, lo := bits.Mul64(uint64(a), uint64(bp))
	if hi >= 10000 {
		return 0, 0, ErrOverflow
	}
	q, r := bits.Div64(hi, lo, 10000)
	if q > 1<<63-1 {
		return 0, 0, ErrOverflow
	}
	return Amount(q), int64(r), nil
}
