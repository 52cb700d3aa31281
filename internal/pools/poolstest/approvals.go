package poolstest

import (
	"context"
	"fmt"
	"testing"

	"sync"
	"sync/atomic"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// The adversarial review of how money moves in the pools (issues 13 and
// 16): each test names the rule it holds the pools to, with exact amounts.

// tableCtx is a request of table T1's principal: the entries of the
// rounds it applies name it (stampActor).
func tableCtx() context.Context {
	return principal.NewContext(context.Background(), &principal.Principal{ID: "tbl:T1", Roles: []principal.Role{principal.Table}, Tables: []string{"T1"}, Acting: principal.Table})
}

// everyMoveSigned fails unless every ledger entry of pool id that moves
// money (a meter, the house's funding, a payment) names its actor, and
// every entry of an approved proposal names its approver too, another
// person (issue 16 items 2 and 3; principal.SamePerson), and every paid
// hit was paid by another person than confirmed it.
func everyMoveSigned(t *testing.T, st pools.Store, id string) {
	t.Helper()
	es, err := allEntries(context.Background(), st, id)
	if err != nil {
		t.Fatal(err)
	}
	confirmedBy := map[int64]string{}
	for _, e := range es {
		moves := e.Displayed != 0 || e.Reserve != 0 || e.Overflow != 0 || e.HouseFunded != 0 || e.Paid != 0 || e.Recovered != 0
		if moves && (e.Actor == nil || e.Actor.ID == "" || e.Actor.Role == "") {
			t.Fatalf("entry %d (%s) moves money and names no actor: %+v", e.Seq, e.Kind, e)
		}
		if e.Proposal != 0 && e.Kind != jackpot.KindProposal && e.Kind != jackpot.KindProposalExpired && e.Kind != jackpot.KindProposalWithdrawn &&
			(e.ApprovedBy == nil || e.ApprovedBy.ID == "" || principal.SamePerson(e.ApprovedBy.ID, e.Actor.ID)) {
			t.Fatalf("entry %d (%s) of proposal %d names no second person: %+v", e.Seq, e.Kind, e.Proposal, e.ApprovedBy)
		}
		if e.Kind == jackpot.KindHitConfirmed && e.Actor != nil {
			confirmedBy[e.HitSeq] = e.Actor.ID
		}
		if e.Kind == jackpot.KindHitPaid && e.Actor != nil && principal.SamePerson(confirmedBy[e.HitSeq], e.Actor.ID) {
			t.Fatalf("entry %d pays hit %d, confirmed by the same person %s", e.Seq, e.HitSeq, e.Actor.ID)
		}
	}
}

// sharedRoyals is table T1's round r1: three unit wagers, Royal Flushes on
// seats 1 and 2.
func sharedRoyals() jackpot.Round {
	r := lockRound("T1", "r1", true)
	h := jackpottest.Royal(ssp, 1, 1, 500)
	h.Cards = "Th Jh Qh Kh Ah"
	r.Hits = append([]jackpot.Hit{h}, r.Hits...)
	return r
}

// testSharedRoyalVoidedAlone: rulings R5, R21 and R28. Two Royals at one
// table in one round share (10,000,259 + 10,000,000) = 20,000,259: each
// 10,000,129, the remainder 1 stays; the pool funds 10,000,258, the extra
// reset part is the reserve's 77 and the house's 9,999,923, the reset the
// house's 10,000,000 (house funded 29,999,923; displayed 10,000,001).
//
// Defect: voiding one of the two alone returned its 10,000,129 to the
// displayed meter (20,000,130 displayed, the house's extra reset part in
// it) and left the other paid 10,000,129 of a prize it then won alone
// (10,000,259). A void of one share is refused (409) and moves nothing,
// proposed or direct; the round is corrected instead (R28): the corrected
// round with the seat-2 Royal alone pays it the whole 10,000,259, the
// reset funded by the reserve's 77 and the house's 9,999,923, displayed
// 10,000,000, house funded 19,999,923: a pool that only saw seat 2's Royal.
func testSharedRoyalVoidedAlone(t *testing.T, st pools.Store) {
	ctx := tableCtx()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	for _, id := range []string{"p", "twin"} {
		if _, _, err := svc.Create(ctx, id, LockedSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	res := applyAs(ctx, t, svc, "p", sharedRoyals())
	if len(res.Payouts) != 2 || res.Payouts[0].Amount != 10_000_129 || res.Payouts[1].Amount != 10_000_129 {
		t.Fatalf("the shared Royals: %+v", res.Payouts)
	}
	want := func(what string, displayed, reserve, house money.Amount) {
		t.Helper()
		m := meters(t, svc, "p")
		if m.Displayed != displayed || m.Reserve != reserve || m.HouseFunded != house {
			t.Fatalf("%s: displayed %d reserve %d house %d; want %d, %d, %d", what, m.Displayed, m.Reserve, m.HouseFunded, displayed, reserve, house)
		}
	}
	want("after the shared Royals", 10_000_001, 0, 29_999_923)
	for _, seq := range []int64{res.Payouts[0].Seq, res.Payouts[1].Seq} {
		if _, _, _, err := svc.Void(ctx, "p", seq, "the ace was a king", jackpottest.Supervisor, jackpottest.Controller, fmt.Sprint("v-", seq)); fault.KindOf(err) != fault.Conflict {
			t.Fatalf("void of share %d alone: %v, want a conflict (ruling R5)", seq, err)
		}
		ch := jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: seq, Reason: "the ace was a king"}}
		if _, _, _, err := svc.Propose(ctx, "p", ch, jackpottest.Supervisor, fmt.Sprint("pv-", seq)); fault.KindOf(err) != fault.Conflict {
			t.Fatalf("proposed void of share %d alone: %v, want a conflict", seq, err)
		}
	}
	want("refused voids move nothing", 10_000_001, 0, 29_999_923)
	// The round as dealt: the Royal on seat 2 alone.
	corrected := lockRound("T1", "r1", true)
	out, _, err := svc.Correct(ctx, "p", jackpot.Correction{Table: "T1", Round: "r1", Corrected: &corrected, Reason: "seat 1 held Kh, not Ah"}, jackpottest.Supervisor, jackpottest.Controller, "c-1")
	if err != nil {
		t.Fatal(err)
	}
	if out.Result == nil || len(out.Result.Payouts) != 1 || out.Result.Payouts[0].Amount != 10_000_259 || out.Result.Payouts[0].Status != jackpot.StatePending || out.HouseRecovery != 0 {
		t.Fatalf("the corrected round: %+v", out)
	}
	want("after the correction", 10_000_000, 0, 19_999_923)
	twinRes := applyAs(ctx, t, svc, "twin", lockRound("T1", "r1", true))
	sameMeters(t, "corrected vs a pool that only saw seat 2's Royal", meters(t, svc, "p"), meters(t, svc, "twin"))
	if twinRes.Payouts[0].Amount != out.Result.Payouts[0].Amount {
		t.Fatalf("twin paid %d", twinRes.Payouts[0].Amount)
	}
	if left, _ := svc.LockedHits(ctx, "p", ""); len(left) != 1 || left[0].Seat != 2 || left[0].Amount != 10_000_259 {
		t.Fatalf("locked after the correction: %+v", left)
	}
	jackpottest.MustReconcile(t, svc, "p")
	everyMoveSigned(t, st, "p")
}

// applyAs applies r as the principal in ctx.
func applyAs(ctx context.Context, t *testing.T, svc *pools.Service, id string, r jackpot.Round) jackpot.RoundResult {
	t.Helper()
	res, _, err := svc.ApplyRound(ctx, id, r, "", "")
	if err != nil {
		t.Fatalf("round %s/%s: %v", r.Table, r.Round, err)
	}
	return res
}

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

// testCorrectionByLockState: ruling R28 for each state of a locked Royal.
// Round r1 (three unit wagers: 259 and 77, carries .95 and .55) hits a
// Royal of 10,000,259 (R3), the reset 10,000,000 funded by the reserve's
// 77 and the house's 9,999,923 (R21); rounds r2 and r3 contribute after
// it. Round r1 is then voided (two cards exposed, MBS 5.4), a minute
// later: whatever the hit's state, the meters end as a twin pool that
// only saw r2 and r3 (displayed 10,000,519, reserve 155), and:
//   - pending or confirmed (not paid): the hit returns to its sources, the
//     house is back at its opening 10,000,000, nothing to recover;
//   - paid: the house funds its return and recovers 10,000,259 from the
//     winner (house funded 20,000,259);
//   - voided before (the void reversed the hit and its reset): only the
//     contribution is taken back; the hit and the reset are not reversed
//     twice.
//
// A second correction of r1 is refused; the meters as of an instant
// before the correction are those before it, to the minor unit, and as of
// now those after it.
func testCorrectionByLockState(t *testing.T, st pools.Store) {
	for _, c := range []struct {
		name      string
		to        []string // confirm, paid, void
		house     money.Amount
		recovered money.Amount
		reversed  int
	}{
		{"pending", nil, 10_000_000, 0, 3},
		{"confirmed", []string{"confirm"}, 10_000_000, 0, 3},
		{"paid", []string{"confirm", "paid"}, 20_000_259, 10_000_259, 3},
		{"voided-before", []string{"void"}, 10_000_000, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := tableCtx()
			clock := jackpottest.NewClock(jackpottest.T0)
			svc := service(st, clock)
			id, twin := "p-"+c.name, "twin-"+c.name
			for _, p := range []string{id, twin} {
				if _, _, err := svc.Create(ctx, p, LockedSettings(), jackpottest.Admin); err != nil {
					t.Fatal(err)
				}
			}
			seq := applyAs(ctx, t, svc, id, lockRound("T1", "r1", true)).Payouts[0].Seq
			for _, op := range c.to {
				var err error
				switch op {
				case "confirm":
					_, _, _, err = svc.Confirm(ctx, id, seq, jackpottest.Supervisor, "k-c")
				case "paid":
					_, _, _, err = svc.MarkPaid(ctx, id, seq, jackpottest.Cage, "k-p")
				case "void":
					_, _, _, err = svc.Void(ctx, id, seq, "the ace was a king", jackpottest.Supervisor, jackpottest.Controller, "k-v")
				}
				if err != nil {
					t.Fatalf("%s: %v", op, err)
				}
			}
			for _, r := range []string{"r2", "r3"} {
				applyAs(ctx, t, svc, id, lockRound("T1", r, false))
				applyAs(ctx, t, svc, twin, lockRound("T1", r, false))
			}
			beforeCorr := meters(t, svc, id)
			clock.Advance(time.Minute)
			corr := jackpot.Correction{Table: "T1", Round: "r1", Reason: "two cards exposed", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}
			res, _, err := svc.Correct(ctx, id, corr, jackpottest.Supervisor, jackpottest.Controller, "k-corr")
			if err != nil {
				t.Fatal(err)
			}
			m := meters(t, svc, id)
			sameMeters(t, "voided r1 vs a pool that only saw r2 and r3", m, meters(t, svc, twin))
			if m.Displayed != 10_000_519 || m.Reserve != 155 || m.HouseFunded != c.house || res.HouseRecovery != c.recovered ||
				len(res.Reversed) != c.reversed || m.Resets != 0 || m.Hits["royal_flush"].Count != 0 || m.Hits["royal_flush"].Paid != 0 {
				t.Fatalf("after the correction: %+v\nresult %+v", m, res)
			}
			if _, _, err := svc.Correct(ctx, id, corr, jackpottest.Supervisor, jackpottest.Controller, "k-corr-2"); fault.KindOf(err) != fault.Conflict {
				t.Fatalf("a second correction of r1: %v, want 409", err)
			}
			if left, _ := svc.LockedHits(ctx, id, ""); len(left) != 0 {
				t.Fatalf("locked after the correction: %+v", left)
			}
			asOf, err := svc.MetersAt(ctx, id, clock.Now().Add(-time.Second))
			if err != nil {
				t.Fatal(err)
			}
			sameMeters(t, "as of before the correction", asOf.Meters, beforeCorr)
			if asOf.Meters.HouseFunded != beforeCorr.HouseFunded {
				t.Fatalf("house as of before: %d, want %d", asOf.Meters.HouseFunded, beforeCorr.HouseFunded)
			}
			now, err := svc.MetersAt(ctx, id, clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			sameMeters(t, "as of now", now.Meters, m)
			if now.Meters.HouseFunded != c.house {
				t.Fatalf("house as of now: %d", now.Meters.HouseFunded)
			}
			jackpottest.MustReconcile(t, svc, id)
			everyMoveSigned(t, st, id)
		})
	}
}

// testCorrectReleasedRWSHit: rulings R7 and R28. An RWS pool under the
// lock: round r1's Royal is held for the 3 s window, then released into
// the lock pending, paid from the pool as it stands (R21): 10,000,259;
// the reset 10,000,000 funded by the reserve's 77 and the house's
// 9,999,923. Round r2 contributes; r1 is voided: the pending hit returns
// to the pool, its reset is reversed, r1's contribution is taken back:
// displayed 10,000,259 and reserve 77 as a twin pool that only saw r2,
// the house back at 10,000,000.
func testCorrectReleasedRWSHit(t *testing.T, st pools.Store) {
	ctx := tableCtx()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	const rws = "rws-mlp-csp-v2"
	s := jackpottest.RWSSettings()
	s.Verify = &jackpot.Verify{Percent: true}
	for _, id := range []string{"rws", "twin"} {
		if _, _, err := svc.Create(ctx, id, s, jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	res := applyAs(ctx, t, svc, "rws", jackpottest.RoundOf(rws, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3}, jackpottest.Royal(rws, 2, 2, 500)))
	if len(res.Payouts) != 1 || res.Payouts[0].Status != "held" {
		t.Fatalf("r1: %+v", res.Payouts)
	}
	clock.Advance(3 * time.Second)
	_, paid, err := svc.Release(ctx, "rws")
	if err != nil || len(paid) != 1 || paid[0].Amount != 10_000_259 || paid[0].Status != jackpot.StatePending {
		t.Fatalf("release: %v %+v", err, paid)
	}
	if m := meters(t, svc, "rws"); m.Displayed != 10_000_000 || m.Reserve != 0 || m.HouseFunded != 19_999_923 {
		t.Fatalf("after the release: %+v", m)
	}
	applyAs(ctx, t, svc, "rws", jackpottest.RoundOf(rws, "T1", "r2", clock.Now(), 500, []int{1, 2, 3}))
	applyAs(ctx, t, svc, "twin", jackpottest.RoundOf(rws, "T1", "r2", clock.Now(), 500, []int{1, 2, 3}))
	out, _, err := svc.Correct(ctx, "rws", jackpot.Correction{Table: "T1", Round: "r1", Reason: "foreign card", Rules: []string{"rws-mlp-csp-v2 5.10"}}, jackpottest.Supervisor, jackpottest.Controller, "k")
	if err != nil {
		t.Fatal(err)
	}
	m := meters(t, svc, "rws")
	sameMeters(t, "voided r1 vs a pool that only saw r2", m, meters(t, svc, "twin"))
	if m.Displayed != 10_000_259 || m.Reserve != 77 || m.HouseFunded != 10_000_000 || out.HouseRecovery != 0 || m.Resets != 0 {
		t.Fatalf("after the correction: %+v %+v", m, out)
	}
	if left, _ := svc.LockedHits(ctx, "rws", ""); len(left) != 0 {
		t.Fatalf("locked after: %+v", left)
	}
	jackpottest.MustReconcile(t, svc, "rws")
	everyMoveSigned(t, st, "rws")
}

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

// testKeysExactlyOnce: every operation that moves money or the lock is
// applied once under its Idempotency-Key (issues 13 and 16): the same key
// with the same request answers the first answer (replayed, the same
// version and hit), even after the pool moved on; the same key with
// another request (another hit, another principal, another reason) is a
// 409; neither moves a meter. The Royal of 10,000,259 at T1 is confirmed
// and paid, the one at T2 (10,000,260) voided on a proposal, round T3/r1
// corrected from three wagers to two (difference -86 displayed, -26
// reserve): each once, the sums below to the minor unit.
func testKeysExactlyOnce(t *testing.T, st pools.Store) {
	ctx := tableCtx()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	if _, _, err := svc.Create(ctx, "p", LockedSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	a := applyAs(ctx, t, svc, "p", lockRound("T1", "r1", true)).Payouts[0]
	b := applyAs(ctx, t, svc, "p", lockRound("T2", "r1", true)).Payouts[0]
	applyAs(ctx, t, svc, "p", lockRound("T3", "r1", false))
	if a.Amount != 10_000_259 || b.Amount != 10_000_260 {
		t.Fatalf("the Royals: %d %d", a.Amount, b.Amount)
	}
	corrected := jackpottest.RoundOf(ssp, "T3", "r1", jackpottest.T0, 500, []int{1, 2})
	corr := jackpot.Correction{Table: "T3", Round: "r1", Corrected: &corrected, Reason: "seat 3's wager was returned"}
	voidB := jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: b.Seq, Reason: "misread"}}
	var proposal int64
	type answer struct {
		version int64
		state   string
	}
	ops := []struct {
		name  string
		first func() (answer, bool, error)
		other func() error
	}{
		{"confirm", func() (answer, bool, error) {
			p, h, r, err := svc.Confirm(ctx, "p", a.Seq, jackpottest.Supervisor, "k-confirm")
			return answer{p.Version, h.State}, r, err
		}, func() error {
			_, _, _, err := svc.Confirm(ctx, "p", a.Seq, jackpot.Actor{ID: "sup:cy", Role: "supervisor"}, "k-confirm")
			return err
		}},
		{"paid", func() (answer, bool, error) {
			p, h, r, err := svc.MarkPaid(ctx, "p", a.Seq, jackpottest.Cage, "k-paid")
			return answer{p.Version, h.State}, r, err
		}, func() error {
			_, _, _, err := svc.MarkPaid(ctx, "p", b.Seq, jackpottest.Cage, "k-paid")
			return err
		}},
		{"propose", func() (answer, bool, error) {
			p, pr, r, err := svc.Propose(ctx, "p", voidB, jackpottest.Supervisor, "k-propose")
			proposal = pr.ID
			return answer{p.Version, pr.State}, r, err
		}, func() error {
			other := voidB
			other.Void = &jackpot.VoidHit{Seq: b.Seq, Reason: "another reason"}
			_, _, _, err := svc.Propose(ctx, "p", other, jackpottest.Supervisor, "k-propose")
			return err
		}},
		{"approve", func() (answer, bool, error) {
			out, r, err := svc.Approve(ctx, "p", proposal, jackpottest.Controller, "k-approve")
			st := ""
			if out.Hit != nil {
				st = out.Hit.State
			}
			return answer{out.Pool.Version, st}, r, err
		}, func() error {
			_, _, err := svc.Approve(ctx, "p", proposal, Controller2, "k-approve")
			return err
		}},
		{"correct", func() (answer, bool, error) {
			res, r, err := svc.Correct(ctx, "p", corr, jackpottest.Supervisor, jackpottest.Controller, "k-correct")
			return answer{res.Version, fmt.Sprint(res.Difference.Displayed, "/", res.Difference.Reserve)}, r, err
		}, func() error {
			other := corr
			other.Reason = "another reason"
			_, _, err := svc.Correct(ctx, "p", other, jackpottest.Supervisor, jackpottest.Controller, "k-correct")
			return err
		}},
	}
	firsts := map[string]answer{}
	for _, op := range ops {
		got, replayed, err := op.first()
		if err != nil || replayed {
			t.Fatalf("%s: %v replayed %v", op.name, err, replayed)
		}
		firsts[op.name] = got
	}
	// The correction's difference: -259 + 173 = -86 displayed, -77 + 51 = -26 reserve.
	if firsts["confirm"].state != jackpot.StateConfirmed || firsts["paid"].state != jackpot.StatePaid || firsts["propose"].state != jackpot.ProposalOpen ||
		firsts["approve"].state != jackpot.StateVoided || firsts["correct"].state != "-86/-26" {
		t.Fatalf("first answers: %+v", firsts)
	}
	settled := meters(t, svc, "p")
	// T1's Royal paid 10,000,259 (reset: reserve 77, house 9,999,923);
	// T2's voided: its 10,000,260 back, its reset reversed (reserve 78
	// back); T3/r1's 260 (carry .85) and 77 (.65) taken back to carries
	// .90 and .10, its two wagers then 174 (173.3 + .90) and 51 (51.7 +
	// .10): displayed 10,000,000 + 260 + 174 = 10,000,434, reserve 78 +
	// 51 = 129, house 19,999,923.
	if settled.Displayed != 10_000_434 || settled.Reserve != 129 || settled.HouseFunded != 19_999_923 || settled.Hits["royal_flush"].Count != 1 || settled.Hits["royal_flush"].Paid != 10_000_259 {
		t.Fatalf("after every operation once: %+v", settled)
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			got, replayed, err := op.first()
			if err != nil || !replayed || got != firsts[op.name] {
				t.Fatalf("the same key again: %+v replayed %v %v; want the first answer %+v", got, replayed, err, firsts[op.name])
			}
			if err := op.other(); fault.KindOf(err) != fault.Conflict {
				t.Fatalf("the key with another request: %v, want 409", err)
			}
		})
	}
	m := meters(t, svc, "p")
	sameMeters(t, "replays and refusals move nothing", m, settled)
	if m.HouseFunded != settled.HouseFunded {
		t.Fatalf("house %d, want %d", m.HouseFunded, settled.HouseFunded)
	}
	jackpottest.MustReconcile(t, svc, "p")
	everyMoveSigned(t, st, "p")
}

