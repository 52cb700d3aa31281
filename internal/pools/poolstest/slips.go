package poolstest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// testSlipSerials: issue 35 item 6. Six Straight Flushes paid at their
// commit (MBS, no lock). A slip has no serial until first printed; the
// first print of hit A takes serial 1, of B serial 2; A printed again is
// REPRINT 1 with serial 1, recorded with who printed it; the same
// Idempotency-Key again prints nothing more. Then the slips of four more
// hits are printed by eight writers at once, each twice: their originals
// take serials 3 to 6, each once (gapless: a print that loses the race
// takes no serial), each hit one original and one REPRINT 1. Every print
// is a ledger entry that moves no money. 404 for no such hit.
func testSlipSerials(t *testing.T, st pools.Store) {
	ctx, clock, svc := mbsPool(t, st)
	defer sameInstants(t, st, "p")
	var hits []int64
	for i := range 6 {
		clock.Advance(time.Second)
		res := apply(t, svc, "p", jackpottest.RoundOf(ssp, "T1", fmt.Sprint("r", i), clock.Now(), 500, []int{1}, jackpottest.StraightFlush(ssp, 1, 1, 500)))
		if len(res.Payouts) != 1 || res.Payouts[0].Status != jackpot.StatePaid {
			t.Fatalf("round %d: %+v", i, res.Payouts)
		}
		hits = append(hits, res.Payouts[0].Seq)
	}
	a, b := hits[0], hits[1]
	if sl, err := svc.Slip(ctx, "p", a); err != nil || sl.Serial != 0 || len(sl.Prints) != 0 {
		t.Fatalf("before any print: %+v %v", sl, err)
	}
	clock.Advance(time.Second)
	sl, pr, replayed, err := svc.PrintSlip(ctx, "p", a, jackpottest.Cage, "print-a")
	if err != nil || replayed || pr.Serial != 1 || pr.Print != 1 || pr.Mark != "" || pr.By != jackpottest.Cage || sl.Serial != 1 || len(sl.Prints) != 1 {
		t.Fatalf("A's original: %+v %+v %v %v", sl, pr, replayed, err)
	}
	if _, again, replayed, err := svc.PrintSlip(ctx, "p", a, jackpottest.Cage, "print-a"); err != nil || !replayed || again != pr {
		t.Fatalf("the same key again: %+v %v %v", again, replayed, err)
	}
	if _, pb, _, err := svc.PrintSlip(ctx, "p", b, jackpottest.Supervisor, "print-b"); err != nil || pb.Serial != 2 || pb.Print != 1 {
		t.Fatalf("B's original: %+v %v", pb, err)
	}
	cage2 := jackpot.Actor{ID: "cage:cy", Role: "cage"}
	sl, re, _, err := svc.PrintSlip(ctx, "p", a, cage2, "reprint-a")
	if err != nil || re.Serial != 1 || re.Print != 2 || re.Mark != "REPRINT 1" || re.By != cage2 || len(sl.Prints) != 2 || sl.Prints[0] != pr || sl.Prints[1] != re {
		t.Fatalf("A's reprint: %+v %+v %v", sl, re, err)
	}
	if _, _, _, err := svc.PrintSlip(ctx, "p", 999, jackpottest.Cage, "nope"); fault.KindOf(err) != fault.NotFound {
		t.Fatalf("no such hit: %v", err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			by := jackpot.Actor{ID: fmt.Sprint("cage:w", w), Role: "cage"}
			if _, _, _, err := svc.PrintSlip(ctx, "p", hits[2+w%4], by, fmt.Sprint("w", w)); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var serials []int64
	for _, h := range hits[2:] {
		sl, err := svc.Slip(ctx, "p", h)
		if err != nil || len(sl.Prints) != 2 || sl.Prints[0].Mark != "" || sl.Prints[1].Mark != "REPRINT 1" || sl.Prints[1].Serial != sl.Serial {
			t.Fatalf("hit %d: %+v %v", h, sl, err)
		}
		serials = append(serials, sl.Serial)
	}
	slices.Sort(serials)
	if fmt.Sprint(serials) != "[3 4 5 6]" {
		t.Fatalf("serials %v, want 3 to 6", serials)
	}
	p, err := svc.Get(ctx, "p")
	if err != nil || p.SlipSerial != 6 {
		t.Fatalf("the pool's last serial: %d %v", p.SlipSerial, err)
	}
	es, err := allEntries(ctx, st, "p")
	if err != nil {
		t.Fatal(err)
	}
	printed := 0
	for _, e := range es {
		if e.Kind == jackpot.KindSlipPrinted {
			printed++
			if e.Actor == nil || jackpot.SignedAmount(e) != 0 || e.Displayed != 0 || e.Reserve != 0 || e.Overflow != 0 || e.HouseFunded != 0 {
				t.Fatalf("print entry %+v", e)
			}
		}
	}
	if printed != 11 {
		t.Fatalf("%d prints in the ledger, want 11", printed)
	}
	jackpottest.MustReconcile(t, svc, "p")
}
