package jackpot_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
)

// The money at its limits: settings bounds, meters that would pass int64,
// prizes of the largest pools, each with the rule it protects and exact
// amounts.

// TestSettingsBounds: ruling R1 (amounts are int64 minor units) needs the
// settings bounded so that no reset, share or meter can wrap: unit <=
// 1e10, reset and ceiling <= 1e15 (audit defects 1, 2, 4).
func TestSettingsBounds(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*jackpot.Settings)
		field string
	}{
		{"defect 1: reset 5e18", func(s *jackpot.Settings) { s.Reset = 5_000_000_000_000_000_000 }, "reset"},
		{"defect 2: reset 9,223,372,036,854,775,000", func(s *jackpot.Settings) { s.Reset = 9_223_372_036_854_775_000 }, "reset"},
		{"defect 4: reset 1e16", func(s *jackpot.Settings) { s.Reset = 10_000_000_000_000_000 }, "reset"},
		{"reset 1e15 + 1", func(s *jackpot.Settings) { s.Reset = jackpot.MaxAmount + 1 }, "reset"},
		{"defect 3: unit 1e12", func(s *jackpot.Settings) { s.Unit = 1_000_000_000_000 }, "unit"},
		{"unit 1e10 + 1", func(s *jackpot.Settings) { s.Unit = jackpot.MaxUnit + 1 }, "unit"},
		{"ceiling 1e15 + 1", func(s *jackpot.Settings) { s.Ceiling = jackpot.MaxAmount + 1 }, "ceiling"},
		{"defect 9: USD pool of SGD rulesets (mbs-megalink-ssp-v6 4.2 pays SGD 2,000)", func(s *jackpot.Settings) { s.Currency = "USD" }, "currency"},
		{"defect 9: USD RWS pool", func(s *jackpot.Settings) { s.Currency = "USD"; s.Rulesets = []string{"rws-mlp-csp-v2"} }, "currency"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := jackpottest.MBSSettings()
			c.edit(&s)
			_, _, err := jackpot.New("p", s, ops, t0)
			e, ok := fault.As(err)
			if !ok || e.Kind != fault.Invalid || e.Field() != c.field {
				t.Fatalf("err %v, want invalid %s", err, c.field)
			}
		})
	}
	// The bounds themselves are accepted.
	s := jackpottest.MBSSettings()
	s.Unit, s.Reset, s.Ceiling = jackpot.MaxUnit, jackpot.MaxAmount, jackpot.MaxAmount
	if _, _, err := jackpot.New("p", s, ops, t0); err != nil {
		t.Fatal(err)
	}
	// SSP v4 has no fixed prize or cap of its own: settlement settles it in
	// any currency, and so does its pool.
	s = jackpottest.MBSSettings()
	s.Currency, s.Rulesets = "USD", []string{"mbs-ssp-v4"}
	if _, _, err := jackpot.New("p", s, ops, t0); err != nil {
		t.Fatal(err)
	}
	p, _, _ := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	for _, a := range []money.Amount{jackpot.MaxAmount + 1, -jackpot.MaxAmount - 1} {
		if _, _, err := jackpot.Adjust(p, jackpot.Adjustment{Meter: "reserve", Amount: a, Reason: "x"}, ops, t0); err == nil || fieldOf(err) != "amount" {
			t.Fatalf("adjustment %d: %v, want invalid amount", a, err)
		}
	}
}

// TestTwoRoyalsOnTheLargestReset: ruling R5 (SSP v6 3.15.1) and
// R21 at the largest reset. Pool 1e15 + 173 (two wagers of 500 at 17.33% =
// 173.3 -> 173), two Royals share 1e15 + 173 + 1e15 = 2,000,000,000,000,173:
// each 1,000,000,000,000,086, 1 left in the pool; the pool funds
// 1,000,000,000,000,172, the extra reset part 1e15 comes from the reserve
// (1000 x 5.17% = 51.7 -> 51) and the house (999,999,999,999,949).
func TestTwoRoyalsOnTheLargestReset(t *testing.T) {
	const rs = "mbs-megalink-ssp-v6"
	s := jackpottest.MBSSettings()
	s.Reset = jackpot.MaxAmount
	p, ledger, err := jackpot.New("p", s, ops, t0)
	if err != nil {
		t.Fatal(err)
	}
	r := jackpottest.RoundOf(rs, "t", "r1", t0, 500, []int{1, 2}, jackpottest.Royal(rs, 1, 1, 500), jackpottest.Royal(rs, 2, 2, 500))
	q, es, res, err := jackpot.Apply(p, r, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Payouts) != 2 {
		t.Fatalf("payouts %+v", res.Payouts)
	}
	if a, b := res.Payouts[0], res.Payouts[1]; a.Amount != 1_000_000_000_000_086 || b.Amount != 1_000_000_000_000_086 ||
		funding(a.Funding) != "pool:1000000000000086 " || funding(b.Funding) != "pool:86 reserve:51 house:999999999999949 " {
		t.Fatalf("payouts %d %s / %d %s", a.Amount, funding(a.Funding), b.Amount, funding(b.Funding))
	}
	if q.Meters.Displayed != 1_000_000_000_000_001 || q.Meters.Reserve != 0 {
		t.Fatalf("after: displayed %d reserve %d, want the reset + the remainder 1", q.Meters.Displayed, q.Meters.Reserve)
	}
	if rec := jackpot.Reconcile(q, append(ledger, es...)); !rec.OK {
		t.Fatalf("%+v %v", rec.Differences, rec.Problems)
	}
}

