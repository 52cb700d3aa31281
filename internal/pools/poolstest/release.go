package poolstest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// testThirtyDue: issue 13 defect 1. Thirty RWS Straight Flushes held at
// once (reported in the reverse of their dealing order) are all paid when
// their window closes, in dealt order, each 10% of the pool as the
// previous left it (R3, R6, R7, R21), before the next round contributes.
func testThirtyDue(t *testing.T, st pools.Store) {
	defer sameHitHistory(t, st, "rws")
	defer sameInstants(t, st, "rws")
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	if _, _, err := svc.Create(ctx, "rws", jackpottest.RWSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const n = 30
	const rws = "rws-mlp-csp-v2"
	for i := range n {
		dealt := jackpottest.T0.Add(time.Duration(n-i) * time.Millisecond) // the last reported was dealt first
		r := jackpottest.RoundOf(rws, fmt.Sprintf("T%02d", i), "r1", dealt, 500, []int{1, 2, 3}, jackpottest.StraightFlush(rws, 1, 1, 500))
		if res, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil || res.Payouts[0].Status != "held" {
			t.Fatalf("round %d: %+v %v", i, res.Payouts, err)
		}
	}
	before, err := svc.Get(ctx, "rws")
	if err != nil {
		t.Fatal(err)
	}
	// 30 rounds of 3 x 500 at 17.33%: 30 x 2,599,500 / 10,000 = 7,798.5.
	if before.Meters.Displayed != 10_007_798 || len(before.Held) != n {
		t.Fatalf("before the window closes: %+v held %d", before.Meters, len(before.Held))
	}
	clock.Advance(3 * time.Second)
	after := jackpottest.RoundOf(rws, "T99", "r1", clock.Now(), 500, []int{1, 2, 3})
	if _, _, err := svc.ApplyRound(ctx, "rws", after, "", ""); err != nil {
		t.Fatal(err)
	}
	es, err := allEntries(ctx, st, "rws")
	if err != nil {
		t.Fatal(err)
	}
	pool := before.Meters.Displayed
	var paid []string
	contributedAt := -1
	for i, e := range es {
		if e.Seq <= before.Seq {
			continue
		}
		switch e.Kind {
		case jackpot.KindHit:
			want := pool / 10 // 10% of the pool as it stands, rounded down (R3)
			if e.Paid != want || contributedAt >= 0 {
				t.Fatalf("hit %d (%s) paid %d, want %d, before the contribution", len(paid), e.Table, e.Paid, want)
			}
			pool -= want
			paid = append(paid, e.Table)
		case jackpot.KindContribution:
			contributedAt = i
		}
	}
	if len(paid) != n {
		t.Fatalf("%d of %d due hits paid: %v", len(paid), n, paid)
	}
	for i, table := range paid {
		if want := fmt.Sprintf("T%02d", n-1-i); table != want {
			t.Fatalf("payment %d went to %s, want %s (dealt order, R7)", i, table, want)
		}
	}
	// The first is 1,000,779, the last 10% of what 29 payments left.
	if first := es[before.Seq].Paid; first != 1_000_779 {
		t.Fatalf("the first payment %d, want 1,000,779", first)
	}
	p, _ := svc.Get(ctx, "rws")
	if p.Meters.Displayed != pool+260 || len(p.Held) != 0 {
		t.Fatalf("after: displayed %d, want %d + the round's 260; held %d", p.Meters.Displayed, pool, len(p.Held))
	}
	jackpottest.MustReconcile(t, svc, "rws")
}

// HeldRoyal builds what a store's held index is checked with (its
// TestHeldIndex): two RWS pools with a 5 s settle window, "rws" and
// "quiet", and at T0 a Royal on rws, held until T0+5s (ruling R7). It
// returns the service on its clock, at T0.
func HeldRoyal(t testing.TB, st pools.Store) (*pools.Service, *jackpottest.Clock) {
	t.Helper()
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	s := jackpottest.RWSSettings()
	s.SettleWindowMS = 5000
	for _, id := range []string{"rws", "quiet"} {
		if _, _, err := svc.Create(ctx, id, s, jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	const rws = "rws-mlp-csp-v2"
	r := jackpottest.RoundOf(rws, "T1", "r1", jackpottest.T0, 500, []int{1}, jackpottest.Royal(rws, 1, 1, 500))
	if _, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil {
		t.Fatal(err)
	}
	return svc, clock
}
