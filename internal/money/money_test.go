package money

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// Ruling R2 "X to 1": the winnings are stake x X; odds with a denominator
// (e.g. "3 to 2") round down to the minor unit: winnings below a cent are not
// paid. MulFloor is that one rounding.
func TestMulFloorRoundsDown(t *testing.T) {
	cases := []struct {
		a    Amount
		r    Ratio
		want Amount
	}{
		{1000, Ratio{250, 1}, 250000}, // SSP v6 4.1.2 Royal Flush 250 to 1 on SGD 10
		{2000, Ratio{7, 1}, 14000},    // full house 7 to 1
		{101, Ratio{3, 2}, 151},       // 151.5 -> 151
		{1, Ratio{1, 3}, 0},           // a third of a cent is not paid
		{0, Ratio{1000, 1}, 0},
		{999, Ratio{0, 1}, 0},
		{math.MaxInt64, Ratio{1, 1}, math.MaxInt64},
		{math.MaxInt64, Ratio{2, 3}, 6148914691236517204}, // exact via 128-bit product
	}
	for _, c := range cases {
		got, err := MulFloor(c.a, c.r)
		if err != nil || got != c.want {
			t.Errorf("MulFloor(%d, %d/%d) = %d, %v; want %d", c.a, c.r.Num, c.r.Den, got, err, c.want)
		}
	}
}

func TestMulFloorRefusesOverflowAndBadInput(t *testing.T) {
	if _, err := MulFloor(math.MaxInt64, Ratio{2, 1}); !errors.Is(err, ErrOverflow) {
		t.Errorf("MaxInt64 x 2: got %v, want ErrOverflow", err)
	}
	if _, err := MulFloor(1<<62, Ratio{1 << 62, 1}); !errors.Is(err, ErrOverflow) {
		t.Errorf("2^62 x 2^62: got %v, want ErrOverflow", err)
	}
	for _, c := range []struct {
		a Amount
		r Ratio
	}{{-1, Ratio{1, 1}}, {1, Ratio{-1, 1}}, {1, Ratio{1, 0}}, {1, Ratio{1, -2}}} {
		if _, err := MulFloor(c.a, c.r); err == nil {
			t.Errorf("MulFloor(%d, %d/%d): no error", c.a, c.r.Num, c.r.Den)
		}
	}
}

// MulFloor equals floor(a*num/den) computed with arbitrary precision, for
// seeded random operands across the whole int64 range.
func TestMulFloorAgreesWithBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		a := Amount(rng.Int64N(math.MaxInt64))
		r := Ratio{rng.Int64N(1 << uint(rng.IntN(63))), 1 + rng.Int64N(1<<uint(rng.IntN(62)))}
		want := new(big.Int).Mul(big.NewInt(int64(a)), big.NewInt(r.Num))
		want.Quo(want, big.NewInt(r.Den))
		got, err := MulFloor(a, r)
		if !want.IsInt64() {
			if !errors.Is(err, ErrOverflow) {
				t.Fatalf("MulFloor(%d, %d/%d) = %d, %v; want ErrOverflow", a, r.Num, r.Den, got, err)
			}
			continue
		}
		if err != nil || int64(got) != want.Int64() {
			t.Fatalf("MulFloor(%d, %d/%d) = %d, %v; want %s", a, r.Num, r.Den, got, err, want)
		}
	}
}

func TestAdd(t *testing.T) {
	if s, err := Add(150, -50); err != nil || s != 100 {
		t.Errorf("150 + -50 = %d, %v", s, err)
	}
	if _, err := Add(math.MaxInt64, 1); !errors.Is(err, ErrOverflow) {
		t.Errorf("MaxInt64 + 1: %v, want ErrOverflow", err)
	}
	if _, err := Add(math.MinInt64, -1); !errors.Is(err, ErrOverflow) {
		t.Errorf("MinInt64 - 1: %v, want ErrOverflow", err)
	}
	if s, err := Add(math.MaxInt64, 0); err != nil || s != math.MaxInt64 {
		t.Errorf("MaxInt64 + 0 = %d, %v", s, err)
	}
}

