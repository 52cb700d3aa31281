package jackpot_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
)

var t0 = jackpottest.T0

// ops is the principal the fixtures open and adjust pools as.
var ops = jackpottest.Admin

// poolAt opens a pool and adjusts its meters to the given amounts.
func poolAt(t *testing.T, s jackpot.Settings, displayed, reserve, overflow money.Amount) jackpot.Pool {
	t.Helper()
	p, _, err := jackpot.New("p", s, ops, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []jackpot.Adjustment{
		{Meter: "displayed", Amount: displayed - p.Meters.Displayed, Reason: "fixture"},
		{Meter: "reserve", Amount: reserve, Reason: "fixture"},
		{Meter: "overflow", Amount: overflow, Reason: "fixture"},
	} {
		if a.Amount == 0 {
			continue
		}
		if p, _, err = jackpot.Adjust(p, a, ops, t0); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func funding(fs []jackpot.Funding) string {
	s := ""
	for _, f := range fs {
		s += fmt.Sprintf("%s:%d ", f.Source, f.Amount)
	}
	return s
}

func TestAccrueCarriesFractions(t *testing.T) {
	// ruling R1 / issue: fractions below the minor unit are carried.
	cases := []struct {
		name                  string
		wagers                money.Amount
		bp                    money.BasisPoints
		carry                 int64
		credited              money.Amount
		newCarry, wantRateSum int64
	}{
		{"500 at 17.33% = 86.65", 500, 1733, 0, 86, 6500, 866500},
		{"carry 0.65 + 86.65 = 87.30", 500, 1733, 6500, 87, 3000, 866500},
		{"exact 20%", 500, 2000, 3000, 100, 3000, 1000000},
		{"zero rate", 500, 0, 42, 0, 42, 0},
		{"carry rolls over", 1, 1, 9999, 1, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cr, nc, rs, err := jackpot.Accrue(c.wagers, c.bp, c.carry)
			if err != nil || cr != c.credited || nc != c.newCarry || rs != c.wantRateSum {
				t.Fatalf("Accrue = %d, %d, %d, %v; want %d, %d, %d", cr, nc, rs, err, c.credited, c.newCarry, c.wantRateSum)
			}
		})
	}
}

func TestSharedPrize(t *testing.T) {
	cases := []struct {
		name                   string
		pool, reset            money.Amount
		bp                     money.BasisPoints
		n                      int
		share, fromPool, extra money.Amount
	}{
		{"R3 one Royal takes the whole pool", 12_345_678, 10_000_000, 10000, 1, 12_345_678, 12_345_678, 0},
		{"R3 one Straight Flush: 10% rounded down", 12_345_678, 10_000_000, 1000, 1, 1_234_567, 1_234_567, 0},
		{"R5 two Royals share pool + reset", 10_111_422, 10_000_000, 10000, 2, 10_055_711, 10_111_422, 10_000_000},
		{"R5/R21 three Royals: the remainder stays in the pool", 10_000_001, 10_000_000, 10000, 3, 10_000_000, 10_000_000, 20_000_000},
		{"R5 two Straight Flushes share 10% pool + 10% reset", 11_234_913, 10_000_000, 1000, 2, 1_061_745, 1_123_490, 1_000_000},
		{"R5 three Straight Flushes", 10_000_007, 10_000_000, 1000, 3, 1_000_000, 1_000_000, 2_000_000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			share, fromPool, extra, err := jackpot.SharedPrize(c.pool, c.reset, c.bp, c.n)
			if err != nil || share != c.share || fromPool != c.fromPool || extra != c.extra {
				t.Fatalf("SharedPrize = %d, %d, %d, %v; want %d, %d, %d", share, fromPool, extra, err, c.share, c.fromPool, c.extra)
			}
			if share*money.Amount(c.n) != fromPool+extra {
				t.Fatalf("shares %d x %d != pool part %d + extra %d", share, c.n, fromPool, extra)
			}
		})
	}
}

// TestMBSMultiWinnerRound is ruling R5 at one table (SSP v6 3.15): the
// house-paid Four of a Kind, then the Straight Flush, then two Royal
// Flushes sharing pool + reset; the extra reset part and the reset are
// funded from the reserve, then the house (R21).
func TestMBSMultiWinnerRound(t *testing.T) {
	const rs = "mbs-megalink-ssp-v6"
	p := poolAt(t, jackpottest.MBSSettings(), 11_234_567, 3_000_000, 0)
	r := jackpottest.RoundOf(rs, "t1", "r1", t0, 500, []int{1, 2, 3, 4},
		jackpottest.Royal(rs, 1, 1, 500), jackpottest.Royal(rs, 2, 2, 500),
		jackpottest.StraightFlush(rs, 3, 3, 500), jackpottest.FourOfAKind(rs, 4, 4, 500))
	q, entries, res, err := jackpot.Apply(p, r, t0)
	if err != nil {
		t.Fatal(err)
	}
	// R4: 4 x 500 x 17.33% = 346.6 -> 346 credited to 11,234,913, 0.6 carried;
	// reserve 4 x 500 x 5.17% = 103.4 -> 103.
	if res.Contribution.Displayed != 346 || res.Contribution.Reserve != 103 || q.Meters.CarryDisplayed != 6000 || q.Meters.CarryReserve != 4000 {
		t.Fatalf("contribution %+v carries %d %d", res.Contribution, q.Meters.CarryDisplayed, q.Meters.CarryReserve)
	}
	want := []struct {
		seat     int
		category string
		amount   money.Amount
		funding  string
		house    money.Amount
	}{
		{4, "four_of_a_kind", 200_000, "house:200000 ", 200_000},
		// 10% of 11,234,913 = 1,123,491.3 -> 1,123,491
		{3, "straight_flush", 1_123_491, "pool:1123491 ", 0},
		// (10,111,422 + 10,000,000) / 2 = 10,055,711 each; the pool funds
		// its 10,111,422, the extra reset part the reserve (3,000,103) and
		// the house (6,999,897).
		{1, "royal_flush", 10_055_711, "pool:10055711 ", 0},
		{2, "royal_flush", 10_055_711, "pool:55711 reserve:3000103 house:6999897 ", 6_999_897},
	}
	if len(res.Payouts) != len(want) {
		t.Fatalf("payouts %+v", res.Payouts)
	}
	for i, w := range want {
		po := res.Payouts[i]
		if po.Seat != w.seat || po.Category != w.category || po.Amount != w.amount || funding(po.Funding) != w.funding || po.HouseFunded != w.house || po.Status != "paid" {
			t.Errorf("payout %d = seat %d %s %d [%s] house %d; want seat %d %s %d [%s] house %d", i,
				po.Seat, po.Category, po.Amount, funding(po.Funding), po.HouseFunded, w.seat, w.category, w.amount, w.funding, w.house)
		}
	}
	if res.Payouts[2].Shared != 2 {
		t.Errorf("the Royals are shared by 2: %d", res.Payouts[2].Shared)
	}
	// After the Royals the pool is reset to 10,000,000 (no remainder),
	// funded wholly by the house: the reserve is spent.
	if q.Meters.Displayed != 10_000_000 || q.Meters.Reserve != 0 {
		t.Fatalf("after: displayed %d reserve %d", q.Meters.Displayed, q.Meters.Reserve)
	}
	last := entries[len(entries)-1]
	if last.Kind != jackpot.KindReset || funding(last.Funding) != "house:10000000 " {
		t.Fatalf("the reset is funded by the house: %+v", last)
	}
	if rec := jackpot.Reconcile(q, append(ledgerOf(t, p), entries...)); !rec.OK {
		t.Fatalf("reconcile: %+v %v", rec.Differences, rec.Problems)
	}
}

// TestMBSStraightFlushesShared: R5 / SSP v6 3.15.2 — two Straight Flushes
// share 10% of the pool + 10% of a reset; the reset part is funded from the
// overflow first (R21).
func TestMBSStraightFlushesShared(t *testing.T) {
	const rs = "mbs-megalink-tcp-v6"
	p := poolAt(t, jackpottest.MBSSettings(), 11_234_567, 0, 400_000)
	r := jackpottest.RoundOf(rs, "t1", "r1", t0, 500, []int{5, 6, 7, 1},
		jackpottest.StraightFlush(rs, 6, 2, 500), jackpottest.StraightFlush(rs, 5, 1, 500))
	q, _, res, err := jackpot.Apply(p, r, t0)
	if err != nil {
		t.Fatal(err)
	}
	// Pool after contributions: 11,234,913. Total 1,123,491.3 + 1,000,000
	// = 2,123,491.3; each of 2 shares 1,061,745; the pool funds 1,123,490,
	// the extra 1,000,000 comes from the overflow (400,000) then the
	// reserve (103) then the house (599,897).
	if len(res.Payouts) != 2 || res.Payouts[0].Seat != 5 || res.Payouts[0].Amount != 1_061_745 || res.Payouts[1].Amount != 1_061_745 {
		t.Fatalf("payouts %+v", res.Payouts)
	}
	if got := funding(res.Payouts[0].Funding) + "| " + funding(res.Payouts[1].Funding); got != "pool:1061745 | pool:61745 overflow:400000 reserve:103 house:599897 " {
		t.Fatalf("funding %s", got)
	}
	if q.Meters.Displayed != 11_234_913-1_123_490 || q.Meters.Overflow != 0 || q.Meters.Reserve != 0 {
		t.Fatalf("after: %+v", q.Meters)
	}
	if !contains(res.Payouts[0].Rules, "mbs-megalink-tcp-v6 3.18.1") || !contains(res.Payouts[0].Rules, "ruling R5") {
		t.Fatalf("rules %v", res.Payouts[0].Rules)
	}
}

// TestRWSMultiWinnerRound is ruling R6 (RWS 4.5.1): major winners at one
// table are paid one after the other in dealing order, each from the pool
// as it stands after the previous payout and reset. Here the Royal was
// dealt first, so the Straight Flush is 10% of the reset pool — under MBS
// (R5) it would be paid first.
func TestRWSMultiWinnerRound(t *testing.T) {
	const rs = "rws-mlp-csp-v2"
	s := jackpottest.RWSSettings()
	s.SettleWindowMS = 1 // paid as soon as the window passes
	p := poolAt(t, s, 11_234_567, 1_000_000, 0)
	r := jackpottest.RoundOf(rs, "t1", "r1", t0, 500, []int{1, 2, 3, 4},
		jackpottest.StraightFlush(rs, 4, 4, 500), jackpottest.Royal(rs, 2, 2, 500), jackpottest.Royal(rs, 3, 3, 500),
		jackpottest.FourOfAKind(rs, 1, 1, 500))
	q, _, res, err := jackpot.Apply(p, r, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Payouts) != 4 || res.Payouts[0].Category != "four_of_a_kind" || res.Payouts[0].Status != "paid" {
		t.Fatalf("the minor jackpot is paid at once by the house: %+v", res.Payouts)
	}
	for _, po := range res.Payouts[1:] {
		if po.Status != "held" {
			t.Fatalf("R7: a major hit is held: %+v", po)
		}
	}
	q, _, paid, ok, err := jackpot.Release(q, t0.Add(time.Millisecond))
	if err != nil || !ok || len(paid) != 3 {
		t.Fatalf("release: %v %v %d", ok, err, len(paid))
	}
	// Pool 11,234,913 after contributions. Seat 2 (dealt 2nd): the whole
	// pool; reset 10,000,000 from the reserve (1,000,103) and the house.
	// Seat 3: 10,000,000; reset again, all house. Seat 4: 10% of
	// 10,000,000.
	want := []struct {
		seat    int
		amount  money.Amount
		funding string
	}{
		{2, 11_234_913, "pool:11234913 "},
		{3, 10_000_000, "pool:10000000 "},
		{4, 1_000_000, "pool:1000000 "},
	}
	for i, w := range want {
		if paid[i].Seat != w.seat || paid[i].Amount != w.amount || funding(paid[i].Funding) != w.funding {
			t.Errorf("paid %d = seat %d %d [%s], want seat %d %d [%s]", i, paid[i].Seat, paid[i].Amount, funding(paid[i].Funding), w.seat, w.amount, w.funding)
		}
	}
	if q.Meters.Displayed != 9_000_000 || q.Meters.Reserve != 0 || q.Meters.HouseFunded != 10_000_000+200_000+8_999_897+10_000_000 {
		t.Fatalf("after: %+v", q.Meters)
	}
}

// TestR22StakeMustBeTheUnit: a pool refuses any other progressive stake,
// except THB's 1-5 units (R17) and SSP v4's credits.
func TestR22StakeMustBeTheUnit(t *testing.T) {
	s := jackpottest.MBSSettings()
	s.Rulesets = append(s.Rulesets, "mbs-ssp-v4")
	p, _, err := jackpot.New("p", s, ops, t0)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		ruleset string
		amount  money.Amount
		ok      bool
	}{
		{"mbs-megalink-ssp-v6", 500, true},
		{"mbs-megalink-ssp-v6", 1000, false},
		{"mbs-megalink-tcp-v6", 499, false},
		{"mbs-megalink-thb-v9", 2500, true},
		{"mbs-megalink-thb-v9", 3000, false},
		{"mbs-megalink-thb-v9", 750, false},
		{"mbs-ssp-v4", 3500, true},
		{"mbs-ssp-v4", 501, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s_%d", c.ruleset, c.amount), func(t *testing.T) {
			r := jackpottest.RoundOf(c.ruleset, "t1", "r1", t0, c.amount, []int{1})
			_, _, _, err := jackpot.Apply(p, r, t0)
			if (err == nil) != c.ok {
				t.Fatalf("err %v, want ok=%v", err, c.ok)
			}
			if err != nil && fault.KindOf(err) != fault.Invalid {
				t.Fatalf("kind %v", err)
			}
		})
	}
}