// testTwoCorrectionsOfOneRound: ruling R28, a round is corrected once.
// Two supervisors propose corrections of round T1/r1 (three unit wagers:
// 259 and 77, carries .95 and .55): one to two wagers, one voiding it.
// Both are checked when proposed; the first approved applies (displayed
// 10,000,173, reserve 51: 173.3 and 51.7 from the restored carries), the
// second is refused when approved (409: already corrected) and moves
// nothing.
func testTwoCorrectionsOfOneRound(t *testing.T, st pools.Store) {
	ctx := tableCtx()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	applyAs(ctx, t, svc, "p", lockRound("T1", "r1", false))
	two := jackpottest.RoundOf(ssp, "T1", "r1", jackpottest.T0, 500, []int{1, 2})
	_, fix, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeCorrection, Correction: &jackpot.Correction{Table: "T1", Round: "r1", Corrected: &two, Reason: "seat 3 returned"}}, jackpottest.Supervisor, "t-1")
	if err != nil {
		t.Fatal(err)
	}
	other := jackpot.Actor{ID: "sup:cy", Role: "supervisor"}
	_, void, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeCorrection, Correction: &jackpot.Correction{Table: "T1", Round: "r1", Reason: "two cards exposed", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}}, other, "t-2")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := svc.Approve(ctx, "p", fix.ID, jackpottest.Controller, "t-ok-1")
	if err != nil || out.Pool.Meters.Displayed != 10_000_173 || out.Pool.Meters.Reserve != 51 || out.Correction == nil || out.Correction.Difference.Displayed != -86 {
		t.Fatalf("the first correction: %v %+v", err, out.Pool.Meters)
	}
	if _, _, err := svc.Approve(ctx, "p", void.ID, jackpottest.Controller, "t-ok-2"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("the second correction of r1: %v, want 409", err)
	}
	if m := meters(t, svc, "p"); m.Displayed != 10_000_173 || m.Reserve != 51 || m.Wagers != 2 {
		t.Fatalf("after the refused second correction: %+v", m)
	}
	jackpottest.MustReconcile(t, svc, "p")
	everyMoveSigned(t, st, "p")
}
