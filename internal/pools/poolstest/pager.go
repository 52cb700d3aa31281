package poolstest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// RunLedgerPager runs the contract of the optional pools.LedgerPager
// (ledger pages by sequence and time range, oldest or newest first)
// against the stores open returns; every store that implements it runs
// it beside Run.
func RunLedgerPager(t *testing.T, open Opener) {
	t.Run("LedgerPages", func(t *testing.T) {
		st := open(t)
		pager, ok := st.(pools.LedgerPager)
		if !ok {
			t.Fatalf("%T does not implement pools.LedgerPager", st)
		}
		ctx := context.Background()
		clock := jackpottest.NewClock(jackpottest.T0)
		svc := service(st, clock)
		if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
		for i := range 20 { // entries 2..21, one a minute from T0+1m
			clock.Advance(time.Minute)
			r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", fmt.Sprint("r", i), clock.Now(), 500, []int{1, 2, 3})
			if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
				t.Fatal(err)
			}
		}
		// A store that commits rounds beside the pool has their entries
		// in the ledger once they are folded into it: the service's
		// ledger reads fold first; the store's own pages are read here.
		if err := svc.Fold(ctx, "p"); err != nil {
			t.Fatal(err)
		}
		seqs := func(es []jackpot.Entry) string {
			var b strings.Builder
			for _, e := range es {
				fmt.Fprintf(&b, "%d ", e.Seq)
			}
			return strings.TrimSpace(b.String())
		}
		at := func(min int) time.Time { return jackpottest.T0.Add(time.Duration(min) * time.Minute) }
		for _, c := range []struct {
			name string
			q    pools.LedgerQuery
			want string
		}{
			{"oldest first", pools.LedgerQuery{Limit: 3}, "1 2 3"},
			{"after", pools.LedgerQuery{After: 19, Limit: 5}, "20 21"},
			{"newest first", pools.LedgerQuery{Limit: 3, Newest: true}, "21 20 19"},
			{"newest before", pools.LedgerQuery{Before: 5, Limit: 10, Newest: true}, "4 3 2 1"},
			{"newest after", pools.LedgerQuery{After: 18, Limit: 10, Newest: true}, "21 20 19"},
			{"between", pools.LedgerQuery{After: 5, Before: 9, Limit: 10}, "6 7 8"},
			{"empty range", pools.LedgerQuery{After: 5, Before: 6, Limit: 10}, ""},
			{"past the end", pools.LedgerQuery{After: 21, Limit: 10}, ""},
			{"time range", pools.LedgerQuery{From: at(3), To: at(6), Limit: 10}, "4 5 6"},
			{"time range newest", pools.LedgerQuery{From: at(3), Limit: 2, Newest: true}, "21 20"},
			{"time range limited", pools.LedgerQuery{From: at(3), To: at(6), Limit: 2}, "4 5"},
			{"time and seq", pools.LedgerQuery{From: at(3), Before: 5, Limit: 10}, "4"},
			{"no limit", pools.LedgerQuery{}, ""},
		} {
			es, err := pager.LedgerPage(ctx, "p", c.q)
			if err != nil || seqs(es) != c.want {
				t.Errorf("%s: %q %v; want %q", c.name, seqs(es), err, c.want)
			}
			// The service's page: the same, through the index or (a store
			// without one) through Ledger.
			for _, svc := range []*pools.Service{svc, service(struct{ pools.Store }{st}, clock)} {
				es, err := svc.LedgerPage(ctx, "p", c.q)
				if err != nil || seqs(es) != c.want {
					t.Errorf("%s, service over %T: %q %v; want %q", c.name, svc.Store, seqs(es), err, c.want)
				}
			}
		}
	})
}
