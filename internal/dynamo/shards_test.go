package dynamo_test

import (
	"context"
	"testing"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// A round committed beside the pool and folded with others is voided
// (R28): the fold wrote each round's own entry with its own sequence
// number, as the serial path would have, so the void reverses that entry
// (its answer lists its real sequence number) and the meters are then, to
// the fraction, a twin pool's that never had it (R1: credited x 10000 +
// carried == sum(wager x rate) of the rounds that stand). Rounds r0, r1
// and r2 (tables T0, T1 and T2: 1, 3 and 2 unit wagers at 17.33% and
// 5.17%) wait in the shards; r3's Four of a Kind (house-paid) folds them,
// one entry each; r1 is then voided.
func TestVoidOfARoundFoldedWithOthers_R28(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	st := dynamo.New(dynamo.LocalClient(ep), newTable(t, ep)).WithShards(dynamo.DefaultShards)
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	const ssp = "mbs-megalink-ssp-v6"
	for _, id := range []string{"p", "twin"} {
		if _, _, err := svc.Create(ctx, id, jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	r0 := jackpottest.RoundOf(ssp, "T0", "r0", jackpottest.T0, 500, []int{1})
	r1 := jackpottest.RoundOf(ssp, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3})
	r2 := jackpottest.RoundOf(ssp, "T2", "r2", jackpottest.T0, 500, []int{1, 2})
	r3 := jackpottest.RoundOf(ssp, "T3", "r3", jackpottest.T0, 500, []int{1}, jackpottest.FourOfAKind(ssp, 1, 1, 500))
	for _, a := range []struct {
		pool string
		r    jackpot.Round
	}{{"p", r0}, {"p", r1}, {"p", r2}, {"p", r3}, {"twin", r0}, {"twin", r2}, {"twin", r3}} {
		// Each round signed by its table's principal (every entry carries it).
		tctx := principal.NewContext(ctx, &principal.Principal{ID: "table:" + a.r.Table, Roles: []principal.Role{principal.Table}, Acting: principal.Table})
		if _, _, err := svc.ApplyRound(tctx, a.pool, a.r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	es, err := st.Ledger(ctx, "p", 0, 10)
	if err != nil || len(es) != 6 {
		t.Fatalf("want opening, r0, r1 and r2's own entries, r3's contribution and hit: %+v %v", es, err)
	}
	var r1Seq int64
	var credited, carried int64
	for i, want := range map[string]int64{"r0": 1, "r1": 3, "r2": 2} {
		found := 0
		for _, e := range es[1:4] {
			if e.Round == i && e.Kind == jackpot.KindContribution && e.Wagers == want && e.WagerAmount == 500*money.Amount(want) &&
				e.Actor != nil && e.Actor.ID == "table:"+e.Table && e.Actor.Role == string(principal.Table) && e.Commit != "" {
				found++
				if i == "r1" {
					r1Seq = e.Seq
				}
				credited += int64(e.Contributed)
				carried += e.CarryDisplayed
			}
		}
		if found != 1 {
			t.Fatalf("round %s: %d own entries among %+v", i, found, es[1:4])
		}
	}
	// 3000 x 17.33% = 519.90: 519 credited, 0.90 carried, over the three (R1).
	if credited != 519 || carried != 9000 {
		t.Fatalf("the three rounds credited %d and carried %d, want 519 and 9000", credited, carried)
	}
	corr := jackpot.Correction{Table: "T1", Round: "r1", Reason: "misdeal", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}
	res, _, err := svc.Correct(ctx, "p", corr, jackpottest.Supervisor, jackpottest.Controller, "void-r1")
	if err != nil {
		t.Fatal(err)
	}
	// r1 credited 1500 x 17.33% = 259.95 and 1500 x 5.17% = 77.55.
	if res.Difference.Displayed != -259 && res.Difference.Displayed != -260 {
		t.Fatalf("the void took back %+v", res.Difference)
	}
	if len(res.Reversed) != 1 || res.Reversed[0] != r1Seq {
		t.Fatalf("the void reversed %v, want r1's own entry %d", res.Reversed, r1Seq)
	}
	p, _ := svc.Get(ctx, "p")
	twin, _ := svc.Get(ctx, "twin")
	if p.Meters.Displayed != twin.Meters.Displayed || p.Meters.Reserve != twin.Meters.Reserve ||
		p.Meters.CarryDisplayed != twin.Meters.CarryDisplayed || p.Meters.CarryReserve != twin.Meters.CarryReserve || p.Meters.Wagers != twin.Meters.Wagers {
		t.Fatalf("after the void %+v, the twin without r1 %+v", p.Meters, twin.Meters)
	}
	jackpottest.MustReconcile(t, svc, "p")
	jackpottest.LedgerHasEveryRound(t, st, "twin", 3)
}