// TestR17THBOddsForScaleWithStake: THB 3.5.3.1 — "400 for 1" on a stake of
// 3 units pays 3 x the one-unit prize; a Royal pays its percentage once.
func TestR17THBOddsForScaleWithStake(t *testing.T) {
	const rs = "mbs-megalink-thb-v9"
	p, _, _ := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	four := jackpot.Hit{Seat: 1, Dealt: 1, Category: "four_of_a_kind", Prize: jackpot.Prize{Kind: jackpot.PrizeOddsFor, Odds: money.Ratio{Num: 400, Den: 1}}, Stake: 1500}
	r := jackpot.Round{Ruleset: rs, Table: "t", Round: "r", DealtAt: t0,
		Wagers: []jackpot.ProgressiveWager{{Seat: 1, Amount: 1500}, {Seat: 2, Amount: 2500}},
		Hits:   []jackpot.Hit{four, jackpottest.Royal(rs, 2, 2, 2500)}}
	_, _, res, err := jackpot.Apply(p, r, t0)
	if err != nil {
		t.Fatal(err)
	}
	// 4000 x 17.33% = 693.2 -> 693; the Royal takes the whole 10,000,693.
	if res.Payouts[0].Amount != 600_000 || res.Payouts[0].StakeReturned != 0 || res.Payouts[1].Amount != 10_000_693 {
		t.Fatalf("payouts %+v", res.Payouts)
	}
}

