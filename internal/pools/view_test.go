package pools_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// A pool as a client reads it: its settings as sent (they round-trip), its
// casino, no held hit as an empty list; an RWS Royal held for its window
// (ruling R7), then committed under the jackpot lock (at or above SGD
// 10,000): listed among the last hits as pending, not paid, and locked.
func TestView(t *testing.T) {
	s := jackpottest.RWSSettings()
	s.Verify = &jackpot.Verify{AtOrAbove: 1_000_000}
	if got := pools.SettingsOf(s).Domain(); !reflect.DeepEqual(got, s) {
		t.Fatalf("settings round trip:\n got %+v\nwant %+v", got, s)
	}
	svc, clock, p := openPool(t, "rws", s)
	ctx := context.Background()
	v := svc.View(p)
	if v.Casino != "RWS" || v.Held == nil || len(v.Held) != 0 || len(v.LastHits) != 0 || v.Settings.Verify.AtOrAbove != 1_000_000 || v.Entries != 1 {
		t.Fatalf("a new pool: %+v", v)
	}
	r := jackpottest.RoundOf("rws-mlp-csp-v2", "T1", "r1", jackpottest.T0, 500, []int{1}, jackpottest.Royal("rws-mlp-csp-v2", 1, 1, 500))
	if _, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil {
		t.Fatal(err)
	}
	p, _ = svc.Get(ctx, "rws")
	if v := svc.View(p); len(v.Held) != 1 || len(v.LastHits) != 0 {
		t.Fatalf("held: %+v, last hits %+v", v.Held, v.LastHits)
	}
	clock.Advance(3 * time.Second)
	p, err := svc.Fresh(ctx, "rws")
	if err != nil {
		t.Fatal(err)
	}
	v = svc.View(p)
	if len(v.Held) != 0 || len(v.LastHits) != 1 || v.LastHits[0].State != jackpot.StatePending || v.LastHits[0].PaidAt != nil ||
		v.LastHits[0].Paid != 10_000_086 || len(v.Locked) != 1 || v.Locked[0].Seq != v.LastHits[0].Seq {
		t.Fatalf("committed: held %+v, last hits %+v, locked %+v", v.Held, v.LastHits, v.Locked)
	}
}

// Open proposals (dual control, issue 16) are those not yet expired, each
// with its effect: a reserve top-up of SGD 500 moves the reserve 0 to
// 50,000; after the default 30 minutes it is no longer open.
func TestOpenProposals(t *testing.T) {
	svc, clock, _ := openPool(t, "p", jackpottest.MBSSettings())
	ctx := context.Background()
	ch := jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &jackpot.Adjustment{Meter: "reserve", Amount: 50_000, Reason: "top-up"}}
	p, _, _, err := svc.Propose(ctx, "p", ch, jackpottest.Admin, "k1")
	if err != nil {
		t.Fatal(err)
	}
	open := svc.OpenProposals(ctx, p)
	if len(open) != 1 || open[0].Effect.Meters["reserve"] != (pools.MeterEffect{Before: 0, After: 50_000}) || open[0].Effect.Error != "" {
		t.Fatalf("open: %+v", open)
	}
	clock.Advance(30*time.Minute + time.Second)
	if open := svc.OpenProposals(ctx, p); open == nil || len(open) != 0 {
		t.Fatalf("after expiry: %+v (want an empty list)", open)
	}
}
