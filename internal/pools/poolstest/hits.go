package poolstest

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// sameHitHistory checks, at the end of a case that left hits of every
// kind in pools ids, that the floor's hit history and jackpot slips read
// from the store's entries about hits alone (pools.HitLedger, page by page
// from the newest) are what the whole ledger gives: for every table and
// every limit, and with pages of 1, 2, 3 and the default 64 entries. It
// checks too that the entries about hits (jackpot.Kind.AboutHit) are all
// jackpot.AllHits reads. A store without a HitLedger passes trivially (it
// is read whole).
func sameHitHistory(t *testing.T, st pools.Store, ids ...string) {
	t.Helper()
	if t.Failed() {
		return
	}
	ctx := context.Background()
	now := time.Now()
	for _, id := range ids {
		p, err := pools.NewService(st, func() time.Time { return now }, 1).Get(ctx, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		var about []jackpot.Entry
		ledger := wholeLedger(t, st, id)
		tables := []string{""}
		for _, e := range ledger {
			if e.Kind.AboutHit() {
				about = append(about, e)
				if !slices.Contains(tables, e.Table) {
					tables = append(tables, e.Table)
				}
			}
		}
		all := jackpot.AllHits(p, ledger, "", 0, now)
		if !reflect.DeepEqual(jackpot.AllHits(p, about, "", 0, now), all) {
			t.Fatalf("%s: the entries about hits tell another history than the ledger", id)
		}
		if len(all) == 0 {
			t.Fatalf("%s: no hit to check the history with", id)
		}
		for _, page := range []int{1, 2, 3, 0} {
			svc := pools.NewService(st, func() time.Time { return now }, 1)
			svc.HitPage = page
			for _, table := range tables {
				for limit := 1; limit <= len(all)+1; limit++ {
					got, err := svc.Hits(ctx, p, "all", table, limit)
					if want := jackpot.AllHits(p, ledger, table, limit, now); err != nil || !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: hits of table %q, limit %d, pages of %d: %v\n got %+v\nwant %+v", id, table, limit, page, err, got, want)
					}
				}
			}
			for _, h := range all {
				slip, err := svc.Slip(ctx, id, h.Seq)
				if h.State != jackpot.StatePaid {
					if err == nil {
						t.Fatalf("%s: a slip for hit %d, which is %s", id, h.Seq, h.State)
					}
					continue
				}
				if want := jackpot.SlipOf(p, h); err != nil || !reflect.DeepEqual(slip, want) {
					t.Fatalf("%s: slip of hit %d, pages of %d: %v\n got %+v\nwant %+v", id, h.Seq, page, err, slip, want)
				}
			}
		}
	}
}
