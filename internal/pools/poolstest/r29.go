package poolstest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// Ruling R29: undoing a hit among majors paid one after another reverses
// that hit's own entries only (its prize back to its sources, its reset
// back to the reserve and house that funded it); the hits applied after it
// keep the amounts they were paid or fixed while pending. Each case
// below: Royal A, then Royal B from the pool A's reset left; A undone.

// r29Expect is what a case ends with, to the cent.
type r29Expect struct {
	a, b                      money.Amount // what A and B were paid
	displayed, reserve, house money.Amount
	recovery                  money.Amount
	bAfter                    money.Amount // B's amount after A is undone
	resetsAfter, royalsAfter  int64
}

// undoneCitesR29 fails t unless every entry that reversed hit a cites
// rulings R28 and R29, and at least a hit reversal and a reset reversal
// are there.
func undoneCitesR29(t *testing.T, st pools.Store, id string, a int64) {
	t.Helper()
	es, err := allEntries(context.Background(), st, id)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[jackpot.Kind]bool{}
	for _, e := range es {
		if e.HitSeq != a || (e.Kind != jackpot.KindHitVoid && e.Kind != jackpot.KindHouseRecovery && e.Kind != jackpot.KindResetVoid) {
			continue
		}
		kinds[e.Kind] = true
		if !slices.Contains(e.Rules, "ruling R29") || !slices.Contains(e.Rules, "ruling R28") {
			t.Fatalf("entry %d (%s) reverses hit %d without citing rulings R28 and R29: %v", e.Seq, e.Kind, a, e.Rules)
		}
	}
	if !kinds[jackpot.KindResetVoid] || !(kinds[jackpot.KindHitVoid] || kinds[jackpot.KindHouseRecovery]) {
		t.Fatalf("hit %d's reversal entries: %v", a, kinds)
	}
}