// TestMeterOverflowIsRefused: ruling R1: a meter never wraps. A pool
// whose displayed meter stands 100 below the int64 limit refuses a round
// whose contribution (3 x 500 x 17.33% = 259.95 -> 259) would pass it, and
// an adjustment of +101; nothing is applied.
func TestMeterOverflowIsRefused(t *testing.T) {
	const rs = "mbs-megalink-ssp-v6"
	p, _, _ := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	p.Meters.Displayed = math.MaxInt64 - 100
	r := jackpottest.RoundOf(rs, "t", "r1", t0, 500, []int{1, 2, 3})
	_, es, _, err := jackpot.Apply(p, r, t0)
	if e, ok := fault.As(err); !ok || e.Kind != fault.Invalid || e.Field() != jackpot.FieldPool || es != nil {
		t.Fatalf("round: %v %v, want invalid %q", err, es, jackpot.FieldPool)
	}
	if _, _, err := jackpot.Adjust(p, jackpot.Adjustment{Meter: "displayed", Amount: 101, Reason: "x"}, ops, t0); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("adjustment: %v", err)
	}
	// The house meter too: a fixed prize of 200,000 on a house meter 100
	// below the limit.
	p.Meters.Displayed = 10_000_000
	p.Meters.HouseFunded = math.MaxInt64 - 100
	r = jackpottest.RoundOf(rs, "t", "r2", t0, 500, []int{1}, jackpottest.FourOfAKind(rs, 1, 1, 500))
	if _, _, _, err := jackpot.Apply(p, r, t0); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("house meter: %v", err)
	}
}

// TestRateSumExactPastInt64: the invariant credited +
// carried == sum(wager x rate) holds exactly after sum(wager x rate) passes
// the int64 range: 14,000 rounds of 7 wagers of the largest unit 1e10 at
// 10000 bp = 14,000 x 7 x 1e10 x 10000 = 9,800,000,000,000,000,000 (1/10000
// minor units), more than 9,223,372,036,854,775,807.
func TestRateSumExactPastInt64(t *testing.T) {
	const rs = "mbs-megalink-ssp-v6"
	s := jackpottest.MBSSettings()
	s.Unit, s.ContributionBP, s.ReserveBP = jackpot.MaxUnit, 10000, 0
	p, ledger, err := jackpot.New("p", s, ops, t0)
	if err != nil {
		t.Fatal(err)
	}
	seats := []int{1, 2, 3, 4, 5, 6, 7}
	for i := range 14_000 {
		var es []jackpot.Entry
		p, es, _, err = jackpot.Apply(p, jackpottest.RoundOf(rs, "t", fmt.Sprint(i), t0, jackpot.MaxUnit, seats), t0)
		if err != nil {
			t.Fatal(i, err)
		}
		ledger = append(ledger, es...)
	}
	rec := jackpot.Reconcile(p, ledger)
	if !rec.OK || rec.RateSum != "9800000000000000000" || rec.RateSumReserve != "0" || p.Meters.Contributed != 980_000_000_000_000 {
		t.Fatalf("ok %v rateSum %s contributed %d problems %v", rec.OK, rec.RateSum, p.Meters.Contributed, rec.Problems)
	}
	// A contribution entry whose credit does not match its wagers is found.
	for i := range ledger {
		if ledger[i].Kind == jackpot.KindContribution {
			ledger[i].RateSum--
			break
		}
	}
	if rec := jackpot.Reconcile(p, ledger); rec.OK {
		t.Fatal("a tampered rate sum reconciles")
	}
}

// TestStraightFlushOnALargePool: ruling R3: 10% of a 5e18 pool is
// 5e17, paid; the old code refused it (bp x pool passed int64).
func TestStraightFlushOnALargePool(t *testing.T) {
	share, fromPool, extra, err := jackpot.SharedPrize(5_000_000_000_000_000_000, jackpot.MaxAmount, 1000, 1)
	if err != nil || share != 500_000_000_000_000_000 || fromPool != share || extra != 0 {
		t.Fatalf("SharedPrize = %d %d %d %v", share, fromPool, extra, err)
	}
	// R5: two of them: (5e17 + 1e14) / 2 each; the pool funds its 5e17.
	share, fromPool, extra, err = jackpot.SharedPrize(5_000_000_000_000_000_000, jackpot.MaxAmount, 1000, 2)
	if err != nil || share != 250_050_000_000_000_000 || fromPool != 500_000_000_000_000_000 || extra != 100_000_000_000_000 {
		t.Fatalf("SharedPrize x2 = %d %d %d %v", share, fromPool, extra, err)
	}
}

// fieldOf is the main field a refusal names ("" when err is no *fault.Error).
func fieldOf(err error) string {
	if e, ok := fault.As(err); ok {
		return e.Field()
	}
	return ""
}
