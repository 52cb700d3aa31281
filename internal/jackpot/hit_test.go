package jackpot_test

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
)

// TestSharedStraightFlushesPoolPart: ruling R5 (SSP v6 3.15.2),
// R21 and R27: the pool funds at most its own part, floor(10% of the
// pool), and every extra reset part is funded rounded up.
func TestSharedStraightFlushesPoolPart(t *testing.T) {
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

// TestRoyalsOnAnEmptyPool: rulings R5 and R21. Displayed adjusted to
// 0, reset 2, three Royals share 0 + 2 x 2 = 4: 1 each; the pool funds
// nothing (never a negative part), the house the 3 paid and the reset 2;
// every payout's funding sums to what it pays, and the ledger reconciles.
func TestRoyalsOnAnEmptyPool(t *testing.T) {
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