func (x r29Expect) check(t *testing.T, svc *pools.Service, id string, bSeq int64, recovery money.Amount) {
	t.Helper()
	m := meters(t, svc, id)
	if m.Displayed != x.displayed || m.Reserve != x.reserve || m.Overflow != 0 || m.HouseFunded != x.house || recovery != x.recovery ||
		m.Resets != x.resetsAfter || m.Hits["royal_flush"].Count != x.royalsAfter {
		t.Fatalf("after A is undone: displayed %d reserve %d house %d recovery %d resets %d royals %d; want %d %d %d %d %d %d",
			m.Displayed, m.Reserve, m.HouseFunded, recovery, m.Resets, m.Hits["royal_flush"].Count,
			x.displayed, x.reserve, x.house, x.recovery, x.resetsAfter, x.royalsAfter)
	}
	left, err := svc.LockedHits(context.Background(), id, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range left {
		if h.Seq == bSeq && h.Amount != x.bAfter {
			t.Fatalf("B keeps %d (R29), has %d", x.bAfter, h.Amount)
		}
	}
	jackpottest.MustReconcile(t, svc, id)
}

// testR29MBSAcrossTables: ruling R29 with R7 (MBS: commit order). T1/r1
// (3 unit wagers: 259, carry .95; reserve 77, .55) pays Royal A
// 10,000,259, its reset funded by the reserve's 77 and the house's
// 9,999,923; T2/r2 (260, carry .90; reserve 78, .10) pays Royal B
// 10,000,260, its reset the reserve's 78 and the house's 9,999,922.
//   - A pending, voided: A's 10,000,259 back to the displayed meter, its
//     reset's 10,000,000 back to the reserve (77) and the house: displayed
//     10,000,259, reserve 77, house 19,999,922; B keeps 10,000,260.
//   - A paid, r1 corrected to its wagers without the hit: the house
//     refunds A's 10,000,259 and recovers it; A's reset reversed as above;
//     r1's contribution taken back (260 and 78, the carries back to .95
//     and .55; the reserve short by the cent r2's carry made, 1, is topped
//     up by the house) and applied again (260 and 78): displayed
//     10,000,259, reserve 78, house 30,000,182 (19,999,923 net of the
//     recovery, as a pool that never saw A); B keeps 10,000,260.
func testR29MBSAcrossTables(t *testing.T, st pools.Store) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		paid bool
		want r29Expect
	}{
		{"pending, voided", false, r29Expect{a: 10_000_259, b: 10_000_260, displayed: 10_000_259, reserve: 77, house: 19_999_922,
			bAfter: 10_000_260, resetsAfter: 1, royalsAfter: 1}},
		{"paid, round corrected", true, r29Expect{a: 10_000_259, b: 10_000_260, displayed: 10_000_259, reserve: 78, house: 30_000_182,
			recovery: 10_000_259, bAfter: 10_000_260, resetsAfter: 1, royalsAfter: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			svc := service(st, jackpottest.NewClock(jackpottest.T0))
			id := "r29-mbs-" + c.name[:4]
			if _, _, err := svc.Create(ctx, id, LockedSettings(), jackpottest.Admin); err != nil {
				t.Fatal(err)
			}
			a := apply(t, svc, id, lockRound("T1", "r1", true)).Payouts[0]
			b := apply(t, svc, id, lockRound("T2", "r2", true)).Payouts[0]
			if a.Amount != c.want.a || b.Amount != c.want.b {
				t.Fatalf("A %d, B %d", a.Amount, b.Amount)
			}
			var recovery money.Amount
			if c.paid {
				if _, _, _, err := svc.Confirm(ctx, id, a.Seq, jackpottest.Supervisor, "c"); err != nil {
					t.Fatal(err)
				}
				if _, _, _, err := svc.MarkPaid(ctx, id, a.Seq, jackpottest.Cage, "p"); err != nil {
					t.Fatal(err)
				}
				corrected := lockRound("T1", "r1", false)
				res, _, err := svc.Correct(ctx, id, jackpot.Correction{Table: "T1", Round: "r1", Corrected: &corrected, Reason: "the ace was a king"}, jackpottest.Supervisor, jackpottest.Controller, "k")
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(res.Rules, "ruling R29") || !slices.Contains(res.Rules, "ruling R28") {
					t.Fatalf("the correction's answer cites %v", res.Rules)
				}
				recovery = res.HouseRecovery
			} else {
				_, hit, _, err := svc.Void(ctx, id, a.Seq, "the ace was a king", jackpottest.Supervisor, jackpottest.Controller, "v")
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(hit.Rules, "ruling R29") {
					t.Fatalf("the void's answer cites %v", hit.Rules)
				}
			}
			c.want.check(t, svc, id, b.Seq, recovery)
			undoneCitesR29(t, st, id, a.Seq)
		})
	}
}

// rwsLocked is an RWS pool (R6, R7: held 3 s, paid in dealt order) with
// the jackpot lock on percentage prizes.
func rwsLocked() jackpot.Settings {
	s := jackpottest.RWSSettings()
	s.Verify = &jackpot.Verify{Percent: true}
	return s
}

