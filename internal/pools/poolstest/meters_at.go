package poolstest

import (
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// testMetersAtSkewedWriters: issue 13 item 3 (the meters as they stood at
// an instant, for RWS 5.18.1 and disputes). Two writers whose clocks
// differ by 5 s share the pool: the one ahead commits r1 at T1 with a
// Straight Flush at T0+10s (10% of 10,000,259: 1,000,025, R3; displayed
// 9,000,234), then the one behind commits r1 at T2 at T0+5s (260). The
// meters as of T0+7s are the ledger as it stood then: a prefix of it, the
// opening alone (displayed 10,000,000, through entry 1), never the later
// T2 contribution without the Straight Flush committed before it
// (displayed 10,000,260, a meter the pool never showed).
func testMetersAtSkewedWriters(t *testing.T, st pools.Store) {
	ctx := tableCtx()
	clock := jackpottest.NewClock(jackpottest.T0)
	ahead, behind := service(st, clock), service(st, jackpottest.NewClock(jackpottest.T0.Add(5*time.Second)))
	defer sameInstants(t, st, "p")
	if _, _, err := ahead.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	res := applyAs(ctx, t, ahead, "p", jackpottest.RoundOf(ssp, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3}, jackpottest.StraightFlush(ssp, 1, 1, 500)))
	if len(res.Payouts) != 1 || res.Payouts[0].Amount != 1_000_025 {
		t.Fatalf("the Straight Flush: %+v", res.Payouts)
	}
	applyAs(ctx, t, behind, "p", jackpottest.RoundOf(ssp, "T2", "r1", jackpottest.T0, 500, []int{1, 2, 3}))
	if m := meters(t, ahead, "p"); m.Displayed != 9_000_494 {
		t.Fatalf("displayed %d, want 9,000,494", m.Displayed)
	}
	for _, c := range []struct {
		at         time.Time
		displayed  money.Amount
		throughSeq int64
	}{
		{jackpottest.T0.Add(7 * time.Second), 10_000_000, 1},
		{jackpottest.T0.Add(10 * time.Second), 9_000_494, 4},
	} {
		got, err := ahead.MetersAt(ctx, "p", c.at)
		if err != nil {
			t.Fatal(err)
		}
		if got.Meters.Displayed != c.displayed || got.ThroughSeq != c.throughSeq || got.Entries != c.throughSeq {
			t.Fatalf("as of %s: displayed %d through %d (%d entries); want %d through %d", c.at.Format(time.TimeOnly), got.Meters.Displayed, got.ThroughSeq, got.Entries, c.displayed, c.throughSeq)
		}
	}
	jackpottest.MustReconcile(t, ahead, "p")
}

// testMetersAt: issue 13 item 3. The meters as they stood at an instant:
// at the opening 10,000,000; after the first round 10,000,259 and the
// reserve 77; after the Royal round the reset pool 10,000,000 plus the
// remainder.
func testMetersAt(t *testing.T, st pools.Store) {
	ctx, clock, svc := mbsPool(t, st)
	defer sameInstants(t, st, "p")
	clock.Advance(time.Second)
	apply(t, svc, "p", lockRound("T1", "r1", false))
	clock.Advance(time.Second)
	apply(t, svc, "p", lockRound("T1", "r2", true))
	for _, c := range []struct {
		name               string
		at                 time.Time
		displayed, reserve int64
		through            int64
	}{
		{"before the pool", jackpottest.T0.Add(-time.Second), 0, 0, 0},
		{"at the opening", jackpottest.T0, 10_000_000, 0, 1},
		{"between the rounds", jackpottest.T0.Add(1500 * time.Millisecond), 10_000_259, 77, 2},
		{"after the Royal", jackpottest.T0.Add(3 * time.Second), 10_000_000, 0, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := svc.MetersAt(ctx, "p", c.at)
			if err != nil {
				t.Fatal(err)
			}
			if int64(got.Meters.Displayed) != c.displayed || int64(got.Meters.Reserve) != c.reserve || got.ThroughSeq != c.through {
				t.Fatalf("%+v", got)
			}
		})
	}
}
