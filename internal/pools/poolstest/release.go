package poolstest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// testThirtyDue: issue 13 defect 1. Thirty RWS Straight Flushes held at
// once (reported in the reverse of their dealing order) are all paid when
// their window closes, in dealt order, each 10% of the pool as the
// previous left it (R3, R6, R7, R21), before the next round contributes.
func testThirtyDue(t *testing.T, st pools.Store) {
	defer sameHitHistory(t, st, "rws")
	defer sameInstants(t, st, "rws")
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	if _, _, err := svc.Create(ctx, "rws", jackpottest.RWSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const n = 30
	const rws = "rws-mlp-csp-v2"
	for i := range n {
		dealt := jackpottest.T0.Add(time.Duration(n-i) * time.Millisecond) // the last reported was dealt first
		r := jackpottest.RoundOf(rws, fmt.Sprintf("T%02d", i), "r1", dealt, 500, []int{1, 2, 3}, jackpottest.StraightFlush(rws, 1, 1, 500))
		if res, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil || res.Payouts[0].Status != "held" {
			t.Fatalf("round %d: %+v %v", i, res.Payouts, err)
		}
	}
	before, err := svc.Get(ctx, "rws")
	if err != nil {
		t.Fatal(err)
	}
	// 30 rounds of 3 x 500 at 17.33%: 30 x 2,599,500 / 10,000 = 7,798.5.
	if before.Meters.Displayed != 10_007_798 || len(before.Held) != n {
		t.Fatalf("before the window closes: %+v held %d", before.Meters, len(before.Held))
	}
	clock.Advance(3 * time.Second)
	after := jackpottest.RoundOf(rws, "T99", "r1", clock.Now(), 500, []int{1, 2, 3})
	if _, _, err := svc.ApplyRound(tablePrincipal("T99"), "rws", after, "", ""); err != nil {
		t.Fatal(err)
	}
	es, err := allEntries(ctx, st, "rws")
	if err != nil {
		t.Fatal(err)
	}
	pool := before.Meters.Displayed
	var paid []string
	contributedAt := -1
	for i, e := range es {
		if e.Seq <= before.Seq {
			continue
		}
		// The releases, commit after commit, are the service's clock's;
		// T99's round is T99's (issue 33 item 5).
		by := pools.Clock
		if e.Kind == jackpot.KindContribution {
			by = jackpot.Actor{ID: "tbl:T99", Role: string(principal.Table)}
		}
		if e.Actor == nil || *e.Actor != by {
			t.Errorf("entry %d (%s, table %s) by %+v, want %+v", e.Seq, e.Kind, e.Table, e.Actor, by)
		}
		switch e.Kind {
		case jackpot.KindHit:
			want := pool / 10 // 10% of the pool as it stands, rounded down (R3)
			if e.Paid != want || contributedAt >= 0 {
				t.Fatalf("hit %d (%s) paid %d, want %d, before the contribution", len(paid), e.Table, e.Paid, want)
			}
			pool -= want
			paid = append(paid, e.Table)
		case jackpot.KindContribution:
			contributedAt = i
		}
	}
	if len(paid) != n {
		t.Fatalf("%d of %d due hits paid: %v", len(paid), n, paid)
	}
	for i, table := range paid {
		if want := fmt.Sprintf("T%02d", n-1-i); table != want {
			t.Fatalf("payment %d went to %s, want %s (dealt order, R7)", i, table, want)
		}
	}
	// The first is 1,000,779, the last 10% of what 29 payments left.
	if first := es[before.Seq].Paid; first != 1_000_779 {
		t.Fatalf("the first payment %d, want 1,000,779", first)
	}
	p, _ := svc.Get(ctx, "rws")
	if p.Meters.Displayed != pool+260 || len(p.Held) != 0 {
		t.Fatalf("after: displayed %d, want %d + the round's 260; held %d", p.Meters.Displayed, pool, len(p.Held))
	}
	jackpottest.MustReconcile(t, svc, "rws")
}

// HeldRoyal builds what a store's held index is checked with (its
// TestHeldIndex): two RWS pools with a 5 s settle window, "rws" and
// "quiet", and at T0 a Royal on rws, held until T0+5s (ruling R7). It
// returns the service on its clock, at T0.
func HeldRoyal(t testing.TB, st pools.Store) (*pools.Service, *jackpottest.Clock) {
	t.Helper()
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	s := jackpottest.RWSSettings()
	s.SettleWindowMS = 5000
	for _, id := range []string{"rws", "quiet"} {
		if _, _, err := svc.Create(ctx, id, s, jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	const rws = "rws-mlp-csp-v2"
	r := jackpottest.RoundOf(rws, "T1", "r1", jackpottest.T0, 500, []int{1}, jackpottest.Royal(rws, 1, 1, 500))
	if _, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil {
		t.Fatal(err)
	}
	return svc, clock
}

// testReleaseActors: issue 33 item 5. A held RWS hit of table T1 is paid
// under the actor docs/floor.md names, whatever finds its window closed:
// a round of another table (T2, whose own contribution still names T2),
// a read of the floor by a supervisor, and the sweep are the service's
// clock (service/clock); the Release button names the supervisor who
// pressed it. Each release pays a Straight Flush, 10% of the pool as it
// stands (R3, R7, R21).
func testReleaseActors(t *testing.T, st pools.Store) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	s := jackpottest.RWSSettings()
	s.Tables = []string{"T1", "T2"}
	if _, _, err := svc.Create(ctx, "rws", s, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const rws = "rws-mlp-csp-v2"
	t1, t2 := tablePrincipal("T1"), tablePrincipal("T2")
	sup := principal.NewContext(ctx, &principal.Principal{ID: "sup:ann", Roles: []principal.Role{principal.Supervisor}, Acting: principal.Supervisor})
	supervisor := jackpot.Actor{ID: "sup:ann", Role: string(principal.Supervisor)}
	table2 := jackpot.Actor{ID: "tbl:T2", Role: string(principal.Table)}
	for i, c := range []struct {
		trigger string
		release func(round string) error
		want    jackpot.Actor
	}{
		{"a round of table T2", func(round string) error {
			_, _, err := svc.ApplyRound(t2, "rws", jackpottest.RoundOf(rws, "T2", round, clock.Now(), 500, []int{1}), "", "")
			return err
		}, pools.Clock},
		{"a supervisor's read", func(string) error { _, err := svc.Fresh(sup, "rws"); return err }, pools.Clock},
		{"the sweep", func(string) error { _, err := svc.SweepHeld(ctx); return err }, pools.Clock},
		{"the Release button", func(string) error { _, _, err := svc.Release(sup, "rws"); return err }, supervisor},
	} {
		round := fmt.Sprintf("r%d", i+1)
		held := applyAs(t1, t, svc, "rws", jackpottest.RoundOf(rws, "T1", round, clock.Now(), 500, []int{1}, jackpottest.StraightFlush(rws, 1, 1, 500)))
		if len(held.Payouts) != 1 || held.Payouts[0].Status != "held" {
			t.Fatalf("%s: T1's Straight Flush %+v, want held", c.trigger, held.Payouts)
		}
		before, err := svc.Get(ctx, "rws")
		if err != nil {
			t.Fatal(err)
		}
		clock.Advance(3 * time.Second)
		if err := c.release(round); err != nil {
			t.Fatalf("%s: %v", c.trigger, err)
		}
		es, err := allEntries(ctx, st, "rws")
		if err != nil {
			t.Fatal(err)
		}
		paid := 0
		for _, e := range es[before.Seq:] {
			want := c.want
			if e.Kind == jackpot.KindContribution {
				want = table2 // T2's own round, after the release (R4)
			}
			if e.Actor == nil || *e.Actor != want {
				t.Errorf("%s: entry %d (%s, table %s) by %+v, want %+v", c.trigger, e.Seq, e.Kind, e.Table, e.Actor, want)
			}
			if e.Kind == jackpot.KindHit {
				paid++
				if want := before.Meters.Displayed / 10; e.Paid != want || e.Table != "T1" || e.HeldSeq != held.Payouts[0].Seq {
					t.Errorf("%s: paid %d to %s for held %d, want %d to T1 for %d", c.trigger, e.Paid, e.Table, e.HeldSeq, want, held.Payouts[0].Seq)
				}
			}
		}
		if paid != 1 {
			t.Fatalf("%s: %d payments, want 1", c.trigger, paid)
		}
	}
	jackpottest.MustReconcile(t, svc, "rws")
}

// tablePrincipal is a request of table id's principal, tbl:<id>.
func tablePrincipal(id string) context.Context {
	return principal.NewContext(context.Background(), &principal.Principal{ID: "tbl:" + id, Roles: []principal.Role{principal.Table}, Tables: []string{id}, Acting: principal.Table})
}
