package pools_test

import (
	"context"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/filestore"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// TestSweepHeldPaysWithNoReader (issue 24 item 3, ruling R7): the local
// server's sweep pays a held RWS Royal once its window has closed, with no
// read of the pool in between: 1 x 500 x 17.33% = 86 credited, the Royal
// SGD 100,000.86, recorded as the service's clock; a second sweep writes
// nothing.
func TestSweepHeldPaysWithNoReader(t *testing.T) {
	st, err := filestore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	ctx := context.Background()
	s := jackpottest.RWSSettings()
	s.SettleWindowMS = 5000
	if _, _, err := svc.Create(ctx, "rws", s, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	r := jackpottest.RoundOf("rws-mlp-csp-v2", "T1", "r1", jackpottest.T0, 500, []int{1}, jackpottest.Royal("rws-mlp-csp-v2", 1, 1, 500))
	if _, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil {
		t.Fatal(err)
	}
	clock.Advance(5 * time.Second)
	if err := svc.SweepHeld(ctx); err != nil {
		t.Fatal(err)
	}
	p, err := svc.Get(ctx, "rws")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Held) != 0 || len(p.LastHits) != 1 || p.LastHits[0].Paid != 10_000_086 {
		t.Fatalf("after the sweep: held %d, last hits %+v", len(p.Held), p.LastHits)
	}
	es, _ := svc.Ledger(ctx, "rws", 0, 1000)
	var hit *jackpot.Entry
	for i := range es {
		if es[i].Kind == jackpot.KindHit {
			hit = &es[i]
		}
	}
	if hit == nil || hit.Actor == nil || *hit.Actor != pools.Clock {
		t.Fatalf("the payment: %+v", hit)
	}
	v := p.Version
	if err := svc.SweepHeld(ctx); err != nil {
		t.Fatal(err)
	}
	if p, _ := svc.Get(ctx, "rws"); p.Version != v {
		t.Fatalf("a second sweep wrote: version %d, was %d", p.Version, v)
	}
}
