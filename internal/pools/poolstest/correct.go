package poolstest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// sameMeters fails t unless a and b are the same money and carries.
func sameMeters(t *testing.T, what string, a, b jackpot.Meters) {
	t.Helper()
	if a.Displayed != b.Displayed || a.Reserve != b.Reserve || a.Overflow != b.Overflow || a.CarryDisplayed != b.CarryDisplayed ||
		a.CarryReserve != b.CarryReserve || a.Contributed != b.Contributed || a.ContributedReserve != b.ContributedReserve ||
		a.Wagers != b.Wagers || a.WagerAmount != b.WagerAmount {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, a, b)
	}
}

// testCorrectContributionOnly: ruling R28. Round r1 contributed 3 wagers
// (259 and 77, carries .95 and .55); the correction says seat 3's
// progressive wager was returned: 2 wagers, 173 and 51 (carries .30 and
// .70). The original's contribution is taken back (-259, -77) and the
// corrected one applied: displayed 10,000,173, reserve 51, exactly as a
// twin pool that only ever saw the corrected round, before and after a
// later round. Replayed with its key it answers the same; a second
// correction of the round is refused.
func testCorrectContributionOnly(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	for _, id := range []string{"p", "twin"} {
		if _, _, err := svc.Create(ctx, id, jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	apply(t, svc, "p", lockRound("T1", "r1", false))
	corrected := jackpottest.RoundOf(ssp, "T1", "r1", jackpottest.T0, 500, []int{1, 2})
	apply(t, svc, "twin", corrected)
	corr := jackpot.Correction{Table: "T1", Round: "r1", Corrected: &corrected, Reason: "seat 3's progressive was returned (late bet)", Rules: []string{"mbs-megalink-ssp-v6 5.12.2"}}
	if _, _, err := svc.Correct(ctx, "p", corr, jackpot.Actor{}, jackpottest.Controller, "k1"); fault.KindOf(err) != fault.Unauthenticated {
		t.Fatalf("a correction without a principal: %v", err)
	}
	res, replayed, err := svc.Correct(ctx, "p", corr, jackpottest.Supervisor, jackpottest.Controller, "k1")
	if err != nil || replayed {
		t.Fatal(err)
	}
	if res.Difference.Displayed != -86 || res.Difference.Reserve != -26 || res.Meters.Displayed != 10_000_173 || res.Meters.Reserve != 51 || res.HouseRecovery != 0 || len(res.Reversed) != 1 {
		t.Fatalf("correction %+v", res)
	}
	sameMeters(t, "after the correction", meters(t, svc, "p"), meters(t, svc, "twin"))
	again, replayed, err := svc.Correct(ctx, "p", corr, jackpottest.Supervisor, jackpottest.Controller, "k1")
	if err != nil || !replayed || again.Meters != res.Meters || again.Version != res.Version {
		t.Fatalf("the replay: %+v %v %v", again, replayed, err)
	}
	if _, _, err := svc.Correct(ctx, "p", corr, jackpottest.Supervisor, jackpottest.Controller, "k2"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("a second correction of the round: %v", err)
	}
	apply(t, svc, "p", lockRound("T1", "r2", false))
	apply(t, svc, "twin", lockRound("T1", "r2", false))
	sameMeters(t, "after a later round", meters(t, svc, "p"), meters(t, svc, "twin"))
	es, _ := allEntries(ctx, st, "p")
	for _, e := range es[2:4] {
		if e.Corrects == "" || e.Corrects != es[1].Commit || e.Actor == nil || *e.Actor != jackpottest.Supervisor || e.ApprovedBy == nil || *e.ApprovedBy != jackpottest.Controller {
			t.Fatalf("a correction's entries cite the original commit and the actor: %+v", e)
		}
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testCorrectPaidStraightFlush: ruling R28. Round r1 contributed 259 and
// paid a Straight Flush of 1,000,025 (10% of 10,000,259, R3) at once. The
// correction says the cards were misread: the same wagers, no hit. The
// hit was paid, so the pool is not debited twice: the house returns the
// 1,000,025 to the displayed meter and records it as a house recovery
// from the winner. Displayed 10,000,259, as the twin that never had the
// hit; the house has funded 10,000,000 + 1,000,025.
func testCorrectPaidStraightFlush(t *testing.T, st pools.Store) {
	defer sameHitHistory(t, st, "p")
	defer sameInstants(t, st, "p")
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	for _, id := range []string{"p", "twin"} {
		if _, _, err := svc.Create(ctx, id, jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	r := jackpottest.RoundOf(ssp, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3}, jackpottest.StraightFlush(ssp, 1, 1, 500))
	first := apply(t, svc, "p", r)
	if first.Payouts[0].Amount != 1_000_025 || first.Meters.Displayed != 9_000_234 {
		t.Fatalf("the original: %+v", first)
	}
	corrected := jackpottest.RoundOf(ssp, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3})
	apply(t, svc, "twin", corrected)
	res, _, err := svc.Correct(ctx, "p", jackpot.Correction{Table: "T1", Round: "r1", Corrected: &corrected, Reason: "seat 1 held 9 of spades, not of clubs"}, jackpottest.Supervisor, jackpottest.Controller, "k")
	if err != nil {
		t.Fatal(err)
	}
	if res.HouseRecovery != 1_000_025 || res.Difference.Displayed != 1_000_025 || res.Meters.Displayed != 10_000_259 || len(res.Result.Payouts) != 0 {
		t.Fatalf("correction %+v", res)
	}
	m := meters(t, svc, "p")
	sameMeters(t, "after the correction", m, meters(t, svc, "twin"))
	if m.HouseFunded != 11_000_025 || m.Hits["straight_flush"].Count != 0 || m.Hits["straight_flush"].Paid != 0 {
		t.Fatalf("house and hits: %+v", m)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testVoidRound: ruling R28. A round voided with its cited rule (two
// cards exposed, mbs-megalink-ssp-v6 5.4): its contribution taken back,
// the pool at its opening 10,000,000 with nothing carried.
func testVoidRound(t *testing.T, st pools.Store) {
	ctx, _, svc := mbsPool(t, st)
	apply(t, svc, "p", lockRound("T1", "r1", false))
	void := jackpot.Correction{Table: "T1", Round: "r1", Reason: "two cards exposed in the deal"}
	if _, _, err := svc.Correct(ctx, "p", void, jackpottest.Supervisor, jackpottest.Controller, "k"); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("a void without its rule: %v", err)
	}
	void.Rules = []string{"mbs-megalink-ssp-v6 5.4"}
	if _, _, err := svc.Correct(ctx, "p", jackpot.Correction{Table: "T1", Round: "nope", Reason: "x", Rules: void.Rules}, jackpottest.Supervisor, jackpottest.Controller, "k0"); fault.KindOf(err) != fault.NotFound {
		t.Fatalf("an unknown round: %v", err)
	}
	res, _, err := svc.Correct(ctx, "p", void, jackpottest.Supervisor, jackpottest.Controller, "k")
	if err != nil {
		t.Fatal(err)
	}
	m := meters(t, svc, "p")
	if res.Result != nil || m.Displayed != 10_000_000 || m.Reserve != 0 || m.CarryDisplayed != 0 || m.CarryReserve != 0 || m.Wagers != 0 || m.Contributed != 0 {
		t.Fatalf("after the void: %+v", m)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testVoidAfterTheReserveWasSpent: ruling R28 and R21. Round r1
// contributed to the reserve; a Royal at T2 then spent the whole reserve
// (155) on its reset, the house the other 9,999,845. Voiding r1 takes
// back its contribution with the carries exact (from carries of .90 and
// .10: 260 from the displayed meter, 78 from the reserve, which leaves the
// carries .95 and .55 of a pool that only saw T2's round); the reserve
// holds 0, so the house tops it up by 78 first (house_top_up) and no meter
// goes below zero.
func testVoidAfterTheReserveWasSpent(t *testing.T, st pools.Store) {
	ctx, _, svc := mbsPool(t, st)
	apply(t, svc, "p", lockRound("T1", "r1", false))
	apply(t, svc, "p", lockRound("T2", "r1", true))
	if m := meters(t, svc, "p"); m.Reserve != 0 {
		t.Fatalf("the reset spent the reserve: %+v", m)
	}
	res, _, err := svc.Correct(ctx, "p", jackpot.Correction{Table: "T1", Round: "r1", Reason: "two cards exposed", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}, jackpottest.Supervisor, jackpottest.Controller, "k")
	if err != nil {
		t.Fatal(err)
	}
	m := meters(t, svc, "p")
	if res.Meters.Reserve != 0 || m.Displayed != 9_999_740 || m.Reserve != 0 || m.Wagers != 3 || m.HouseFunded != 19_999_923 ||
		m.Contributed != 259 || m.CarryDisplayed != 9500 || m.ContributedReserve != 77 || m.CarryReserve != 5500 {
		t.Fatalf("after the void: %+v %+v", res, m)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testCorrectLockedRoyal: ruling R28 with the jackpot lock. A Royal of
// 10,000,259 (its reset funded by the reserve's 77 and the house's
// 9,999,923) taken back by a correction of its round (the same wagers, no
// hit):
//   - still pending: it returns to its sources and its reset is reversed,
//     as a void does; the house is back at its opening 10,000,000;
//   - confirmed and paid by the cage: the pool is not debited twice; the
//     house refunds the pool its 10,000,259 and recovers it from the
//     winner (house funded 10,000,000 + 10,000,259), the reset reversed.
//
// Either way the displayed meter is 10,000,259 and the reserve 77, as a
// pool that only saw the corrected round.
func testCorrectLockedRoyal(t *testing.T, st pools.Store) {
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		paid     bool
		house    int64
		recovery int64
	}{
		{"pending", false, 10_000_000, 0},
		{"confirmed and paid: a house recovery", true, 20_000_259, 10_000_259},
	} {
		t.Run(c.name, func(t *testing.T) {
			svc := service(st, jackpottest.NewClock(jackpottest.T0))
			id := "p-" + c.name[:4]
			if _, _, err := svc.Create(ctx, id, LockedSettings(), jackpottest.Admin); err != nil {
				t.Fatal(err)
			}
			seq := apply(t, svc, id, lockRound("T1", "r1", true)).Payouts[0].Seq
			if c.paid {
				if _, _, _, err := svc.Confirm(ctx, id, seq, jackpottest.Supervisor, "c"); err != nil {
					t.Fatal(err)
				}
				if _, _, _, err := svc.MarkPaid(ctx, id, seq, jackpottest.Cage, "p"); err != nil {
					t.Fatal(err)
				}
			}
			corrected := lockRound("T1", "r1", false)
			res, _, err := svc.Correct(ctx, id, jackpot.Correction{Table: "T1", Round: "r1", Corrected: &corrected, Reason: "the ace was a king"}, jackpottest.Supervisor, jackpottest.Controller, "k")
			if err != nil {
				t.Fatal(err)
			}
			m := meters(t, svc, id)
			if int64(res.HouseRecovery) != c.recovery || m.Displayed != 10_000_259 || m.Reserve != 77 || int64(m.HouseFunded) != c.house ||
				m.Resets != 0 || m.Hits["royal_flush"].Count != 0 {
				t.Fatalf("after the correction: %+v\n%+v", res, m)
			}
			if left, _ := svc.LockedHits(ctx, id, ""); len(left) != 0 {
				t.Fatalf("the hit left the lock: %+v", left)
			}
			jackpottest.MustReconcile(t, svc, id)
		})
	}
}

// testCorrectHeldRWS: ruling R28 with R7. An RWS round whose Royal is
// still held for the settle window is voided: the held hit is withdrawn
// (held_void) and never paid, the contribution taken back; the pool is at
// its opening 10,000,000 and a later round pays nothing.
func testCorrectHeldRWS(t *testing.T, st pools.Store) {
	defer sameHitHistory(t, st, "rws")
	defer sameInstants(t, st, "rws")
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	if _, _, err := svc.Create(ctx, "rws", jackpottest.RWSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const rws = "rws-mlp-csp-v2"
	apply(t, svc, "rws", jackpottest.RoundOf(rws, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3}, jackpottest.Royal(rws, 2, 2, 500)))
	if _, _, err := svc.Correct(ctx, "rws", jackpot.Correction{Table: "T1", Round: "r1", Reason: "two cards exposed", Rules: []string{"rws-mlp-csp-v2 5.10"}}, jackpottest.Supervisor, jackpottest.Controller, "k"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(3 * time.Second)
	res := apply(t, svc, "rws", jackpottest.RoundOf(rws, "T2", "r1", clock.Now(), 500, []int{1}))
	p, _ := svc.Get(ctx, "rws")
	// T2's one wager: 86 (carry .65).
	if len(res.Released) != 0 || len(p.Held) != 0 || p.Meters.Displayed != 10_000_086 || p.Meters.Resets != 0 {
		t.Fatalf("after the void: released %+v, pool %+v", res.Released, p.Meters)
	}
	jackpottest.MustReconcile(t, svc, "rws")
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
	defer sameHitHistory(t, st, "p")
	defer sameInstants(t, st, "p")
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
	defer sameHitHistory(t, st, "rws")
	defer sameInstants(t, st, "rws")
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

// testCorrectPendingRoyalAfterAStraightFlush: issue 33 item 9, with its
// figures. A pool resetting to 1,000,000 that locks prizes of at least
// 1,000,000 (verify atOrAbove, so the Straight Flush is paid at once): T1's
// Royal is pending (1,000,086: the pool and R1's 86); T2's Straight Flush
// is paid 100,008 (10% of 1,000,087); displayed 900,079. Correcting R1
// (a void) writes the hit's prize back before its reset's funding leaves
// the displayed meter, so no entry leaves any meter below zero (the reset
// first left it at -99,921 for one entry and reconcile failed), and the
// pool ends at 900,078, reserve 25, the house 1,000,000.
func testCorrectPendingRoyalAfterAStraightFlush(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	s := jackpottest.MBSSettings()
	s.Reset, s.Verify = 1_000_000, &jackpot.Verify{AtOrAbove: 1_000_000}
	if _, _, err := svc.Create(ctx, "p", s, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	royal := jackpottest.Royal(ssp, 1, 1, 500)
	royal.Cards = "Ts Js Qs Ks As"
	a := apply(t, svc, "p", jackpottest.RoundOf(ssp, "T1", "R1", jackpottest.T0, 500, []int{1}, royal))
	if len(a.Payouts) != 1 || a.Payouts[0].Status != jackpot.StatePending || a.Payouts[0].Amount != 1_000_086 {
		t.Fatalf("T1's Royal: %+v", a.Payouts)
	}
	sf := jackpottest.StraightFlush(ssp, 1, 1, 500)
	sf.Cards = "9h Th Jh Qh Kh"
	b := apply(t, svc, "p", jackpottest.RoundOf(ssp, "T2", "R2", jackpottest.T0, 500, []int{1}, sf))
	if len(b.Payouts) != 1 || b.Payouts[0].Status != jackpot.StatePaid || b.Payouts[0].Amount != 100_008 || b.Meters.Displayed != 900_079 {
		t.Fatalf("T2's Straight Flush: %+v %+v", b.Payouts, b.Meters)
	}
	before, err := allEntries(ctx, st, "p")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Correct(ctx, "p", jackpot.Correction{Table: "T1", Round: "R1", Reason: "two cards exposed", Rules: []string{ssp + " 5.4"}},
		jackpottest.Supervisor, jackpottest.Controller, "k"); err != nil {
		t.Fatal(err)
	}
	es, err := allEntries(ctx, st, "p")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var m jackpot.MeterView
	var house int64
	for i, e := range es {
		m.Displayed += e.Displayed
		m.Reserve += e.Reserve
		m.Overflow += e.Overflow
		house += int64(e.HouseFunded)
		if m.Displayed < 0 || m.Reserve < 0 || m.Overflow < 0 || house < 0 {
			t.Errorf("entry %d (%s) leaves a meter below zero: %+v, house %d", e.Seq, e.Kind, m, house)
		}
		if i >= len(before) {
			kinds = append(kinds, string(e.Kind))
		}
	}
	if fmt.Sprint(kinds) != "[hit_void reset_void contribution]" {
		t.Errorf("the correction's entries: %v, want the hit back before its reset", kinds)
	}
	p, _ := svc.Get(ctx, "p")
	if got := p.Meters; got.Displayed != 900_078 || got.Reserve != 25 || got.Overflow != 0 || got.HouseFunded != 1_000_000 {
		t.Fatalf("after the correction: %+v", got)
	}
	if rec := jackpottest.MustReconcile(t, svc, "p"); !rec.OK {
		t.Fatalf("reconcile: %+v", rec)
	}
}
