package poolstest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// LockedSettings is MBSSettings with the jackpot lock on every
// percentage prize.
func LockedSettings() jackpot.Settings {
	s := jackpottest.MBSSettings()
	s.Verify = &jackpot.Verify{Percent: true}
	return s
}

const ssp = "mbs-megalink-ssp-v6"

// lockRound is three unit wagers at table, with a Royal Flush on seat 2
// when royal.
func lockRound(table, round string, royal bool) jackpot.Round {
	var hits []jackpot.Hit
	if royal {
		h := jackpottest.Royal(ssp, 2, 2, 500)
		h.Cards = "Ts Js Qs Ks As"
		hits = append(hits, h)
	}
	return jackpottest.RoundOf(ssp, table, round, jackpottest.T0, 500, []int{1, 2, 3}, hits...)
}

func apply(t *testing.T, svc *pools.Service, id string, r jackpot.Round) jackpot.RoundResult {
	t.Helper()
	res, _, err := svc.ApplyRound(context.Background(), id, r, "", "")
	if err != nil {
		t.Fatalf("round %s/%s: %v", r.Table, r.Round, err)
	}
	return res
}

func meters(t *testing.T, svc *pools.Service, id string) jackpot.Meters {
	t.Helper()
	p, err := svc.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Meters
}

