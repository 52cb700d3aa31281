package filestore_test

import (
	"context"
	"testing"

	"github.com/tablesettle/tablesettle/internal/filestore"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

func TestContract(t *testing.T) {
	jackpottest.Run(t, func(t *testing.T) pools.Store {
		st, err := filestore.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return st
	}, jackpottest.Scale{Writers: 8, Rounds: 400})
}

// TestSurvivesRestart: the embedded store keeps its pools across restarts.
func TestSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := filestore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r1", jackpottest.T0, 500, []int{1, 2})
	first, _, err := svc.ApplyRound(ctx, "p", r, "", "")
	if err != nil {
		t.Fatal(err)
	}
	st2, err := filestore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	svc2 := pools.NewService(st2, clock.Now, 1)
	p, err := svc2.Get(ctx, "p")
	if err != nil || p.Meters.Wagers != 2 || p.Meters.Displayed != first.Meters.Displayed {
		t.Fatalf("after restart: %+v %v", p.Meters, err)
	}
	again, replayed, err := svc2.ApplyRound(ctx, "p", r, "", "")
	if err != nil || !replayed || again.Meters != first.Meters {
		t.Fatalf("the round record survives the restart: %v %v", replayed, err)
	}
	jackpottest.MustReconcile(t, svc2, "p")
}