// testR29RWS: ruling R29 with R6 and R7 at RWS. Held Royals are released
// in dealt order, each from the pool as the previous left it: A
// (dealt first) takes the pool, its reset funded by the reserve and the
// house; B takes the reset pool, 10,000,000, its reset funded by the
// house. A is undone; B keeps 10,000,000.
//   - same round (R6), A pending, voided: r1's 3 wagers (259, reserve
//     77); A 10,000,259 (reset: 77 and 9,999,923); B 10,000,000 (house).
//     After: displayed 10,000,259, reserve 77, house 20,000,000.
//   - across tables (R7), A pending, voided: r1 and r2 contribute 259 and
//     260 before the window closes (reserve 77 and 78); A 10,000,519
//     (reset: 155 and 9,999,845); B 10,000,000. After: displayed
//     10,000,519, reserve 155, house 20,000,000.
//   - across tables, A paid, r1 voided (rws-mlp-csp-v2 5.10): the house
//     refunds A's 10,000,519 and recovers it, A's reset is reversed, r1's
//     contribution taken back (260 and 78, carries back to .95 and .55).
//     After: displayed 10,000,259, reserve 77, house 30,000,519
//     (20,000,000 net of the recovery).
func testR29RWS(t *testing.T, st pools.Store) {
	ctx := tableCtx()
	const rws = "rws-mlp-csp-v2"
	for _, c := range []struct {
		name      string
		sameRound bool
		paid      bool
		want      r29Expect
	}{
		{"same round, pending, voided", true, false, r29Expect{a: 10_000_259, b: 10_000_000, displayed: 10_000_259, reserve: 77, house: 20_000_000,
			bAfter: 10_000_000, resetsAfter: 1, royalsAfter: 1}},
		{"across tables, pending, voided", false, false, r29Expect{a: 10_000_519, b: 10_000_000, displayed: 10_000_519, reserve: 155, house: 20_000_000,
			bAfter: 10_000_000, resetsAfter: 1, royalsAfter: 1}},
		{"across tables, paid, round voided", false, true, r29Expect{a: 10_000_519, b: 10_000_000, displayed: 10_000_259, reserve: 77, house: 30_000_519,
			recovery: 10_000_519, bAfter: 10_000_000, resetsAfter: 1, royalsAfter: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			clock := jackpottest.NewClock(jackpottest.T0)
			svc := service(st, clock)
			id := "r29-rws-across"
			switch {
			case c.sameRound:
				id = "r29-rws-same"
			case c.paid:
				id = "r29-rws-paid"
			}
			if _, _, err := svc.Create(ctx, id, rwsLocked(), jackpottest.Admin); err != nil {
				t.Fatal(err)
			}
			if c.sameRound {
				applyAs(ctx, t, svc, id, jackpottest.RoundOf(rws, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3}, jackpottest.Royal(rws, 1, 1, 500), jackpottest.Royal(rws, 3, 3, 500)))
			} else {
				applyAs(ctx, t, svc, id, jackpottest.RoundOf(rws, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3}, jackpottest.Royal(rws, 2, 2, 500)))
				clock.Advance(time.Second)
				applyAs(ctx, t, svc, id, jackpottest.RoundOf(rws, "T2", "r2", clock.Now(), 500, []int{1, 2, 3}, jackpottest.Royal(rws, 1, 1, 500)))
			}
			clock.Advance(3 * time.Second)
			_, paid, err := svc.Release(ctx, id)
			if err != nil || len(paid) != 2 || paid[0].Amount != c.want.a || paid[1].Amount != c.want.b {
				t.Fatalf("release: %v %+v", err, paid)
			}
			a, b := paid[0], paid[1]
			var recovery money.Amount
			if c.paid {
				if _, _, _, err := svc.Confirm(ctx, id, a.Seq, jackpottest.Supervisor, "c"); err != nil {
					t.Fatal(err)
				}
				if _, _, _, err := svc.MarkPaid(ctx, id, a.Seq, jackpottest.Cage, "p"); err != nil {
					t.Fatal(err)
				}
				res, _, err := svc.Correct(ctx, id, jackpot.Correction{Table: "T1", Round: "r1", Reason: "foreign card", Rules: []string{"rws-mlp-csp-v2 5.10"}}, jackpottest.Supervisor, jackpottest.Controller, "k")
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(res.Rules, "ruling R29") {
					t.Fatalf("the correction's answer cites %v", res.Rules)
				}
				recovery = res.HouseRecovery
			} else if _, _, _, err := svc.Void(ctx, id, a.Seq, "the ace was a king", jackpottest.Supervisor, jackpottest.Controller, "v"); err != nil {
				t.Fatal(err)
			}
			c.want.check(t, svc, id, b.Seq, recovery)
			undoneCitesR29(t, st, id, a.Seq)
		})
	}
}
