package poolstest

import (
	"context"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
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
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
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
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
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