// testLockConfirmed: a pending Royal confirmed, then paid (issue 13).
// The pool opens at 10,000,000; the round contributes 259 (3 x 500 x
// 17.33%, carry .95) and 77 to the reserve; the Royal is 10,000,259 (R3),
// the reset 10,000,000 funded by the reserve's 77 and the house's
// 9,999,923 (R21), all in the hit's commit.
func testLockConfirmed(t *testing.T, st pools.Store) {
	defer sameHitHistory(t, st, "p")
	defer sameInstants(t, st, "p")
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	if _, _, err := svc.Create(ctx, "p", LockedSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	res := apply(t, svc, "p", lockRound("T1", "r1", true))
	if len(res.Payouts) != 1 || res.Payouts[0].Status != jackpot.StatePending || res.Payouts[0].Amount != 10_000_259 || res.Payouts[0].DisplayedAfter != 10_000_000 {
		t.Fatalf("a Royal under the lock is committed pending at 10,000,259 with the pool reset: %+v", res.Payouts)
	}
	hits, err := svc.LockedHits(ctx, "p", "T1")
	if err != nil || len(hits) != 1 {
		t.Fatalf("pending hits of T1: %+v %v", hits, err)
	}
	h := hits[0]
	if h.State != jackpot.StatePending || h.Amount != 10_000_259 || h.Seat != 2 || h.Category != "royal_flush" || h.Cards != "Ts Js Qs Ks As" || h.Table != "T1" {
		t.Fatalf("pending hit %+v", h)
	}
	if other, _ := svc.LockedHits(ctx, "p", "T2"); len(other) != 0 {
		t.Fatalf("T2 has no pending hit: %+v", other)
	}
	if _, _, _, err := svc.MarkPaid(ctx, "p", h.Seq, jackpottest.Cage, "pay-early"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("the cage pays only a confirmed hit: %v", err)
	}
	if _, _, _, err := svc.Confirm(ctx, "p", h.Seq, jackpot.Actor{}, "c0"); fault.KindOf(err) != fault.Unauthenticated {
		t.Fatalf("a confirm without a principal: %v", err)
	}
	_, got, replayed, err := svc.Confirm(ctx, "p", h.Seq, jackpottest.Supervisor, "confirm-1")
	if err != nil || replayed || got.State != jackpot.StateConfirmed || got.ConfirmedBy == nil || *got.ConfirmedBy != jackpottest.Supervisor || got.ConfirmedAt == nil || !got.ConfirmedAt.Equal(jackpottest.T0) {
		t.Fatalf("confirm: %+v %v %v", got, replayed, err)
	}
	if _, again, replayed, err := svc.Confirm(ctx, "p", h.Seq, jackpottest.Supervisor, "confirm-1"); err != nil || !replayed || again.State != jackpot.StateConfirmed {
		t.Fatalf("the same confirm again answers the first answer: %+v %v %v", again, replayed, err)
	}
	if _, _, _, err := svc.Confirm(ctx, "p", h.Seq, jackpottest.Supervisor, "confirm-2"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("confirming twice: %v", err)
	}
	// Whoever verified the hit does not pay it: the supervisor's own id
	// acting as cage (one principal holding both roles) is refused (403)
	// and writes nothing (testLockConfirmerDoesNotPay: IAM sessions).
	if _, _, _, err := svc.MarkPaid(ctx, "p", h.Seq, jackpot.Actor{ID: jackpottest.Supervisor.ID, Role: "cage"}, "pay-by-sup"); fault.KindOf(err) != fault.Forbidden {
		t.Fatalf("the confirmer pays its own confirmed hit: %v, want Forbidden", err)
	}
	if es, _ := allEntries(ctx, st, "p"); es[len(es)-1].Kind != jackpot.KindHitConfirmed {
		t.Fatalf("a refused payment wrote %s", es[len(es)-1].Kind)
	}
	p, paid, _, err := svc.MarkPaid(ctx, "p", h.Seq, jackpottest.Cage, "pay-1")
	if err != nil || paid.State != jackpot.StatePaid || paid.PaidBy == nil || *paid.PaidBy != jackpottest.Cage {
		t.Fatalf("paid: %+v %v", paid, err)
	}
	m := p.Meters
	if m.Displayed != 10_000_000 || m.Reserve != 0 || m.HouseFunded != 19_999_923 || m.Hits["royal_flush"].Paid != 10_000_259 || m.Resets != 1 {
		t.Fatalf("after the confirmed Royal: %+v", m)
	}
	if left, _ := svc.LockedHits(ctx, "p", ""); len(left) != 0 {
		t.Fatalf("a paid hit leaves the lock: %+v", left)
	}
	es, _ := allEntries(ctx, st, "p")
	// The payment's note states the amount in money (issue 24: worded in
	// money, not cents).
	if last := es[len(es)-1]; last.Kind != jackpot.KindHitPaid || last.Note != "paid by the cage: SGD 100,002.59" {
		t.Fatalf("the payment's entry: %s %q, want hit_paid \"paid by the cage: SGD 100,002.59\"", last.Kind, last.Note)
	}
	var actors []string
	for _, e := range es {
		if e.Actor != nil {
			actors = append(actors, fmt.Sprintf("%s:%s/%s@%d", e.Kind, e.Actor.ID, e.Actor.Role, e.HitSeq))
		}
	}
	want := fmt.Sprintf("[opening:adm:al/admin@0 hit_confirmed:sup:ann/supervisor@%d hit_paid:cage:bo/cage@%d]", h.Seq, h.Seq)
	if fmt.Sprint(actors) != want {
		t.Fatalf("the ledger records who: %v, want %s", actors, want)
	}
	// The confirmation and the payment cite the rules the hit's prize
	// applied (the hit entry's), nothing else.
	var hitRules string
	for _, e := range es {
		if e.Seq == h.Seq {
			hitRules = fmt.Sprint(e.Rules)
		}
	}
	if hitRules == "[]" || hitRules == "" {
		t.Fatalf("the hit entry cites no rule")
	}
	for _, e := range es {
		if (e.Kind == jackpot.KindHitConfirmed || e.Kind == jackpot.KindHitPaid) && fmt.Sprint(e.Rules) != hitRules {
			t.Errorf("%s cites %v, want the hit's %s", e.Kind, e.Rules, hitRules)
		}
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testLockVoidAfterRounds: a pending Royal voided after three more rounds
// contributed. The three rounds contribute 260, 260, 260 (the carries of
// R1) and 78, 77, 78 to the reserve. The void returns 10,000,259 to the
// displayed meter and reverses the reset (10,000,000 out of the displayed
// meter; 77 back to the reserve, 9,999,923 back to the house): displayed
// 10,000,000 + 259 + 780 = 10,001,039, reserve 77 + 233 = 310, exactly as
// a twin pool that never had the hit.
func testLockVoidAfterRounds(t *testing.T, st pools.Store) {
	defer sameHitHistory(t, st, "p")
	defer sameInstants(t, st, "p")
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	res := royalThenThreeRounds(t, ctx, svc)
	if m := meters(t, svc, "p"); m.Displayed != 10_000_780 || m.Reserve != 233 {
		t.Fatalf("before the void: %+v", m)
	}
	seq := res.Payouts[0].Seq
	if _, _, _, err := svc.Void(ctx, "p", seq, "", jackpottest.Supervisor, jackpottest.Controller, "void-1"); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("a void states its reason: %v", err)
	}
	p, h, _, err := svc.Void(ctx, "p", seq, "the 10 of spades was a 10 of clubs", jackpottest.Supervisor, jackpottest.Controller, "void-1")
	if err != nil || h.State != jackpot.StateVoided || h.VoidedBy == nil || *h.VoidedBy != jackpottest.Supervisor {
		t.Fatalf("void: %+v %v", h, err)
	}
	m, twin := p.Meters, meters(t, svc, "twin")
	if m.Displayed != 10_001_039 || m.Reserve != 310 || m.HouseFunded != 10_000_000 || m.Resets != 0 || m.Hits["royal_flush"].Count != 0 || m.Hits["royal_flush"].Paid != 0 {
		t.Fatalf("after the void: %+v", m)
	}
	if m.Displayed != twin.Displayed || m.Reserve != twin.Reserve || m.Overflow != twin.Overflow || m.HouseFunded != twin.HouseFunded ||
		m.CarryDisplayed != twin.CarryDisplayed || m.CarryReserve != twin.CarryReserve || m.Contributed != twin.Contributed {
		t.Fatalf("the void leaves the meters as if the hit never happened:\n got %+v\ntwin %+v", m, twin)
	}
	if _, again, replayed, err := svc.Void(ctx, "p", seq, "the 10 of spades was a 10 of clubs", jackpottest.Supervisor, jackpottest.Controller, "void-1"); err != nil || !replayed || again.State != jackpot.StateVoided {
		t.Fatalf("the same void again: %+v %v %v", again, replayed, err)
	}
	// A voided hit exists: confirming it conflicts with its state (issue 22
	// item 8: 409, not the 404 of an unknown hit).
	if _, _, _, err := svc.Confirm(ctx, "p", seq, jackpottest.Supervisor, "confirm-after-void"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("a voided hit cannot be confirmed: %v", err)
	}
	if m := meters(t, svc, "p"); m.Displayed != 10_001_039 {
		t.Fatalf("the replayed void applied twice: %+v", m)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testLockTwoTables: a pending Royal at T1 (10,000,259; reset from the
// reserve's 77 and the house's 9,999,923) and one at T2 (10,000,260:
// 10,000,000 + 260 contributed; reset from 78 and 9,999,922), voided in
// either order: displayed 10,000,000 + 259 + 260 = 10,000,519, reserve
// 155, the house back to the opening seed.
func testLockTwoTables(t *testing.T, st pools.Store) {
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		reverse bool
		mid     int64 // the displayed meter after the first void
	}{
		{"other order (T2 first)", true, 10_000_260},
		{"commit order (T1 first)", false, 10_000_259},
	} {
		t.Run(c.name, func(t *testing.T) {
			svc := service(st, jackpottest.NewClock(jackpottest.T0))
			id := fmt.Sprintf("p-%v", c.reverse)
			if _, _, err := svc.Create(ctx, id, LockedSettings(), jackpottest.Admin); err != nil {
				t.Fatal(err)
			}
			a := apply(t, svc, id, lockRound("T1", "r1", true)).Payouts[0]
			b := apply(t, svc, id, lockRound("T2", "r1", true)).Payouts[0]
			if a.Amount != 10_000_259 || b.Amount != 10_000_260 || b.Status != jackpot.StatePending {
				t.Fatalf("the two hits: %+v %+v", a, b)
			}
			if all, _ := svc.LockedHits(ctx, id, ""); len(all) != 2 {
				t.Fatalf("two pending hits: %+v", all)
			}
			order := []int64{a.Seq, b.Seq}
			if c.reverse {
				order = []int64{b.Seq, a.Seq}
			}
			for i, seq := range order {
				p, _, _, err := svc.Void(ctx, id, seq, "misread", jackpottest.Supervisor, jackpottest.Controller, fmt.Sprint("void-", seq))
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 && int64(p.Meters.Displayed) != c.mid {
					t.Fatalf("after the first void: displayed %d, want %d", p.Meters.Displayed, c.mid)
				}
			}
			m := meters(t, svc, id)
			if m.Displayed != 10_000_519 || m.Reserve != 155 || m.HouseFunded != 10_000_000 || m.Resets != 0 {
				t.Fatalf("after both voids: %+v", m)
			}
			jackpottest.MustReconcile(t, svc, id)
		})
	}
}

// testLockConcurrent: writers apply rounds with Royals while a supervisor
// confirms or voids every pending hit as it appears, the cage pays the
// confirmed ones and a controller voids five rounds (R28): nothing is lost
// or doubled, and the ledger reconciles.
func testLockConcurrent(t *testing.T, st pools.Store, sc Scale) {
	defer sameHitHistory(t, st, "p")
	defer sameInstants(t, st, "p")
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	if _, _, err := svc.Create(ctx, "p", LockedSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	writers, rounds := sc.Writers, sc.Rounds/8
	done := make(chan struct{})
	errs := make(chan error, writers+1)
	for w := range writers {
		go func() {
			for i := range rounds {
				royal := i%25 == 7
				if _, _, err := svc.ApplyRound(ctx, "p", lockRound(fmt.Sprint("T", w), fmt.Sprint(i), royal), "", ""); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	// Rounds of table T0 the controller voids while the writers run.
	targets := []string{"3", "13", "23", "33", "43"}
	corrected := map[string]bool{}
	go func() {
		defer close(done)
		n := 0
		for {
			for _, r := range targets {
				if corrected[r] {
					continue
				}
				void := jackpot.Correction{Table: "T0", Round: r, Reason: "two cards exposed", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}
				switch _, _, err := svc.Correct(ctx, "p", void, jackpottest.Supervisor, jackpottest.Controller, "void-jackpottest.T0-"+r); {
				case err == nil:
					corrected[r] = true
				case fault.KindOf(err) != fault.NotFound:
					errs <- err
					return
				}
			}
			select {
			case <-time.After(2 * time.Millisecond):
			}
			hits, err := svc.LockedHits(ctx, "p", "")
			if err != nil {
				errs <- err
				return
			}
			for _, h := range hits {
				var err error
				switch {
				case h.State == jackpot.StateConfirmed:
					_, _, _, err = svc.MarkPaid(ctx, "p", h.Seq, jackpottest.Cage, fmt.Sprint("pay-", h.Seq))
				case n%2 == 0:
					_, _, _, err = svc.Confirm(ctx, "p", h.Seq, jackpottest.Supervisor, fmt.Sprint("confirm-", h.Seq))
				default:
					_, _, _, err = svc.Void(ctx, "p", h.Seq, "misread", jackpottest.Supervisor, jackpottest.Controller, fmt.Sprint("void-", h.Seq))
				}
				n++
				if err != nil && fault.KindOf(err) != fault.Conflict && fault.KindOf(err) != fault.NotFound {
					errs <- err
					return
				}
			}
			if p, _ := svc.Get(ctx, "p"); p.Meters.Wagers == int64(3*writers*rounds-3*len(targets)) && len(corrected) == len(targets) && len(p.LockedHits("")) == 0 {
				return
			}
		}
	}()
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-done:
	case err := <-errs:
		t.Fatal(err)
	case <-time.After(60 * time.Second):
		t.Fatal("the supervisor never cleared the lock")
	}
	p, err := svc.Get(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	if p.Meters.Wagers != int64(3*writers*rounds-3*len(targets)) {
		t.Fatalf("wagers %d, want %d less the %d voided rounds'", p.Meters.Wagers, 3*writers*rounds, len(targets))
	}
	rec := jackpottest.MustReconcile(t, svc, "p")
	var paid, voided int64
	es, _ := allEntries(ctx, st, "p")
	for _, e := range es {
		switch e.Kind {
		case jackpot.KindHitPaid:
			paid++
		case jackpot.KindHitVoid:
			voided++
		}
	}
	if paid+voided != int64(writers*((rounds+17)/25)) || rec.Rebuilt.Hits["royal_flush"].Count != paid {
		t.Fatalf("%d paid and %d voided of %d Royals; the meters count %d", paid, voided, writers*((rounds+17)/25), rec.Rebuilt.Hits["royal_flush"].Count)
	}
}

// testLockHeldRWS: an RWS Royal held for the settle window (R7) enters
// the lock when its window closes: paid from the pool as it stands then
// (R21) as a pending hit, which a void reverses.
func testLockHeldRWS(t *testing.T, st pools.Store) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	s := jackpottest.RWSSettings()
	s.Verify = &jackpot.Verify{Percent: true}
	if _, _, err := svc.Create(ctx, "rws", s, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const rws = "rws-mlp-csp-v2"
	res := apply(t, svc, "rws", jackpottest.RoundOf(rws, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3}, jackpottest.Royal(rws, 2, 2, 500)))
	if res.Payouts[0].Status != "held" {
		t.Fatalf("held first (R7): %+v", res.Payouts)
	}
	clock.Advance(3 * time.Second)
	res = apply(t, svc, "rws", jackpottest.RoundOf(rws, "T2", "r1", clock.Now(), 500, []int{1, 2, 3}))
	// Released before T2's contribution: 10,000,000 + 259 (R4 of T1's round).
	if len(res.Released) != 1 || res.Released[0].Status != jackpot.StatePending || res.Released[0].Amount != 10_000_259 {
		t.Fatalf("released into the lock: %+v", res.Released)
	}
	hits, _ := svc.LockedHits(ctx, "rws", "T1")
	if len(hits) != 1 || hits[0].Amount != 10_000_259 {
		t.Fatalf("pending after the window: %+v", hits)
	}
	p, _, _, err := svc.Void(ctx, "rws", hits[0].Seq, "misread", jackpottest.Supervisor, jackpottest.Controller, "v")
	if err != nil {
		t.Fatal(err)
	}
	// 10,000,000 + 259 + 260 (T2's round), as if the Royal never was.
	if p.Meters.Displayed != 10_000_519 || p.Meters.Reserve != 155 || p.Meters.HouseFunded != 10_000_000 {
		t.Fatalf("after the void: %+v", p.Meters)
	}
	jackpottest.MustReconcile(t, svc, "rws")
}

// royalThenThreeRounds opens pool "p" under the lock and its twin "twin",
// applies round r1 (a pending Royal at "p", the same round without it at
// the twin) and three more rounds to both, and returns r1's result at "p".
func royalThenThreeRounds(t *testing.T, ctx context.Context, svc *pools.Service) jackpot.RoundResult {
	t.Helper()
	for _, id := range []string{"p", "twin"} {
		if _, _, err := svc.Create(ctx, id, LockedSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	res := apply(t, svc, "p", lockRound("T1", "r1", true))
	apply(t, svc, "twin", lockRound("T1", "r1", false))
	for i := 2; i <= 4; i++ {
		apply(t, svc, "p", lockRound("T1", fmt.Sprint("r", i), false))
		apply(t, svc, "twin", lockRound("T1", fmt.Sprint("r", i), false))
	}
	return res
}

// testLockConfirmerDoesNotPay: in the stack, ann's supervisor session
// confirms a pending Royal (10,000,259); ann's session of the cage role
// (another principal, the same person) may not mark it paid (403, nothing
// written, the hit still confirmed); bo's cage session does, and the hit
// leaves the lock with the meters as any paid Royal leaves them.
func testLockConfirmerDoesNotPay(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	annSup, annCage, boCage := session("supervisor", "ann"), session("cage", "ann"), session("cage", "bo")
	if _, _, err := svc.Create(ctx, "p", LockedSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	res := apply(t, svc, "p", lockRound("T1", "r1", true))
	if len(res.Payouts) != 1 || res.Payouts[0].Amount != 10_000_259 {
		t.Fatalf("the pending Royal: %+v", res.Payouts)
	}
	hits, _ := svc.LockedHits(ctx, "p", "")
	seq := hits[0].Seq
	if _, _, _, err := svc.Confirm(ctx, "p", seq, annSup, "confirm-ann"); err != nil {
		t.Fatal(err)
	}
	before, _ := allEntries(ctx, st, "p")
	if _, _, _, err := svc.MarkPaid(ctx, "p", seq, annCage, "pay-ann"); fault.KindOf(err) != fault.Forbidden {
		t.Fatalf("ann pays the hit ann confirmed: %v, want Forbidden", err)
	}
	if after, _ := allEntries(ctx, st, "p"); len(after) != len(before) {
		t.Fatalf("a refused payment wrote %d entries", len(after)-len(before))
	}
	if still, _ := svc.LockedHits(ctx, "p", ""); len(still) != 1 || still[0].State != jackpot.StateConfirmed {
		t.Fatalf("after the refusal: %+v", still)
	}
	p, paid, _, err := svc.MarkPaid(ctx, "p", seq, boCage, "pay-bo")
	if err != nil || paid.State != jackpot.StatePaid || *paid.PaidBy != boCage || *paid.ConfirmedBy != annSup {
		t.Fatalf("bo pays: %+v %v", paid, err)
	}
	if m := p.Meters; m.Displayed != 10_000_000 || m.Hits["royal_flush"].Paid != 10_000_259 || m.Resets != 1 {
		t.Fatalf("after the paid Royal: %+v", m)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testVoidOfAVoidedHit: issue 33 item 10 (docs/edge.md). A hit already
// voided, whether by an approved void (hit_void) or by a correction that
// took it back after it was paid (house_recovery), is a conflict with its
// state on every lock operation and on a proposal or an approval of its
// void: 409 at path.seq naming the entry that voided it, never a 404
// (which stays for a hit that never was).
func testVoidOfAVoidedHit(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	if _, _, err := svc.Create(ctx, "p", LockedSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	voidedBy := func(seq int64, kind jackpot.Kind) int64 {
		t.Helper()
		es, err := allEntries(ctx, st, "p")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Kind == kind && e.HitSeq == seq {
				return e.Seq
			}
		}
		t.Fatalf("no %s entry for hit %d", kind, seq)
		return 0
	}
	conflict := func(what string, seq, by int64, err error) {
		t.Helper()
		fe, ok := fault.As(err)
		want := fmt.Sprintf("hit %d is voided by entry %d", seq, by)
		if !ok || fe.Kind != fault.Conflict || fe.Field() != jackpot.FieldHit || fe.Fields[0].Value != seq || !strings.Contains(fe.Detail, want) {
			t.Fatalf("%s: %v, want a conflict at the hit (path.seq) saying %q", what, err, want)
		}
	}
	// A pending Royal voided under dual control.
	seq := apply(t, svc, "p", lockRound("T1", "r1", true)).Payouts[0].Seq
	void := jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: seq, Reason: "misread"}}
	_, pr, _, err := svc.Propose(ctx, "p", void, jackpottest.Supervisor, "v1")
	if err != nil {
		t.Fatal(err)
	}
	// A second proposal made before the first is approved.
	other := jackpot.Actor{ID: "sup:ben", Role: "supervisor"}
	if _, _, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "ok1"); err != nil {
		t.Fatal(err)
	}
	by := voidedBy(seq, jackpot.KindHitVoid)
	_, _, _, err = svc.Propose(ctx, "p", void, other, "v2")
	conflict("a void proposed again", seq, by, err)
	_, _, _, err = svc.Void(ctx, "p", seq, "misread", other, jackpottest.Controller, "v3")
	conflict("a void signed at once", seq, by, err)
	_, _, _, err = svc.Confirm(ctx, "p", seq, other, "c1")
	conflict("a confirmation", seq, by, err)
	if _, _, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: 999, Reason: "misread"}}, other, "v4"); fault.KindOf(err) != fault.NotFound {
		t.Fatalf("a hit that never was: %v, want not found", err)
	}

	// A Royal confirmed, paid, then taken back by its round's correction.
	seq = apply(t, svc, "p", lockRound("T2", "r1", true)).Payouts[0].Seq
	if _, _, _, err := svc.Confirm(ctx, "p", seq, jackpottest.Supervisor, "c2"); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := svc.MarkPaid(ctx, "p", seq, jackpottest.Cage, "p2"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Correct(ctx, "p", jackpot.Correction{Table: "T2", Round: "r1", Reason: "two cards exposed", Rules: []string{ssp + " 5.4"}},
		jackpottest.Supervisor, jackpottest.Controller, "k"); err != nil {
		t.Fatal(err)
	}
	by = voidedBy(seq, jackpot.KindHouseRecovery)
	_, _, _, err = svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: seq, Reason: "misread"}}, other, "v5")
	conflict("a void of a hit a correction took back", seq, by, err)
	jackpottest.MustReconcile(t, svc, "p")
}
