package poolstest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// The approvals of dual control (issue 16 item 3): a proposal is applied
// exactly once, and checked again against the pool as it is when approved.

// testApproveExactlyOnce: issue 16 item 3, exactly once. A +50,000
// reserve adjustment proposed by the admin:
//   - two controllers approve it at once, under their own keys: one
//     applies it, the other is refused (409);
//   - its approval's commit lands and the answer is lost (the SDK's retry
//     meets its own write): answered as applied, not replayed; the
//     operator's retry under the key answers the first answer (replayed,
//     the same version); a commit that failed before writing answers 503
//     and its retry applies it once.
//
// The reserve is exactly 50,000 per approved proposal, the ledger one
// adjustment each naming both principals.
func testApproveExactlyOnce(t *testing.T, st pools.Store) {
	ctx := context.Background()
	var failAfter, failBefore atomic.Bool
	f := &Faulty{Store: st, Fail: func(int64) (bool, bool) { return failBefore.Swap(false), failAfter.Swap(false) }}
	svc := service(f, jackpottest.NewClock(jackpottest.T0))
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	adj := jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &jackpot.Adjustment{Meter: "reserve", Amount: 50_000, Reason: "top-up"}}
	propose := func(key string) jackpot.Proposal {
		t.Helper()
		_, pr, _, err := svc.Propose(ctx, "p", adj, jackpottest.Admin, key)
		if err != nil {
			t.Fatal(err)
		}
		return pr
	}
	t.Run("two controllers at once", func(t *testing.T) {
		pr := propose("x-1")
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, by := range []jackpot.Actor{jackpottest.Controller, Controller2} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, errs[i] = svc.Approve(ctx, "p", pr.ID, by, "x-ok-"+by.ID)
			}()
		}
		wg.Wait()
		ok, refused := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case fault.KindOf(err) == fault.Conflict:
				refused++
			default:
				t.Fatalf("approval: %v", err)
			}
		}
		if ok != 1 || refused != 1 {
			t.Fatalf("applied %d, refused %d: %v", ok, refused, errs)
		}
		if m := meters(t, svc, "p"); m.Reserve != 50_000 {
			t.Fatalf("reserve %d, want 50,000", m.Reserve)
		}
	})
	t.Run("the answer lost after the commit", func(t *testing.T) {
		pr := propose("x-2")
		failAfter.Store(true)
		first, replayed, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "x-ok-2")
		if err != nil || replayed || first.Pool.Meters.Reserve != 100_000 {
			t.Fatalf("approval whose answer was lost: %v replayed %v reserve %d; want applied, 100,000", err, replayed, first.Pool.Meters.Reserve)
		}
		again, replayed, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "x-ok-2")
		if err != nil || !replayed || again.Pool.Version != first.Pool.Version || again.Pool.Meters.Reserve != 100_000 || again.Proposal.State != jackpot.ProposalApproved {
			t.Fatalf("the operator's retry: %v replayed %v %+v", err, replayed, again.Proposal)
		}
		if _, _, err := svc.Approve(ctx, "p", pr.ID, Controller2, "x-ok-2"); fault.KindOf(err) != fault.Conflict {
			t.Fatalf("the key with another approver: %v, want 409", err)
		}
	})
	t.Run("the commit failed before writing", func(t *testing.T) {
		pr := propose("x-3")
		failBefore.Store(true)
		if _, _, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "x-ok-3"); fault.KindOf(err) != fault.Unavailable {
			t.Fatalf("a failed commit: %v, want 503", err)
		}
		if m := meters(t, svc, "p"); m.Reserve != 100_000 {
			t.Fatalf("a failed commit moved the reserve: %d", m.Reserve)
		}
		out, replayed, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "x-ok-3")
		if err != nil || replayed || out.Pool.Meters.Reserve != 150_000 {
			t.Fatalf("the retry: %v replayed %v reserve %d", err, replayed, out.Pool.Meters.Reserve)
		}
	})
	es, _ := allEntries(ctx, st, "p")
	n := 0
	for _, e := range es {
		if e.Kind == jackpot.KindAdjustment {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("%d adjustments, want 3", n)
	}
	jackpottest.MustReconcile(t, svc, "p")
	everyMoveSigned(t, st, "p")
}

