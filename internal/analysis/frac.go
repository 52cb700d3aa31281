package analysis

import (
	"fmt"
	"math/big"
)

// PayOdds is a winning payment "Num to Den" (ruling R2: the stake is returned
// on top). 40 to 1 is PayOdds{40, 1}.
type PayOdds struct {
	Num int64 `json:"num"`
	Den int64 `json:"den"`
}

// To returns the odds n to 1.
func To(n int64) PayOdds { return PayOdds{Num: n, Den: 1} }

// Rat returns the odds as an exact fraction of the stake.
func (o PayOdds) Rat() *big.Rat { return big.NewRat(o.Num, o.Den) }

// String returns the odds as the documents print them, e.g. "40 to 1".
func (o PayOdds) String() string { return fmt.Sprintf("%d to %d", o.Num, o.Den) }

// Valid reports whether the odds are usable: a positive denominator and a
// numerator that is not negative, both small enough that exact integer
// arithmetic on 2e13 deals cannot overflow.
func (o PayOdds) Valid() bool {
	return o.Den > 0 && o.Den <= MaxOddsTerm && o.Num >= 0 && o.Num <= MaxOddsTerm
}

// MaxOddsTerm bounds each term of proposed odds (a what-if paytable).
const MaxOddsTerm = 1_000_000

// ExactFraction is an exact figure: Num/Den in lowest terms, and the same as a
// percentage rounded half away from zero to six decimals (for reading only).
type ExactFraction struct {
	Num     string `json:"num" doc:"Numerator, in lowest terms."`
	Den     string `json:"den" doc:"Denominator, in lowest terms."`
	Percent string `json:"percent" doc:"The fraction times 100, rounded to 6 decimals; for reading only, the exact figure is num/den."`
}

// ExactAmount is an exact amount of money that need not be a whole minor
// unit: Num/Den minor units in lowest terms. It has no percent: a fraction
// of money is an amount, a fraction of a stake is a percentage
// (ExactFraction).
type ExactAmount struct {
	Num        string `json:"num" doc:"Numerator (minor units), in lowest terms."`
	Den        string `json:"den" doc:"Denominator, in lowest terms."`
	MinorUnits string `json:"minorUnits" doc:"num/den minor units to 2 decimals, rounded half away from zero; for reading only, the exact amount is num/den."`
}

// NewExactAmount returns r minor units as an ExactAmount.
func NewExactAmount(r *big.Rat) ExactAmount {
	return ExactAmount{Num: r.Num().String(), Den: r.Denom().String(), MinorUnits: r.FloatString(2)}
}

// Rat returns the amount's exact value in minor units.
func (a ExactAmount) Rat() *big.Rat {
	return ExactFraction{Num: a.Num, Den: a.Den}.Rat()
}

// NewExactFraction returns r as an ExactFraction.
func NewExactFraction(r *big.Rat) ExactFraction {
	return ExactFraction{Num: r.Num().String(), Den: r.Denom().String(), Percent: Percent(r, 6)}
}

// Rat returns the fraction's exact value.
func (f ExactFraction) Rat() *big.Rat {
	r, ok := new(big.Rat).SetString(f.Num + "/" + f.Den)
	if !ok {
		return nil
	}
	return r
}

// Percent formats r*100 with the given decimals, rounding half away from
// zero (the only rounding in this package, and only for display).
func Percent(r *big.Rat, decimals int) string {
	p := new(big.Rat).Mul(r, big.NewRat(100, 1))
	return p.FloatString(decimals) // big.Rat.FloatString rounds half away from zero
}

// ratioU is num/den as a big.Rat, for uint64 counts (den > 0).
func ratioU(num, den uint64) *big.Rat {
	return new(big.Rat).SetFrac(new(big.Int).SetUint64(num), new(big.Int).SetUint64(den))
}
