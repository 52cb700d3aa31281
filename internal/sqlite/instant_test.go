package sqlite_test

import (
	"context"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// countingStore is a SQLite store that counts the ledger entries it
// returns, by way of reading.
type countingStore struct {
	*sqlite.Store
	whole, page, hits atomic.Int64
}

func (c *countingStore) Ledger(ctx context.Context, id string, after int64, limit int) ([]jackpot.Entry, error) {
	es, err := c.Store.Ledger(ctx, id, after, limit)
	c.whole.Add(int64(len(es)))
	return es, err
}

func (c *countingStore) LedgerPage(ctx context.Context, id string, q pools.LedgerQuery) ([]jackpot.Entry, error) {
	es, err := c.Store.LedgerPage(ctx, id, q)
	c.page.Add(int64(len(es)))
	return es, err
}

func (c *countingStore) HitEntries(ctx context.Context, id string, before int64, limit int) ([]jackpot.Entry, error) {
	es, err := c.Store.HitEntries(ctx, id, before, limit)
	c.hits.Add(int64(len(es)))
	return es, err
}

func (c *countingStore) reads() (whole, page, hits int64) {
	return c.whole.Swap(0), c.page.Swap(0), c.hits.Swap(0)
}

// TestInstantReadsTheTail: a shift report (issue 24 item 8) and the
// meters as they stood at an instant (issue 13 item 3, RWS 5.18.1) read
// the ledger from its end back to the instant, not from the pool's
// opening, so that they cost as much in a pool's hundredth week as in its
// first, and answer as the whole ledger does. The pool has 5,000 rounds a
// second apart (one in 50 a Straight Flush: 5,101 entries); the report of
// its last 10 minutes reads one page of 1,000 entries back from the end
// and the 88 entries about hits before it, none of the rest. A pool
// written before its stamps were kept is read whole once, as before, and
// then keeps its ledger's stamps; a store that cannot read its ledger
// newest first is read whole.
func TestInstantReadsTheTail(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t, t.TempDir())
	cs := &countingStore{Store: st}
	opening := jackpottest.T0.Add(-time.Second)
	svc := pools.NewService(cs, func() time.Time { return opening }, 1)
	p, _, err := svc.Create(ctx, "bench", jackpottest.MBSSettings(), jackpottest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	p = grow(t, st, p, 0, 5000)
	if p.Seq != 5101 {
		t.Fatalf("%d entries, want 5,101", p.Seq)
	}
	whole := wholeOf(t, st, "bench")
	if want := jackpot.StampsOf(whole); p.Stamps != want || p.Stamps.Lag != 0 || p.Stamps.Through != 5101 {
		t.Fatalf("stamps %+v, the ledger's %+v", p.Stamps, want)
	}
	at := func(s int) time.Time { return jackpottest.T0.Add(time.Duration(s) * time.Second) }
	cs.reads()

	from, to := at(4399), at(5000)
	got, err := svc.Report(ctx, "bench", from, to)
	if err != nil {
		t.Fatal(err)
	}
	want, err := jackpot.ShiftReport(p, whole, from, to)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("the last 10 minutes: %v\n got %+v\nwant %+v", err, got, want)
	}
	if got.Contributed.Rounds != 600 || len(got.Hits) != 12 {
		t.Fatalf("the last 10 minutes: %d rounds, %d hits; want 600 and 12", got.Contributed.Rounds, len(got.Hits))
	}
	if w, pg, h := cs.reads(); w != 0 || pg != 1000 || h != 88 {
		t.Fatalf("the last 10 minutes read %d entries whole, %d back from the end, %d about hits; want 0, 1,000 and 88", w, pg, h)
	}

	// The meters at the first round's time read back to it: every entry.
	asOf, err := svc.MetersAt(ctx, "bench", at(0))
	if want, werr := jackpot.MetersAt("bench", whole, at(0)); err != nil || werr != nil || !reflect.DeepEqual(asOf, want) {
		t.Fatalf("as of the first round: %v %v\n got %+v\nwant %+v", err, werr, asOf, want)
	}
	if w, pg, _ := cs.reads(); w != 0 || pg != 5101 {
		t.Fatalf("as of the first round: %d entries whole, %d back from the end; want 0 and 5,101", w, pg)
	}

	// Written before stamps were kept: read whole once, then from the end.
	legacy := p
	legacy.Stamps = jackpot.Stamps{}
	if err := sqlite.BulkLoad(ctx, st, legacy, nil, nil); err != nil {
		t.Fatal(err)
	}
	for i, wantWhole := range []int64{5101, 0} {
		asOf, err := svc.MetersAt(ctx, "bench", at(4990))
		if want, werr := jackpot.MetersAt("bench", whole, at(4990)); err != nil || werr != nil || !reflect.DeepEqual(asOf, want) {
			t.Fatalf("legacy, read %d: %v %v\n got %+v\nwant %+v", i, err, werr, asOf, want)
		}
		if w, _, _ := cs.reads(); w != wantWhole {
			t.Fatalf("legacy, read %d: %d entries read whole, want %d", i, w, wantWhole)
		}
	}
	q, err := st.Pool(ctx, "bench")
	if err != nil || q.Stamps != p.Stamps || q.Version != p.Version+1 || q.Seq != p.Seq || !reflect.DeepEqual(q.Meters, p.Meters) {
		t.Fatalf("legacy after its whole read: %v: stamps %+v version %d seq %d; want %+v, %d, %d and the meters unchanged", err, q.Stamps, q.Version, q.Seq, p.Stamps, p.Version+1, p.Seq)
	}

	// A store that reads its ledger oldest first only: read whole.
	plain := pools.NewService(struct{ pools.Store }{cs}, svc.Now, 1)
	got, err = plain.Report(ctx, "bench", from, to)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("plain store: %v\n got %+v\nwant %+v", err, got, want)
	}
	if w, pg, _ := cs.reads(); w != 5101 || pg != 0 {
		t.Fatalf("plain store: %d entries whole, %d back from the end; want 5,101 and 0", w, pg)
	}
}

// wholeOf is pool id's whole ledger, oldest first.
func wholeOf(t *testing.T, st *sqlite.Store, id string) []jackpot.Entry {
	t.Helper()
	var all []jackpot.Entry
	for after := int64(0); ; {
		es, err := st.Ledger(context.Background(), id, after, 1000)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, es...)
		if len(es) < 1000 {
			return all
		}
		after = es[len(es)-1].Seq
	}
}