// Ruling R1 percentages are basis points; a pool's contribution keeps the
// fraction below the minor unit: floor*10000 + rem == a*bp exactly, and
// 0 <= rem < 10000.
func TestBasisPointsOfCarriesTheFraction(t *testing.T) {
	cases := []struct {
		bp        BasisPoints
		a         Amount
		floor     Amount
		remainder int64
	}{
		{1733, 500, 86, 6500}, // 17.33% of SGD 5.00 = 86.65 cents
		{1000, 10000015, 1000001, 5000},
		{10000, 123, 123, 0},
		{1, 9999, 0, 9999},
		{0, 5000, 0, 0},
	}
	for _, c := range cases {
		f, r, err := c.bp.Of(c.a)
		if err != nil || f != c.floor || r != c.remainder {
			t.Errorf("%d bp of %d = %d rem %d, %v; want %d rem %d", c.bp, c.a, f, r, err, c.floor, c.remainder)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20000; i++ {
		a, bp := Amount(rng.Int64N(1<<50)), BasisPoints(rng.Int64N(10001))
		f, r, err := bp.Of(a)
		if err != nil || r < 0 || r >= 10000 {
			t.Fatalf("%d bp of %d: %d rem %d, %v", bp, a, f, r, err)
		}
		lhs := new(big.Int).Add(new(big.Int).Mul(big.NewInt(int64(f)), big.NewInt(10000)), big.NewInt(r))
		if rhs := new(big.Int).Mul(big.NewInt(int64(a)), big.NewInt(int64(bp))); lhs.Cmp(rhs) != 0 {
			t.Fatalf("%d bp of %d: %d*10000+%d != %s", bp, a, f, r, rhs)
		}
	}
	if _, _, err := BasisPoints(-1).Of(1); err == nil {
		t.Error("negative rate accepted")
	}
	if _, _, err := BasisPoints(10000).Of(-1); err == nil {
		t.Error("negative amount accepted")
	}
}

func TestCurrency(t *testing.T) {
	if !SGD.Valid() || SGD.MinorDigits() != 2 {
		t.Errorf("SGD: valid %v digits %d", SGD.Valid(), SGD.MinorDigits())
	}
	if Currency("JPY").MinorDigits() != 0 {
		t.Error("JPY has no minor unit")
	}
	if Currency("XXX").Valid() || Currency("sgd").Valid() {
		t.Error("unknown or lower-case code accepted")
	}
}

// Issue 24 "errors worded in money, not cents": an amount of minor units
// reads in the currency's major units with the currency (ISO 4217 minor
// digits: SGD 2, JPY 0), never as a count of cents, its thousands grouped
// (USD 12,345,678.90, the sign's own example).
func TestCurrencyFormat(t *testing.T) {
	cases := []struct {
		c    Currency
		a    Amount
		want string
	}{
		{"SGD", 1474, "SGD 14.74"},
		{"SGD", 5, "SGD 0.05"},
		{"SGD", 0, "SGD 0.00"},
		{"SGD", -1475, "-SGD 14.75"},
		{"USD", 1234567890, "USD 12,345,678.90"},
		{"JPY", 500, "JPY 500"},
		{"SGD", 99999, "SGD 999.99"},
		{"SGD", 100000, "SGD 1,000.00"},
		{"SGD", 10_000_086, "SGD 100,000.86"},
		{"SGD", -200000, "-SGD 2,000.00"},
		{"JPY", 1234567, "JPY 1,234,567"},
		{"KRW", 100000, "KRW 100,000"},
		{"SGD", math.MaxInt64, "SGD 92,233,720,368,547,758.07"},
		{"SGD", math.MinInt64, "-SGD 92,233,720,368,547,758.08"},
	}
	for _, c := range cases {
		if got := c.c.Format(c.a); got != c.want {
			t.Errorf("%s.Format(%d) = %q, want %q", c.c, c.a, got, c.want)
		}
	}
}

// Grouped: a field's bound in its own minor units, grouped in thousands.
func TestGrouped(t *testing.T) {
	for a, want := range map[Amount]string{0: "0", 999: "999", 1000: "1,000", 10_000_000_000: "10,000,000,000", -1234: "-1,234",
		math.MaxInt64: "9,223,372,036,854,775,807", math.MinInt64: "-9,223,372,036,854,775,808"} {
		if got := Grouped(a); got != want {
			t.Errorf("Grouped(%d) = %q, want %q", a, got, want)
		}
	}
}
