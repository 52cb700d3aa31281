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

// The cases of the pools audit (REVIEW-pools.md), each with the rule it
// protects and exact amounts.

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

// TestDefect1TwoRoyalsOnTheLargestReset: ruling R5 (SSP v6 3.15.1) and
// R21 at the largest reset. Pool 1e15 + 173 (two wagers of 500 at 17.33% =
// 173.3 -> 173), two Royals share 1e15 + 173 + 1e15 = 2,000,000,000,000,173:
// each 1,000,000,000,000,086, 1 left in the pool; the pool funds
// 1,000,000,000,000,172, the extra reset part 1e15 comes from the reserve
// (1000 x 5.17% = 51.7 -> 51) and the house (999,999,999,999,949).
func TestDefect1TwoRoyalsOnTheLargestReset(t *testing.T) {
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

// TestDefect2MeterOverflowIsRefused: ruling R1: a meter never wraps. A pool
// whose displayed meter stands 100 below the int64 limit refuses a round
// whose contribution (3 x 500 x 17.33% = 259.95 -> 259) would pass it, and
// an adjustment of +101; nothing is applied.
func TestDefect2MeterOverflowIsRefused(t *testing.T) {
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

// TestDefect3RateSumExactPastInt64: the invariant credited +
// carried == sum(wager x rate) holds exactly after sum(wager x rate) passes
// the int64 range: 14,000 rounds of 7 wagers of the largest unit 1e10 at
// 10000 bp = 14,000 x 7 x 1e10 x 10000 = 9,800,000,000,000,000,000 (1/10000
// minor units), more than 9,223,372,036,854,775,807.
func TestDefect3RateSumExactPastInt64(t *testing.T) {
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

// TestDefect4StraightFlushOnALargePool: ruling R3: 10% of a 5e18 pool is
// 5e17, paid; the old code refused it (bp x pool passed int64).
func TestDefect4StraightFlushOnALargePool(t *testing.T) {
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

// TestDefect6SharedStraightFlushesPoolPart: ruling R5 (SSP v6 3.15.2),
// R21 and R27: the pool funds at most its own part, floor(10% of the
// pool), and every extra reset part is funded rounded up.
func TestDefect6SharedStraightFlushesPoolPart(t *testing.T) {
	cases := []struct {
		name                   string
		pool, reset            money.Amount
		n                      int
		share, fromPool, extra money.Amount
	}{
		// total = 1,000,001.5 + 1,000,000.5 = 2,000,002; share 1,000,001;
		// the pool's part floor(1,000,001.5) = 1,000,001, the house the rest.
		{"10% of 10,000,015 + 10% of 10,000,005, 2 winners", 10_000_015, 10_000_005, 2, 1_000_001, 1_000_001, 1_000_001},
		// total = 1.5 + 0.5 = 2; share 1; the pool's part floor(1.5) = 1.
		{"10% of 15 + 10% of 5, 2 winners", 15, 5, 2, 1, 1, 1},
		// total = 1,123,491.3 + 1,000,000 = 2,123,491.3; share 1,061,745;
		// the house's part 1,000,000, the pool 1,123,490 (1.3 stays).
		{"10% of 11,234,913 + 10% of 10,000,000, 2 winners", 11_234_913, 10_000_000, 2, 1_061_745, 1_123_490, 1_000_000},
		// Ruling R27: total = 100 + 100.5 = 200.5; share 100, 200 paid. The
		// extra reset part 100.5 is funded rounded up, 101, by the reserve
		// or the house; the pool funds 99 (rounded down it would be 100).
		{"R27 10% of 1,000 + 10% of 1,005, 2 winners", 1_000, 1_005, 2, 100, 99, 101},
		// R27: three winners, pool 30, reset 7: total 3 + 1.4 = 4.4, share
		// 1, 3 paid; each extra part 0.7 is funded as 1 (2 in all), the
		// pool 1 (rounded down the parts would be 1 and the pool 2).
		{"R27 10% of 30 + 2 x 10% of 7, 3 winners", 30, 7, 3, 1, 1, 2},
		// total = 0.9 + 2 x 0.9 = 2.7; share 0; nothing paid, nothing moved.
		{"10% of 9 + 2 x 10% of 9, 3 winners", 9, 9, 3, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			share, fromPool, extra, err := jackpot.SharedPrize(c.pool, c.reset, 1000, c.n)
			if err != nil || share != c.share || fromPool != c.fromPool || extra != c.extra {
				t.Fatalf("SharedPrize = %d, %d, %d, %v; want %d, %d, %d", share, fromPool, extra, err, c.share, c.fromPool, c.extra)
			}
			if fromPool > c.pool/10 || share*money.Amount(c.n) != fromPool+extra {
				t.Fatalf("the pool funds %d of its own part %d; %d x %d != %d + %d", fromPool, c.pool/10, share, c.n, fromPool, extra)
			}
		})
	}
}

// TestDefect7RoyalsOnAnEmptyPool: rulings R5 and R21. Displayed adjusted to
// 0, reset 2, three Royals share 0 + 2 x 2 = 4: 1 each; the pool funds
// nothing (never a negative part), the house the 3 paid and the reset 2;
// every payout's funding sums to what it pays, and the ledger reconciles.
func TestDefect7RoyalsOnAnEmptyPool(t *testing.T) {
	const rs = "mbs-megalink-ssp-v6"
	share, fromPool, extra, err := jackpot.SharedPrize(0, 2, 10000, 3)
	if err != nil || share != 1 || fromPool != 0 || extra != 3 {
		t.Fatalf("SharedPrize = %d %d %d %v; want 1 0 3", share, fromPool, extra, err)
	}
	s := jackpottest.MBSSettings()
	s.Reset, s.ContributionBP, s.ReserveBP = 2, 0, 0
	p, ledger, _ := jackpot.New("p", s, ops, t0)
	p, es, err := jackpot.Adjust(p, jackpot.Adjustment{Meter: "displayed", Amount: -2, Reason: "test"}, ops, t0)
	if err != nil {
		t.Fatal(err)
	}
	ledger = append(ledger, es...)
	r := jackpottest.RoundOf(rs, "t", "r1", t0, 500, []int{1, 2, 3}, jackpottest.Royal(rs, 1, 1, 500), jackpottest.Royal(rs, 2, 2, 500), jackpottest.Royal(rs, 3, 3, 500))
	q, es, res, err := jackpot.Apply(p, r, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, po := range res.Payouts {
		if po.Amount != 1 || funding(po.Funding) != "house:1 " || po.HouseFunded != 1 {
			t.Fatalf("payout %+v", po)
		}
	}
	last := es[len(es)-1]
	if last.Kind != jackpot.KindReset || funding(last.Funding) != "house:2 " || q.Meters.Displayed != 2 {
		t.Fatalf("reset %+v, displayed %d", last, q.Meters.Displayed)
	}
	if rec := jackpot.Reconcile(q, append(ledger, es...)); !rec.OK {
		t.Fatalf("%+v %v", rec.Differences, rec.Problems)
	}
}

// TestTwoHitsOnOneWagerRefused: a progressive wager wins one prize.
func TestTwoHitsOnOneWagerRefused(t *testing.T) {
	const rs = "mbs-megalink-ssp-v6"
	p, _, _ := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	r := jackpottest.RoundOf(rs, "t", "r1", t0, 500, []int{1}, jackpottest.Royal(rs, 1, 1, 500), jackpottest.Royal(rs, 1, 1, 500))
	if _, _, _, err := jackpot.Apply(p, r, t0); err == nil || fieldOf(err) != "hits[1]" {
		t.Fatalf("%v", err)
	}
}

// TestPatchNamesTheRulesetItsCurrencyCannotServe: audit defect 9 at PATCH.
// An SSP v4 pool in USD (SSP v4 settles in any currency) cannot take
// mbs-megalink-ssp-v6, whose prizes are in SGD (4.2): the change names
// rulesets[1].
func TestPatchNamesTheRulesetItsCurrencyCannotServe(t *testing.T) {
	s := jackpottest.MBSSettings()
	s.Currency, s.Rulesets = "USD", []string{"mbs-ssp-v4"}
	p, _, err := jackpot.New("p", s, ops, t0)
	if err != nil {
		t.Fatal(err)
	}
	ns := p.Settings
	ns.Rulesets = []string{"mbs-ssp-v4", "mbs-megalink-ssp-v6"}
	if _, _, err := jackpot.ChangeSettings(p, ns, ops, "", t0); err == nil || fieldOf(err) != "rulesets[1]" {
		t.Fatalf("%v, want invalid rulesets[1]", err)
	}
}

// TestReconcileChecksLastAndHeldHits: the pool's last hits and held RWS
// hits (R7) are what the ledger says; a pool that lost one is reported.
func TestReconcileChecksLastAndHeldHits(t *testing.T) {
	const rs = "rws-mlp-csp-v2"
	p, ledger, _ := jackpot.New("p", jackpottest.RWSSettings(), ops, t0)
	r := jackpottest.RoundOf(rs, "t", "r1", t0, 500, []int{1, 2}, jackpottest.StraightFlush(rs, 1, 1, 500), jackpottest.FourOfAKind(rs, 2, 2, 500))
	p, es, _, err := jackpot.Apply(p, r, t0)
	if err != nil {
		t.Fatal(err)
	}
	ledger = append(ledger, es...)
	if rec := jackpot.Reconcile(p, ledger); !rec.OK || len(p.Held) != 1 || len(p.LastHits) != 1 {
		t.Fatalf("%v held %d last %d", rec.Problems, len(p.Held), len(p.LastHits))
	}
	lost := p
	lost.Held = nil
	if rec := jackpot.Reconcile(lost, ledger); rec.OK {
		t.Fatal("a pool that dropped its held hit reconciles")
	}
	lost = p
	lost.LastHits = nil
	if rec := jackpot.Reconcile(lost, ledger); rec.OK {
		t.Fatal("a pool that dropped its last hit reconciles")
	}
}

// fieldOf is the main field a refusal names ("" when err is no *fault.Error).
func fieldOf(err error) string {
	if e, ok := fault.As(err); ok {
		return e.Field()
	}
	return ""
}
