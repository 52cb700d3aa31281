package poolstest

import (
	"context"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// testUnitOnEveryRound: issue 33 item 4, ruling R22. A round whose
// progressiveUnit is not the pool's (501 on a pool of unit 500) is refused
// naming progressiveUnit, with or without a progressive wager, and
// writes nothing: the pool stays at version 1 with its opening meters.
// A round with the pool's unit and none, and one that sends no unit, are
// applied. A correction whose corrected round names another
// unit is refused naming corrected.progressiveUnit.
func testUnitOnEveryRound(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	opening := meters(t, svc, "p")
	for _, seats := range [][]int{nil, {1, 2}} {
		r := jackpottest.RoundOf(ssp, "t1", "r1", jackpottest.T0, 500, seats)
		r.ProgressiveUnit = 501
		_, _, err := svc.ApplyRound(ctx, "p", r, "", "")
		if e, ok := fault.As(err); !ok || e.Kind != fault.Invalid || e.Field() != "progressiveUnit" {
			t.Fatalf("unit 501 on a pool of 500 with %d progressive wagers: %v, want 422 naming progressiveUnit", len(seats), err)
		}
		p, err := svc.Get(ctx, "p")
		if err != nil || p.Version != 1 || p.Meters.Displayed != opening.Displayed || p.Meters.Reserve != opening.Reserve || p.Meters.Wagers != opening.Wagers {
			t.Fatalf("a refused round moved the pool: version %d, meters %+v (opening %+v), %v", p.Version, p.Meters, opening, err)
		}
	}
	r := jackpottest.RoundOf(ssp, "t1", "r1", jackpottest.T0, 500, nil)
	r.ProgressiveUnit = 500
	apply(t, svc, "p", r)
	apply(t, svc, "p", jackpottest.RoundOf(ssp, "t1", "r2", jackpottest.T0, 500, nil))
	// Applied (a store with contribution shards commits such rounds
	// beside the pool, which keeps its version): the same round again is
	// its first answer.
	if _, replayed, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil || !replayed {
		t.Fatalf("the round with the pool's unit again: replayed %v, %v", replayed, err)
	}
	corrected := jackpottest.RoundOf(ssp, "t1", "r1", jackpottest.T0, 500, nil)
	corrected.ProgressiveUnit = 501
	_, _, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeCorrection, Correction: &jackpot.Correction{Table: "t1", Round: "r1", Corrected: &corrected, Reason: "the unit"}}, jackpottest.Supervisor, "corr-1")
	if e, ok := fault.As(err); !ok || e.Kind != fault.Invalid || e.Field() != "corrected.progressiveUnit" {
		t.Fatalf("a correction to unit 501: %v, want 422 naming corrected.progressiveUnit", err)
	}
}