// TestCarriedFractionInvariant: over random sequences of rounds, rates,
// ceilings and settings changes, credited + carried == sum(wager x rate)
// exactly, and the meters always equal the ledger.
func TestCarriedFractionInvariant(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 99))
		s := jackpottest.MBSSettings()
		s.ContributionBP = money.BasisPoints(rng.IntN(3000) + 1)
		s.ReserveBP = money.BasisPoints(rng.IntN(1000))
		s.Ceiling = s.Reset + money.Amount(rng.IntN(5000))
		p, ledger, err := jackpot.New("p", s, ops, t0)
		if err != nil {
			t.Fatal(err)
		}
		var sumRate, sumRateR int64
		for i := range 300 {
			if rng.IntN(40) == 0 {
				ns := p.Settings
				ns.ContributionBP = money.BasisPoints(rng.IntN(3000) + 1)
				ns.ReserveBP = money.BasisPoints(rng.IntN(1000))
				var es []jackpot.Entry
				p, es, err = jackpot.ChangeSettings(p, ns, ops, "", t0)
				if err != nil {
					t.Fatal(err)
				}
				ledger = append(ledger, es...)
			}
			n := rng.IntN(7)
			seats := make([]int, n)
			for k := range seats {
				seats[k] = k + 1
			}
			var hits []jackpot.Hit
			if n > 0 && rng.IntN(25) == 0 {
				hits = append(hits, jackpottest.Royal("mbs-megalink-ssp-v6", 1, 1, 500))
			}
			if n > 1 && rng.IntN(10) == 0 {
				hits = append(hits, jackpottest.StraightFlush("mbs-megalink-ssp-v6", 2, 2, 500))
			}
			rate, rateR := int64(p.Settings.ContributionBP), int64(p.Settings.ReserveBP)
			r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t", fmt.Sprint(i), t0, 500, seats, hits...)
			var es []jackpot.Entry
			p, es, _, err = jackpot.Apply(p, r, t0)
			if err != nil {
				t.Fatal(err)
			}
			ledger = append(ledger, es...)
			sumRate += int64(n) * 500 * rate
			sumRateR += int64(n) * 500 * rateR
			m := p.Meters
			if int64(m.Contributed)*10000+m.CarryDisplayed != sumRate || int64(m.ContributedReserve)*10000+m.CarryReserve != sumRateR {
				t.Fatalf("seed %d round %d: credited %d + carried %d != %d", seed, i, m.Contributed, m.CarryDisplayed, sumRate)
			}
			if m.CarryDisplayed < 0 || m.CarryDisplayed >= 10000 || (s.Ceiling > 0 && m.Displayed > p.Settings.Ceiling && m.Displayed > p.Settings.Reset) {
				t.Fatalf("seed %d round %d: carry %d displayed %d", seed, i, m.CarryDisplayed, m.Displayed)
			}
		}
		if rec := jackpot.Reconcile(p, ledger); !rec.OK {
			t.Fatalf("seed %d: %+v %v", seed, rec.Differences, rec.Problems)
		}
	}
}

