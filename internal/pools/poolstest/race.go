package poolstest

import (
	"context"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// testContributionsRaceAHit (issue 25): writers apply rounds without a
// hit at many tables of one pool while another table's rounds hit
// Straight Flushes (10% of the pool, R3) and a Royal (100%, R3, R21).
// Whatever the interleaving, each hit is paid exactly its percentage of
// the displayed meter as the ledger stood just before it, with every
// contribution committed before it (a contribution racing a hit is in the
// hit's pool or after its reset: never both, never neither); every round
// contributed exactly once; credited x 10000 + carried == sum(wager x
// rate) exactly (R1); and the meters reconcile with the ledger.
func testContributionsRaceAHit(t *testing.T, st pools.Store, sc Scale) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	// The pool links the race's tables (issue 24: a round from a table
	// it does not link is refused): 5 per writer and the hitter.
	set := jackpottest.MBSSettings()
	set.Tables = []string{"hitter"}
	for w := range sc.Writers {
		for i := range 5 {
			set.Tables = append(set.Tables, fmt.Sprintf("table-%d-%d", w, i))
		}
	}
	if len(set.Tables) > jackpot.MaxTables {
		t.Fatalf("%d writers use %d tables: a pool links at most %d", sc.Writers, len(set.Tables), jackpot.MaxTables)
	}
	if _, _, err := svc.Create(ctx, "wide", set, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const ssp = "mbs-megalink-ssp-v6"
	perWriter := max(sc.Rounds/max(sc.Writers, 1), 10)
	var failed atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	var applied atomic.Int64
	for w := range sc.Writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				r := jackpottest.RoundOf(ssp, fmt.Sprintf("table-%d-%d", w, i%5), fmt.Sprintf("r%d", i), jackpottest.T0, 500, []int{1, 2})
				if _, _, err := svc.ApplyRound(ctx, "wide", r, "", ""); err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				applied.Add(1)
			}
		}()
	}
	const hits = 6
	wg.Add(1)
	go func() {
		defer wg.Done()
		total := int64(sc.Writers * perWriter)
		for k := range hits {
			// Spread the hits over the writers' run.
			for applied.Load() < total*int64(k+1)/(hits+1) && failed.Load() == 0 {
				_ = pools.SleepContext(ctx, 1e6)
			}
			h := jackpottest.StraightFlush(ssp, 1, 1, 500)
			if k == hits-1 {
				h = jackpottest.Royal(ssp, 1, 1, 500)
			}
			r := jackpottest.RoundOf(ssp, "hitter", fmt.Sprintf("h%d", k), jackpottest.T0, 500, []int{1}, h)
			if _, _, err := svc.ApplyRound(ctx, "wide", r, "", ""); err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
			}
		}
	}()
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Fatalf("%d rounds failed: first %v", n, firstErr.Load())
	}
	rec := jackpottest.MustReconcile(t, svc, "wide")
	rounds := sc.Writers*perWriter + hits
	LedgerHasEveryRound(t, st, "wide", rounds)
	wagers := int64(2*sc.Writers*perWriter + hits)
	if rec.Rebuilt.Wagers != wagers || rec.Rebuilt.WagerAmount != money.Amount(500*wagers) {
		t.Fatalf("wagers %d (%d), want %d", rec.Rebuilt.Wagers, rec.Rebuilt.WagerAmount, wagers)
	}
	// R1: credited x 10000 + carried == sum(wager x rate), exactly.
	got := new(big.Int).Mul(big.NewInt(int64(rec.Rebuilt.Contributed)), big.NewInt(10000))
	got.Add(got, big.NewInt(rec.Rebuilt.CarryDisplayed))
	if want := big.NewInt(500 * wagers * 1733); got.Cmp(want) != 0 {
		t.Fatalf("credited x 10000 + carried = %s, want %s", got, want)
	}
	// Each hit: its percentage of the displayed meter as the ledger
	// stood just before it (R3), the reset after the Royal (R21).
	es, err := allEntries(ctx, st, "wide")
	if err != nil {
		t.Fatal(err)
	}
	var displayed money.Amount
	paid := 0
	for _, e := range es {
		if e.Kind == jackpot.KindHit {
			bp := money.BasisPoints(1000)
			if e.Category == "royal_flush" {
				bp = 10000
			}
			share, _, _, err := jackpot.SharedPrize(displayed, jackpottest.MBSSettings().Reset, bp, 1)
			if err != nil || e.Paid != share {
				t.Fatalf("hit %d (%s %s) paid %d, want %d: %d bp of the displayed %d as it stood", e.Seq, e.Category, e.Round, e.Paid, share, bp, displayed)
			}
			paid++
		}
		displayed += e.Displayed
	}
	if paid != hits {
		t.Fatalf("%d hits in the ledger, want %d", paid, hits)
	}
	if p, err := svc.Get(ctx, "wide"); err != nil || p.Meters.Hits["royal_flush"].Count != 1 || p.Meters.Hits["straight_flush"].Count != hits-1 {
		t.Fatalf("hits %+v: %v", p.Meters.Hits, err)
	}
}
