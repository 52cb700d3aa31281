package poolstest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// The floor's contract (issue 24): what a store must let the service do
// for a floor that runs a shift.

const rws = "rws-mlp-csp-v2"

// rwsHeldRoyal creates pool "rws" (RWSSettings) at T0 and applies T1's
// round r1, whose Royal on seat 1 is held for its 3 s window (R7).
func rwsHeldRoyal(t *testing.T, st pools.Store) (*pools.Service, *jackpottest.Clock) {
	t.Helper()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if _, _, err := svc.Create(context.Background(), "rws", jackpottest.RWSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	apply(t, svc, "rws", jackpottest.RoundOf(rws, "T1", "r1", jackpottest.T0, 500, []int{1}, jackpottest.Royal(rws, 1, 1, 500)))
	return svc, clock
}

// testFloorHeldReleasedOnRead: an RWS Royal held for its 3 s window (R7)
// is listed held, then paid by the reads that find its window closed:
// eight readers race, the store's conditional commit lets one of them pay
// it, once, as the service's clock: 1 x 500 x 17.33% = 86 credited, the
// Royal SGD 100,000.86 (R3, R21).
func testFloorHeldReleasedOnRead(t *testing.T, st pools.Store) {
	defer sameHitHistory(t, st, "rws")
	defer sameInstants(t, st, "rws")
	ctx := context.Background()
	svc, clock := rwsHeldRoyal(t, st)
	p, err := svc.Fresh(ctx, "rws")
	if err != nil {
		t.Fatal(err)
	}
	open := jackpot.OpenHits(p, "", clock.Now())
	if len(open) != 1 || open[0].State != jackpot.StateHeld || open[0].WindowClosesAt == nil || !open[0].WindowClosesAt.Equal(jackpottest.T0.Add(3*time.Second)) {
		t.Fatalf("held: %+v", open)
	}
	clock.Advance(3 * time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := svc.Fresh(ctx, "rws"); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	p, err = svc.Get(ctx, "rws")
	if err != nil {
		t.Fatal(err)
	}
	es, err := svc.Ledger(ctx, "rws", 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	hits := jackpot.AllHits(p, es, "", 0, clock.Now())
	if len(p.Held) != 0 || len(hits) != 1 || hits[0].State != jackpot.StatePaid || hits[0].Amount == nil || *hits[0].Amount != 10_000_086 || hits[0].HeldSeq != open[0].Seq {
		t.Fatalf("after the window: held %d, hits %+v", len(p.Held), hits)
	}
	n := 0
	for _, e := range es {
		if e.Kind == jackpot.KindHit {
			n++
			if e.Actor == nil || *e.Actor != pools.Clock {
				t.Errorf("paid as %+v, want the service's clock", e.Actor)
			}
		}
	}
	if n != 1 || p.Meters.Displayed != 10_000_000 {
		t.Fatalf("%d payments, displayed %d", n, p.Meters.Displayed)
	}
}

// testFloorUnlinkedTableWritesNothing: a round of a table the pool does
// not link is refused (Forbidden, naming the table) and the store holds
// the pool and its ledger as they were.
func testFloorUnlinkedTableWritesNothing(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc := pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)
	s := jackpottest.MBSSettings()
	s.Tables = []string{"T1"}
	if _, _, err := svc.Create(ctx, "p", s, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	before, _ := svc.Get(ctx, "p")
	_, _, err := svc.ApplyRound(ctx, "p", lockRound("T2", "r1", true), "", "")
	if e, ok := fault.As(err); !ok || e.Kind != fault.Forbidden || e.Field() != jackpot.FieldTable {
		t.Fatalf("unlinked T2: %v", err)
	}
	// A round without a hit too (a store that commits such rounds beside
	// the pool refuses it as the pool would).
	_, _, err = svc.ApplyRound(ctx, "p", lockRound("T2", "r2", false), "", "")
	if e, ok := fault.As(err); !ok || e.Kind != fault.Forbidden || e.Field() != jackpot.FieldTable {
		t.Fatalf("unlinked T2, no hit: %v", err)
	}
	if _, err := st.Record(ctx, "p", jackpot.RoundKey("T2", "r2")); !errors.Is(err, jackpot.ErrNotFound) {
		t.Fatalf("the refused round has a record: %v", err)
	}
	after, _ := svc.Get(ctx, "p")
	es, _ := svc.Ledger(ctx, "p", 0, 100)
	if after.Version != before.Version || len(es) != 1 || after.Meters.Displayed != 10_000_000 {
		t.Fatalf("a refused round wrote: version %d -> %d, %d entries", before.Version, after.Version, len(es))
	}
	apply(t, svc, "p", lockRound("T1", "r1", false))
}

// testFloorOneOpenVoidPerHit: a second open void of one pending Royal is
// refused (Conflict naming the open proposal), so is the same adjustment
// proposed twice by one admin under two keys; withdrawn, the void may be
// proposed again; approved, the Royal's last-hit record says voided.
func testFloorOneOpenVoidPerHit(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc := pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)
	if _, _, err := svc.Create(ctx, "p", LockedSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	res := apply(t, svc, "p", lockRound("T1", "r1", true))
	seq := res.Payouts[0].Seq
	void := jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: seq, Reason: "misread"}}
	_, first, _, err := svc.Propose(ctx, "p", void, jackpottest.Supervisor, "v1")
	if err != nil {
		t.Fatal(err)
	}
	other := jackpot.Actor{ID: "sup:ben", Role: "supervisor"}
	_, _, _, err = svc.Propose(ctx, "p", void, other, "v2")
	if e, ok := fault.As(err); !ok || e.Kind != fault.Conflict || e.Field() != "path.seq" || e.Fields[0].Value != first.ID {
		t.Fatalf("a second void: %v", err)
	}
	adj := jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &jackpot.Adjustment{Meter: "reserve", Amount: 50_000, Reason: "top-up"}}
	_, a1, _, err := svc.Propose(ctx, "p", adj, jackpottest.Admin, "a1")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := svc.Propose(ctx, "p", adj, jackpottest.Admin, "a2"); fault.KindOf(err) != fault.Conflict || err.(*fault.Error).Fields[0].Value != a1.ID {
		t.Fatalf("the same adjustment twice: %v", err)
	}
	if _, _, _, err := svc.Withdraw(ctx, "p", first.ID, jackpottest.Supervisor, "w1"); err != nil {
		t.Fatal(err)
	}
	_, again, _, err := svc.Propose(ctx, "p", void, other, "v3")
	if err != nil {
		t.Fatalf("void after the withdrawal: %v", err)
	}
	if _, _, err := svc.Approve(ctx, "p", again.ID, jackpottest.Controller, "ap"); err != nil {
		t.Fatal(err)
	}
	p, _ := svc.Get(ctx, "p")
	for _, h := range p.LastHits {
		if h.Seq == seq {
			if state, paidAt, voidedAt := p.LastHitState(h); state != jackpot.StateVoided || paidAt != nil || voidedAt == nil {
				t.Fatalf("the voided Royal: %s %v %v", state, paidAt, voidedAt)
			}
			return
		}
	}
	t.Fatalf("the Royal is not in lastHits: %+v", p.LastHits)
}