// TestReconcileFindsTampering: a meter moved outside the ledger is reported.
func TestReconcileFindsTampering(t *testing.T) {
	p, ledger, _ := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	p.Meters.Displayed++
	rec := jackpot.Reconcile(p, ledger)
	if rec.OK || len(rec.Differences) != 1 || rec.Differences[0].Meter != "displayed" || rec.Differences[0].Meters-rec.Differences[0].Ledger != 1 {
		t.Fatalf("%+v", rec)
	}
}

func TestSettingsValidate(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*jackpot.Settings)
		field string
	}{
		{"mixed casinos (R7)", func(s *jackpot.Settings) { s.Rulesets = append(s.Rulesets, "rws-mlp-csp-v2") }, "rulesets[3]"},
		{"unknown ruleset", func(s *jackpot.Settings) { s.Rulesets = []string{"x"} }, "rulesets[0]"},
		{"zero unit", func(s *jackpot.Settings) { s.Unit = 0 }, "unit"},
		{"rates over 100%", func(s *jackpot.Settings) { s.ReserveBP = 9000 }, "reserveBp"},
		{"ceiling under reset", func(s *jackpot.Settings) { s.Ceiling = 5 }, "ceiling"},
		{"currency", func(s *jackpot.Settings) { s.Currency = "XXX" }, "currency"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := jackpottest.MBSSettings()
			c.edit(&s)
			err := s.Validate()
			e, ok := fault.As(err)
			if !ok || e.Field() != c.field {
				t.Fatalf("err %v, want field %s", err, c.field)
			}
		})
	}
}

