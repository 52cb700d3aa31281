package pools_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// heldRWSPool is a SQLite store with the RWS pool "rws" (a settle window
// of 5 s, ruling R7) opened on it at jackpottest.T0, and the service over
// it on a test clock.
func heldRWSPool(t *testing.T) (*sqlite.Store, *pools.Service, *jackpottest.Clock) {
	t.Helper()
	st, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	s := jackpottest.RWSSettings()
	s.SettleWindowMS = 5000
	if _, _, err := svc.Create(context.Background(), "rws", s, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	return st, svc, clock
}

// TestSweepHeldPaysWithNoReader (issue 24 item 3, ruling R7): the local
// server's sweep pays a held RWS Royal once its window has closed, with no
// read of the pool in between: 1 x 500 x 17.33% = 86 credited, the Royal
// SGD 100,000.86, recorded as the service's clock; a second sweep writes
// nothing.
func TestSweepHeldPaysWithNoReader(t *testing.T) {
	_, svc, clock := heldRWSPool(t)
	ctx := context.Background()
	r := jackpottest.RoundOf("rws-mlp-csp-v2", "T1", "r1", jackpottest.T0, 500, []int{1}, jackpottest.Royal("rws-mlp-csp-v2", 1, 1, 500))
	if _, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil {
		t.Fatal(err)
	}
	clock.Advance(5 * time.Second)
	rel, err := svc.SweepHeld(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rel) != 1 || rel[0].Pool != "rws" || rel[0].Currency != "SGD" || len(rel[0].Paid) != 1 ||
		rel[0].Paid[0].Amount != 10_000_086 || rel[0].Paid[0].Table != "T1" || rel[0].Paid[0].Round != "r1" || rel[0].Paid[0].Seat != 1 {
		t.Fatalf("the sweep says it paid %+v, want the Royal of T1/r1 seat 1, SGD 100,000.86", rel)
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
	if rel, err := svc.SweepHeld(ctx); err != nil || len(rel) != 0 {
		t.Fatalf("a second sweep: %+v, %v", rel, err)
	}
	if p, _ := svc.Get(ctx, "rws"); p.Version != v {
		t.Fatalf("a second sweep wrote: version %d, was %d", p.Version, v)
	}
}

// withIndex is a store wrapped for a test (which hides its held index)
// with the index of the store it wraps.
type withIndex struct {
	pools.Store
	pools.HeldIndex
}

// TestSweepHeldFindsDuePoolsThroughTheIndex (ruling R7): a service that
// has never seen the pool (a scheduled Lambda's, started after the round,
// or serve restarted) finds the held Royal through the store's index (the
// SQLite store's held_due) once its window has closed, and pays it,
// SGD 100,000.86, once; before the window closes it pays nothing.
func TestSweepHeldFindsDuePoolsThroughTheIndex(t *testing.T) {
	st, tables, clock := heldRWSPool(t)
	ctx := context.Background()
	r := jackpottest.RoundOf("rws-mlp-csp-v2", "T1", "r1", jackpottest.T0, 500, []int{1}, jackpottest.Royal("rws-mlp-csp-v2", 1, 1, 500))
	if _, _, err := tables.ApplyRound(ctx, "rws", r, "", ""); err != nil {
		t.Fatal(err)
	}
	sweep := pools.NewService(st, clock.Now, 2)
	clock.Advance(4999 * time.Millisecond)
	if rel, err := sweep.SweepHeld(ctx); err != nil || len(rel) != 0 {
		t.Fatalf("1 ms before the window closes: %+v, %v", rel, err)
	}
	clock.Advance(time.Millisecond)
	rel, err := sweep.SweepHeld(ctx)
	if err != nil || len(rel) != 1 || len(rel[0].Paid) != 1 || rel[0].Paid[0].Amount != 10_000_086 {
		t.Fatalf("at the window's close: %+v, %v; want the Royal paid, SGD 100,000.86", rel, err)
	}
	if rel, err := sweep.SweepHeld(ctx); err != nil || len(rel) != 0 {
		t.Fatalf("again: %+v, %v", rel, err)
	}
}

// TestShiftReportCorrection (issue 24 item 8, ruling R28): a round at T1
// (3 x SGD 5: 259 to the meter, 77 to the reserve) paid a Straight Flush
// 10% of SGD 100,002.59, 1,000,025, at the table; voided by a correction,
// the report lists the round's contribution under T1, the hit, and under
// corrections the reversed contribution (-336) and the house recovery
// (-1,000,025, to recover 1,000,025 from the winner), and closes with the
// meters as if the round had not been dealt.
func TestShiftReportCorrection(t *testing.T) {
	st, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	ctx := context.Background()
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	const ssp = "mbs-megalink-ssp-v6"
	r := jackpottest.RoundOf(ssp, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3}, jackpottest.StraightFlush(ssp, 2, 2, 500))
	res, _, err := svc.ApplyRound(ctx, "p", r, "", "")
	if err != nil || len(res.Payouts) != 1 || res.Payouts[0].Amount != 1_000_025 {
		t.Fatalf("round: %+v %v", res.Payouts, err)
	}
	clock.Advance(time.Minute)
	corr := jackpot.Correction{Table: "T1", Round: "r1", Reason: "two cards exposed", Rules: []string{ssp + " 5.4"}}
	if _, _, err := svc.Correct(ctx, "p", corr, jackpottest.Supervisor, jackpottest.Controller, "k"); err != nil {
		t.Fatal(err)
	}
	rep, err := svc.Report(ctx, "p", jackpottest.T0.Add(30*time.Second), jackpottest.T0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Contributions) != 1 || rep.Contributions[0] != (jackpot.TableContribution{Table: "T1", Rounds: 1, Wagers: 3, WagerAmount: 1500, Displayed: 259, Reserve: 77}) {
		t.Fatalf("contributions: %+v", rep.Contributions)
	}
	if len(rep.Hits) != 1 || rep.Hits[0].Hand != "straight_flush" || *rep.Hits[0].Amount != 1_000_025 || rep.Hits[0].State != jackpot.StateVoided {
		t.Fatalf("hits: %+v", rep.Hits)
	}
	got := map[jackpot.Kind]jackpot.ReportEntry{}
	for _, e := range rep.Corrections {
		got[e.Kind] = e
	}
	if c := got[jackpot.KindContribution]; c.Amount != -336 || c.Table != "T1" {
		t.Fatalf("the reversed contribution: %+v", rep.Corrections)
	}
	if h := got[jackpot.KindHouseRecovery]; h.Amount != -1_000_025 || h.Recovered != 1_000_025 || h.ApprovedBy == nil {
		t.Fatalf("the house recovery: %+v", rep.Corrections)
	}
	if rep.Opening != rep.Closing || rep.Opening != (jackpot.MeterView{Displayed: 10_000_000}) || rep.Liabilities.Total != 0 {
		t.Fatalf("meters %+v -> %+v, liabilities %+v", rep.Opening, rep.Closing, rep.Liabilities)
	}
}

// failSecondCommit is a store whose second commit fails (a store that went
// away mid-sweep).
type failSecondCommit struct {
	pools.Store
	commits int
}

func (f *failSecondCommit) Commit(ctx context.Context, c jackpot.Commit) error {
	if f.commits++; f.commits == 2 {
		return errors.New("store unreachable")
	}
	return f.Store.Commit(ctx, c)
}

// TestSweepHeldSaysWhatItPaidBeforeAFailure (ruling R7): 21 held Royals
// due in one pool take two commits (at most jackpot.MaxReleasedPerCommit,
// 20, per commit); when the second fails, the sweep returns the error and
// still the 20 it paid, the first SGD 100,018.19 (the reset, 100,000.00,
// and 21 rounds' 21 x 500 x 17.33% = 1,819.65, the .65 carried), so that
// its caller can log them; the 21st stays held.
func TestSweepHeldSaysWhatItPaidBeforeAFailure(t *testing.T) {
	st, svc, clock := heldRWSPool(t)
	ctx := context.Background()
	for i := range jackpot.MaxReleasedPerCommit + 1 {
		r := jackpottest.RoundOf("rws-mlp-csp-v2", fmt.Sprintf("T%d", i+1), "r1", jackpottest.T0, 500, []int{1}, jackpottest.Royal("rws-mlp-csp-v2", 1, 1, 500))
		if _, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(5 * time.Second)
	sweep := pools.NewService(withIndex{&failSecondCommit{Store: st}, st}, clock.Now, 2)
	sweep.MaxAttempts = 1
	rel, err := sweep.SweepHeld(ctx)
	if err == nil {
		t.Fatal("no error from a sweep whose second commit failed")
	}
	if len(rel) != 1 || rel[0].Pool != "rws" || rel[0].Currency != "SGD" || len(rel[0].Paid) != jackpot.MaxReleasedPerCommit || rel[0].Paid[0].Amount != 10_001_819 {
		t.Fatalf("the sweep says it paid %+v, want the first 20 Royals, the first SGD 100,018.19", rel)
	}
	if p, _ := svc.Get(ctx, "rws"); len(p.Held) != 1 {
		t.Fatalf("%d still held, want 1", len(p.Held))
	}
}