// testFloorAcknowledgeAndAmountNow (issue 35 items 3 and 8): an RWS Royal
// held for its 3 s window (R7) lists what it would be paid now, from the
// pool as it stands (R21): SGD 100,000.86 after its own round (1 x 500 x
// 17.33% = 86, carry .65), SGD 100,001.73 after a second round at T2
// (86.65 + .65 carried = 87). A supervisor acknowledges its alert: the hit
// names her, one hit_acknowledged entry names her and moves nothing; the
// cage acknowledging it again changes nothing and writes nothing. A pending
// Royal under the lock is acknowledged the same way; a hit that does not
// wait is NotFound. Paid at its window's close, the held Royal is paid the
// amount it last showed.
func testFloorAcknowledgeAndAmountNow(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc, clock := rwsHeldRoyal(t, st)
	openHits := func() []jackpot.FloorHit {
		t.Helper()
		p, err := svc.Fresh(ctx, "rws")
		if err != nil {
			t.Fatal(err)
		}
		hs, err := svc.Hits(ctx, p, "open", "", 100)
		if err != nil {
			t.Fatal(err)
		}
		return hs
	}
	hs := openHits()
	if len(hs) != 1 || hs[0].State != jackpot.StateHeld || hs[0].Amount != nil || hs[0].AmountNow == nil || *hs[0].AmountNow != 10_000_086 {
		t.Fatalf("held Royal, what it would be paid now: %+v", hs)
	}
	seq := hs[0].Seq
	apply(t, svc, "rws", jackpottest.RoundOf(rws, "T2", "r1", jackpottest.T0, 500, []int{1}))
	if hs = openHits(); len(hs) != 1 || hs[0].AmountNow == nil || *hs[0].AmountNow != 10_000_173 {
		t.Fatalf("after T2's round, the held Royal would be paid 10,000,173 now: %+v", hs)
	}
	p, _ := svc.Get(ctx, "rws")
	if d := svc.Rules().Display(p, clock.Now()); len(d.Hits) != 1 || d.Hits[0].AmountNow == nil || *d.Hits[0].AmountNow != 10_000_173 {
		t.Fatalf("the sign's held hit: %+v", d.Hits)
	}
	if _, _, err := svc.Acknowledge(ctx, "rws", seq, jackpot.Actor{}); fault.KindOf(err) != fault.Unauthenticated {
		t.Fatalf("an acknowledgement without a principal: %v", err)
	}
	clock.Advance(time.Second)
	_, h, err := svc.Acknowledge(ctx, "rws", seq, jackpottest.Supervisor)
	if err != nil || h.Acknowledged == nil || h.Acknowledged.By != jackpottest.Supervisor || !h.Acknowledged.At.Equal(jackpottest.T0.Add(time.Second)) || h.AmountNow == nil || *h.AmountNow != 10_000_173 {
		t.Fatalf("acknowledged: %+v %v", h, err)
	}
	before, _ := svc.Get(ctx, "rws")
	if _, h, err = svc.Acknowledge(ctx, "rws", seq, jackpottest.Cage); err != nil || h.Acknowledged.By != jackpottest.Supervisor {
		t.Fatalf("a second acknowledgement keeps the first: %+v %v", h, err)
	}
	if after, _ := svc.Get(ctx, "rws"); after.Version != before.Version || after.Seq != before.Seq {
		t.Fatalf("a second acknowledgement wrote: version %d -> %d", before.Version, after.Version)
	}
	if hs = openHits(); hs[0].Acknowledged == nil || hs[0].Acknowledged.By != jackpottest.Supervisor {
		t.Fatalf("the queue names who acknowledged: %+v", hs)
	}
	es, err := svc.Ledger(ctx, "rws", 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var acks []jackpot.Entry
	for _, e := range es {
		if e.Kind == jackpot.KindHitAcknowledged {
			acks = append(acks, e)
		}
	}
	if len(acks) != 1 || acks[0].HitSeq != seq || acks[0].Actor == nil || *acks[0].Actor != jackpottest.Supervisor || acks[0].Table != "T1" ||
		acks[0].Displayed != 0 || acks[0].Reserve != 0 || acks[0].Overflow != 0 || acks[0].Paid != 0 || len(acks[0].Rules) == 0 {
		t.Fatalf("the acknowledgement's entry: %+v", acks)
	}
	if _, _, err := svc.Acknowledge(ctx, "rws", 999, jackpottest.Supervisor); fault.KindOf(err) != fault.NotFound {
		t.Fatalf("no such waiting hit: %v", err)
	}
	clock.Advance(2 * time.Second)
	if hs = openHits(); len(hs) != 0 {
		t.Fatalf("the window closed: %+v", hs)
	}
	p, _ = svc.Get(ctx, "rws")
	if len(p.LastHits) != 1 || p.LastHits[0].Paid != 10_000_173 {
		t.Fatalf("paid the amount it last showed: %+v", p.LastHits)
	}
	if r, err := svc.Reconcile(ctx, "rws"); err != nil || !r.OK {
		t.Fatalf("the acknowledgement is in a ledger that reconciles: %+v %v", r, err)
	}

	if _, _, err := svc.Create(ctx, "p", LockedSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	res := apply(t, svc, "p", lockRound("T1", "r1", true))
	if _, h, err = svc.Acknowledge(ctx, "p", res.Payouts[0].Seq, jackpottest.Cage); err != nil || h.State != jackpot.StatePending || h.Acknowledged == nil || h.Acknowledged.By != jackpottest.Cage {
		t.Fatalf("a pending Royal acknowledged: %+v %v", h, err)
	}
}

// testFloorSilentTable (issue 35 item 7): a pool linking T1, T2 and T3;
// T1 deals at T0 and T0+9m, T2 at T0+1m, T3 never. At T0+10m with
// silentAfter 5m, T2 (last round 9 minutes ago) and T3 (none since the
// pool opened 10 minutes ago) are silent while T1 deals; with silentAfter
// 15m nobody is. When no table has dealt
// within silentAfter, no table is flagged (the floor is closed, not a
// table).
func testFloorSilentTable(t *testing.T, st pools.Store) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	s := jackpottest.MBSSettings()
	s.Tables = []string{"T1", "T2", "T3"}
	if _, _, err := svc.Create(ctx, "p", s, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	apply(t, svc, "p", lockRound("T1", "r1", false))
	clock.Advance(time.Minute)
	apply(t, svc, "p", lockRound("T2", "r1", false))
	clock.Advance(8 * time.Minute)
	apply(t, svc, "p", lockRound("T1", "r2", false))
	clock.Advance(time.Minute)
	// Table health reads the ledger: rounds committed beside the pool
	// (contribution shards) count once folded, within seconds (issue 34:
	// reads never fold, docs/scale.md).
	got, err := foldThen(t, svc, "p").Tables(ctx, "p", 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	at := func(d time.Duration) string { return jackpottest.T0.Add(d).Format(time.RFC3339) }
	show := func(hs []pools.TableHealth) string {
		out := ""
		for _, h := range hs {
			when := "-"
			if h.LastRoundAt != nil {
				when = h.LastRoundAt.Format(time.RFC3339)
			}
			out += fmt.Sprintf("%s %s %s %v; ", h.Table, h.LastRound, when, h.Silent)
		}
		return out
	}
	want := "T1 r2 " + at(9*time.Minute) + " false; T2 r1 " + at(time.Minute) + " true; T3  - true; "
	if s := show(got.Tables); s != want || got.SilentAfter != 300 {
		t.Fatalf("silentAfter 5m:\n got %s\nwant %s", s, want)
	}
	got, _ = svc.Tables(ctx, "p", 15*time.Minute)
	if s := show(got.Tables); s != "T1 r2 "+at(9*time.Minute)+" false; T2 r1 "+at(time.Minute)+" false; T3  - false; " {
		t.Fatalf("silentAfter 15m: %s", s)
	}
	clock.Advance(time.Hour)
	got, _ = svc.Tables(ctx, "p", 5*time.Minute)
	for _, h := range got.Tables {
		if h.Silent {
			t.Fatalf("no table deals: none is flagged: %s", show(got.Tables))
		}
	}
	if _, err := svc.Tables(ctx, "p", 0); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("silentAfter 0: %v", err)
	}
}