func ledgerOf(t *testing.T, p jackpot.Pool) []jackpot.Entry {
	t.Helper()
	// Rebuild the fixture's ledger: New and the adjustments poolAt made.
	q, es, _ := jackpot.New("p", p.Settings, ops, t0)
	for _, a := range []struct {
		m string
		v money.Amount
	}{{"displayed", p.Meters.Displayed - q.Meters.Displayed}, {"reserve", p.Meters.Reserve}, {"overflow", p.Meters.Overflow}} {
		if a.v == 0 {
			continue
		}
		var more []jackpot.Entry
		q, more, _ = jackpot.Adjust(q, jackpot.Adjustment{Meter: a.m, Amount: a.v, Reason: "fixture"}, ops, t0)
		es = append(es, more...)
	}
	return es
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestR7HeldOrder: RWS 4.5.2 / ruling R7. Held major hits are paid in
// dealt order; a tie in dealt-at time falls back to commit order; a hit
// dealt earlier than a due one is paid before it even if its own window
// has not passed.
func TestR7HeldOrder(t *testing.T) {
	const rs = "rws-mlp-csp-v2"
	p, _, _ := jackpot.New("p", jackpottest.RWSSettings(), ops, t0) // window 3 s
	apply := func(table string, dealt time.Time, now time.Time, h jackpot.Hit) {
		t.Helper()
		var err error
		r := jackpottest.RoundOf(rs, table, "r", dealt, 500, []int{h.Seat}, h)
		p, _, _, err = jackpot.Apply(p, r, now)
		if err != nil {
			t.Fatal(err)
		}
	}
	// Committed in order A, B, C, D; dealt C < A == B < D.
	apply("A", t0.Add(10*time.Second), t0, jackpottest.StraightFlush(rs, 1, 1, 500))
	apply("B", t0.Add(10*time.Second), t0.Add(time.Second), jackpottest.StraightFlush(rs, 2, 1, 500))
	apply("C", t0.Add(5*time.Second), t0.Add(2*time.Second), jackpottest.StraightFlush(rs, 3, 1, 500))
	apply("D", t0.Add(20*time.Second), t0.Add(2*time.Second), jackpottest.StraightFlush(rs, 4, 1, 500))
	// At t0+3s only A is due; C (dealt earlier) is paid before it, B (tie
	// with A, committed later) and D wait.
	q, _, paid, ok, err := jackpot.Release(p, t0.Add(3*time.Second))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	var order []string
	for _, po := range paid {
		order = append(order, po.Table)
	}
	if fmt.Sprint(order) != "[C A]" || len(q.Held) != 2 {
		t.Fatalf("paid %v, still held %d; want [C A] and 2", order, len(q.Held))
	}
	// Each from the pool as it stands (R21): C gets 10% of the pool, A 10% of what C left.
	pool := p.Meters.Displayed
	c := pool / 10
	if paid[0].Amount != c || paid[1].Amount != (pool-c)/10 {
		t.Fatalf("amounts %d %d from pool %d", paid[0].Amount, paid[1].Amount, pool)
	}
	q, _, paid, _, _ = jackpot.Release(q, t0.Add(10*time.Second))
	order = order[:0]
	for _, po := range paid {
		order = append(order, po.Table)
	}
	if fmt.Sprint(order) != "[B D]" {
		t.Fatalf("then %v, want [B D]", order)
	}
}

func TestAdjustNeverBelowZero(t *testing.T) {
	p, _, _ := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	if _, _, err := jackpot.Adjust(p, jackpot.Adjustment{Meter: "reserve", Amount: -1, Reason: "x"}, ops, t0); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("reserve below zero: %v", err)
	}
	// Issue 24 "errors worded in money, not cents": the refusal states what
	// the meter holds in SGD, not in minor units.
	if _, _, err := jackpot.Adjust(p, jackpot.Adjustment{Meter: "displayed", Amount: -10_000_001, Reason: "x"}, ops, t0); err == nil ||
		!strings.Contains(err.Error(), "the displayed meter holds SGD 100,000.00: -SGD 100,000.01 would take it below zero") {
		t.Fatalf("displayed below zero: %v", err)
	}
	if _, _, err := jackpot.Adjust(p, jackpot.Adjustment{Meter: "displayed", Amount: -5, Reason: "x"}, jackpot.Actor{}, t0); fault.KindOf(err) != fault.Unauthenticated {
		t.Fatalf("unsigned adjustment: %v", err)
	}
	carol := jackpot.Actor{ID: "adm:carol", Role: "admin"}
	q, es, err := jackpot.Adjust(p, jackpot.Adjustment{Meter: "displayed", Amount: -5, Reason: "meter test"}, carol, t0)
	if err != nil || q.Meters.Displayed != 9_999_995 || es[0].Actor == nil || *es[0].Actor != carol || es[0].By != "" || es[0].Displayed != -5 {
		t.Fatalf("%v %+v", err, es)
	}
}