// testApprovalAfterThePoolChanged: issue 16 item 3 with issue 13. A
// proposal is checked again when it is approved, against the pool as it
// is then, and refused (409, nothing moves) when its change no longer
// applies:
//   - a void of the pending Royal (10,000,259) approved after a supervisor
//     confirmed it, and after the cage paid it;
//   - a -77 reserve adjustment approved after the reserve's 77 funded a
//     reset (R21): reserve 0;
//
// the proposal stays open for nothing: it can be withdrawn. Two settings
// changes proposed together both take effect, the second on the first
// (pending: unit 1,000 and reset 20,000,000). A proposal approved just
// before it expires applies (+1 on the reserve).
func testApprovalAfterThePoolChanged(t *testing.T, st pools.Store) {
	ctx := tableCtx()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	if _, _, err := svc.Create(ctx, "p", LockedSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	seq := applyAs(ctx, t, svc, "p", lockRound("T1", "r1", true)).Payouts[0].Seq
	_, void, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: seq, Reason: "misread"}}, jackpottest.Supervisor, "a-1")
	if err != nil {
		t.Fatal(err)
	}
	before := meters(t, svc, "p")
	if before.Displayed != 10_000_000 || before.Reserve != 0 || before.HouseFunded != 19_999_923 || before.Hits["royal_flush"].Paid != 10_000_259 {
		t.Fatalf("after the Royal: %+v", before)
	}
	if _, _, _, err := svc.Confirm(ctx, "p", seq, jackpottest.Supervisor, "a-c"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Approve(ctx, "p", void.ID, jackpottest.Controller, "a-ok-1"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("the void approved after the confirmation: %v, want 409", err)
	}
	if _, _, _, err := svc.MarkPaid(ctx, "p", seq, jackpottest.Cage, "a-p"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Approve(ctx, "p", void.ID, jackpottest.Controller, "a-ok-2"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("the void approved after the payment: %v, want 409", err)
	}
	sameMeters(t, "refused approvals move nothing", meters(t, svc, "p"), before)
	if m := meters(t, svc, "p"); m.HouseFunded != 19_999_923 || m.Hits["royal_flush"].Paid != 10_000_259 {
		t.Fatalf("after the refused void: %+v", m)
	}
	if _, _, _, err := svc.Withdraw(ctx, "p", void.ID, jackpottest.Supervisor, "a-w"); err != nil {
		t.Fatalf("withdraw the void that no longer applies: %v", err)
	}
	// The reserve: 77 from round r2, proposed back out, then spent by r3's Royal's reset.
	applyAs(ctx, t, svc, "p", lockRound("T1", "r2", false))
	if m := meters(t, svc, "p"); m.Reserve != 78 {
		// 77.55 + 0.55 carried: 155.10 - 77 = 78.
		t.Fatalf("reserve after r2: %d, want 78", m.Reserve)
	}
	_, neg, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &jackpot.Adjustment{Meter: "reserve", Amount: -78, Reason: "return to finance"}}, jackpottest.Admin, "a-2")
	if err != nil {
		t.Fatal(err)
	}
	applyAs(ctx, t, svc, "p", lockRound("T1", "r3", true))
	spent := meters(t, svc, "p")
	if spent.Reserve != 0 {
		t.Fatalf("the reset spent the reserve: %d", spent.Reserve)
	}
	if _, _, err := svc.Approve(ctx, "p", neg.ID, jackpottest.Controller, "a-ok-3"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("an adjustment that would take the reserve to -78: %v, want 409", err)
	}
	sameMeters(t, "a refused adjustment moves nothing", meters(t, svc, "p"), spent)
	// Two settings changes pending at once.
	unit, reset := money.Amount(1000), money.Amount(20_000_000)
	_, s1, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeSettings, Settings: &jackpot.SettingsProposal{Patch: jackpot.SettingsPatch{Unit: &unit}, Reason: "unit"}}, jackpottest.Admin, "a-s1")
	if err != nil {
		t.Fatal(err)
	}
	_, s2, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeSettings, Settings: &jackpot.SettingsProposal{Patch: jackpot.SettingsPatch{Reset: &reset}, Reason: "reset"}}, jackpottest.Admin, "a-s2")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{s2.ID, s1.ID} {
		if _, _, err := svc.Approve(ctx, "p", id, jackpottest.Controller, fmt.Sprint("a-ok-s", id)); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := svc.Get(ctx, "p")
	if p.Pending == nil || p.Pending.Settings.Unit != 1000 || p.Pending.Settings.Reset != 20_000_000 || p.Settings.Unit != 500 || p.Settings.Reset != 10_000_000 ||
		p.Pending.ApprovedBy == nil || *p.Pending.ApprovedBy != jackpottest.Controller {
		t.Fatalf("two settings changes: pending %+v, settings unit %d reset %d", p.Pending, p.Settings.Unit, p.Settings.Reset)
	}
	// Expiry at the boundary: 1 ms before it, the approval applies.
	_, last, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &jackpot.Adjustment{Meter: "reserve", Amount: 1, Reason: "one cent"}}, jackpottest.Admin, "a-3")
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(30*time.Minute - time.Millisecond)
	if out, _, err := svc.Approve(ctx, "p", last.ID, jackpottest.Controller, "a-ok-4"); err != nil || out.Pool.Meters.Reserve != 1 {
		t.Fatalf("approved 1 ms before it expires: %v", err)
	}
	jackpottest.MustReconcile(t, svc, "p")
	everyMoveSigned(t, st, "p")
}