// TestCeilingOverflow: contributions past the ceiling go to the overflow
// meter, and the overflow funds the next reset first (R21).
func TestCeilingOverflow(t *testing.T) {
	const rs = "mbs-megalink-ssp-v6"
	s := jackpottest.MBSSettings()
	s.Ceiling = 10_000_100
	p := poolAt(t, s, 10_000_000, 0, 0)
	// 3 x 500 x 17.33% = 259.95 -> 259: 100 to the displayed meter (up to
	// the ceiling), 159 to the overflow.
	r := jackpottest.RoundOf(rs, "t", "r1", t0, 500, []int{1, 2, 3})
	q, _, res, err := jackpot.Apply(p, r, t0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Contribution.Displayed != 100 || res.Contribution.Overflow != 159 || q.Meters.Displayed != 10_000_100 || q.Meters.Overflow != 159 {
		t.Fatalf("contribution %+v meters %+v", res.Contribution, q.Meters)
	}
	r2 := jackpottest.RoundOf(rs, "t", "r2", t0, 500, []int{1}, jackpottest.Royal(rs, 1, 1, 500))
	q, es, res, err := jackpot.Apply(q, r2, t0)
	if err != nil {
		t.Fatal(err)
	}
	// 500 x 17.33% + 0.95 carried = 87.6 -> 87, all to the overflow (246);
	// the Royal takes 10,000,100; the reset takes the overflow 246, the
	// reserve 77 + 26 (25.85 + 0.55 carried) = 103, and the house 9,999,651.
	last := es[len(es)-1]
	if res.Payouts[0].Amount != 10_000_100 || last.Kind != jackpot.KindReset || funding(last.Funding) != "overflow:246 reserve:103 house:9999651 " {
		t.Fatalf("payout %d reset %+v", res.Payouts[0].Amount, last)
	}
	if q.Meters.Overflow != 0 || q.Meters.Reserve != 0 || q.Meters.Displayed != 10_000_000 {
		t.Fatalf("after: %+v", q.Meters)
	}
}

// Issue 24 "errors worded in money, not cents": a setting or an
// adjustment out of bounds is refused with its bounds in the pool's
// currency (the field itself stays in minor units, and says so).
func TestBoundsWordedInMoney(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*jackpot.Settings)
		want string
	}{
		{"unit", func(s *jackpot.Settings) { s.Unit = jackpot.MaxUnit + 1 }, "the wager unit must be SGD 0.01 to SGD 100,000,000.00 (1-10,000,000,000 minor units)"},
		{"reset", func(s *jackpot.Settings) { s.Reset = 0 }, "the reset amount must be SGD 0.01 to SGD 10,000,000,000,000.00 (1-1,000,000,000,000,000 minor units)"},
		{"ceiling", func(s *jackpot.Settings) { s.Ceiling = 5 }, "the ceiling must be zero (none) or from the reset amount, SGD 100,000.00, to SGD 10,000,000,000,000.00 (1,000,000,000,000,000 minor units)"},
		{"verify", func(s *jackpot.Settings) { s.Verify = &jackpot.Verify{AtOrAbove: -1} }, "must be 0 (no threshold) to SGD 10,000,000,000,000.00 (1,000,000,000,000,000 minor units)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := jackpottest.MBSSettings()
			c.edit(&s)
			if _, _, err := jackpot.New("p", s, ops, t0); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}
	p, _, _ := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	if _, _, err := jackpot.Adjust(p, jackpot.Adjustment{Meter: "reserve", Amount: jackpot.MaxAmount + 1, Reason: "x"}, ops, t0); err == nil ||
		!strings.Contains(err.Error(), "an adjustment moves a meter by SGD 0.01 to SGD 10,000,000,000,000.00, up or down (not zero; 1-1,000,000,000,000,000 minor units)") {
		t.Fatalf("adjustment out of bounds: %v", err)
	}
}

// Issue 24 "errors worded in money, not cents": a change that would take a
// meter past what an int64 of minor units holds is refused (R1: it never
// wraps) naming that limit in the pool's currency, grouped in thousands,
// SGD 92,233,720,368,547,758.07, not as 9223372036854775807 minor units.
func TestOverflowWordedInMoney(t *testing.T) {
	p, _, _ := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	p.Meters.Reserve = math.MaxInt64 - 5
	_, _, err := jackpot.Adjust(p, jackpot.Adjustment{Meter: "reserve", Amount: 6, Reason: "x"}, ops, t0)
	var fe *fault.Error
	const want = "refused, nothing applied: the reserve meter would overflow (a meter holds at most SGD 92,233,720,368,547,758.07; adjust the pool)"
	if !errors.As(err, &fe) || fe.Kind != fault.Invalid || len(fe.Fields) != 1 || fe.Fields[0].Field != jackpot.FieldPool || fe.Fields[0].Message != want {
		t.Fatalf("err %+v, want %q at the pool", err, want)
	}
}
