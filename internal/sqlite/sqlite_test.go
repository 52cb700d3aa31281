package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/pools/poolstest"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// mustOpen opens the store in dir, closed with the test.
func mustOpen(tb testing.TB, dir string) *sqlite.Store {
	tb.Helper()
	st, err := sqlite.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

func TestContract(t *testing.T) {
	poolstest.Run(t, func(t *testing.T) pools.Store {
		return mustOpen(t, t.TempDir())
	}, poolstest.Scale{Writers: 8, Rounds: 400})
	poolstest.RunLedgerPager(t, func(t *testing.T) pools.Store { return mustOpen(t, t.TempDir()) })
}

// round is an MBS round of three unit wagers at table t1.
func round(id string, at time.Time, hits ...jackpot.Hit) jackpot.Round {
	return jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", id, at, 500, []int{1, 2, 3}, hits...)
}

// TestSurvivesRestart: the embedded store keeps its pools, ledgers and
// round records across restarts: a round sent again after a restart is
// a replay of the first answer, not applied twice.
func TestSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	r := round("r1", jackpottest.T0)
	first, _, err := svc.ApplyRound(ctx, "p", r, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	svc2 := pools.NewService(mustOpen(t, dir), clock.Now, 1)
	p, err := svc2.Get(ctx, "p")
	// 3 wagers x 500 x 17.33% = 259.95: 259 credited to the displayed meter.
	if err != nil || p.Meters.Wagers != 3 || p.Meters.Displayed != 10_000_259 || p.Meters.Displayed != first.Meters.Displayed {
		t.Fatalf("after restart: %+v %v", p.Meters, err)
	}
	again, replayed, err := svc2.ApplyRound(ctx, "p", r, "", "")
	if err != nil || !replayed || again.Meters != first.Meters {
		t.Fatalf("the round record survives the restart: %v %v", replayed, err)
	}
	jackpottest.MustReconcile(t, svc2, "p")
}

// TestWritersQueueInTheDatabase: eight writers of one pool never lose
// the version race: each change reads and commits the pool in one
// IMMEDIATE transaction (pools.Serializer), so no request backs off and
// retries, and every round is applied exactly once.
func TestWritersQueueInTheDatabase(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t, t.TempDir())
	svc := pools.NewService(st, time.Now, 1)
	var mu sync.Mutex
	backoffs := 0
	svc.Sleep = func(context.Context, time.Duration) error { mu.Lock(); backoffs++; mu.Unlock(); return nil }
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				// Every round is sent twice, by two writers at once.
				r := round(fmt.Sprintf("r%d", (w/2)*each+i), jackpottest.T0)
				if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	p, _ := svc.Get(ctx, "p")
	// 100 distinct rounds of 3 wagers: 300 wagers, 100 round entries after the opening.
	if p.Meters.Wagers != 300 || p.Seq != 101 || backoffs != 0 {
		t.Fatalf("wagers %d seq %d backoffs %d; want 300, 101, 0", p.Meters.Wagers, p.Seq, backoffs)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// TestSchemaVersion: a new database is at this build's schema version
// (PRAGMA user_version); one written by a newer build is refused, not
// read with a schema this build does not know.
func TestSchemaVersion(t *testing.T) {
	dir := t.TempDir()
	st, err := sqlite.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil || v != sqlite.SchemaVersion() || v < 1 {
		t.Fatalf("user_version %d %v; want %d", v, err, sqlite.SchemaVersion())
	}
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode %q %v; want wal", mode, err)
	}
	if _, err := db.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, sqlite.SchemaVersion()+1)); err != nil {
		t.Fatal(err)
	}
	if st, err := sqlite.Open(dir); err == nil || !strings.Contains(err.Error(), "newer") {
		if st != nil {
			st.Close()
		}
		t.Fatalf("a newer schema: %v; want refused", err)
	}
}

// TestCommitInTransactionIsWhole: a commit that fails inside a serialized
// change (its round record exists) leaves nothing of itself behind, and
// the change's earlier commit stands.
func TestCommitInTransactionIsWhole(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t, t.TempDir())
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	p, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	err = st.Serialize(ctx, "p", func(ctx context.Context) error {
		q, es, res, err := jackpot.Apply(p, round("r1", jackpottest.T0), clock.Now())
		if err != nil {
			return err
		}
		rec := jackpot.RoundRecord{Pool: "p", Key: jackpot.RoundKey("t1", "r1"), Table: "t1", Round: "r1", Fingerprint: "f", Result: res}
		if err := st.Commit(ctx, jackpot.Commit{PrevVersion: p.Version, Pool: q, Entries: es, Records: []jackpot.RoundRecord{rec}}); err != nil {
			return err
		}
		q2, es2, _, err := jackpot.Apply(q, round("r2", jackpottest.T0), clock.Now())
		if err != nil {
			return err
		}
		// The same record key again: refused, and its entries and pool with it.
		return st.Commit(ctx, jackpot.Commit{PrevVersion: q.Version, Pool: q2, Entries: es2, Records: []jackpot.RoundRecord{rec}})
	})
	if !errors.Is(err, jackpot.ErrConflict) {
		t.Fatalf("second commit: %v; want ErrConflict", err)
	}
	got, _ := st.Pool(ctx, "p")
	es, _ := st.Ledger(ctx, "p", 0, 10)
	if got.Version != 2 || got.Seq != 2 || got.Meters.Wagers != 3 || len(es) != 2 {
		t.Fatalf("version %d seq %d wagers %d entries %d; want the first commit only (2, 2, 3, 2)", got.Version, got.Seq, got.Meters.Wagers, len(es))
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// The held index (ruling R7, schema version 2): a pool holding an RWS
// Royal until its settle window closes (5 s after T0) is listed by
// HeldDue from that instant, not 1 ms before, and a pool holding nothing
// never; a database written before the index (schema version 1: the
// column dropped again) gets it when it is opened; once a sweep of a
// service that never saw the pool (serve restarted) has paid the Royal,
// SGD 100,000.86, the pool is listed no more.
func TestHeldIndex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st := mustOpen(t, dir)
	_, clock := poolstest.HeldRoyal(t, st)
	due := jackpottest.T0.Add(5 * time.Second)
	listed := func(st *sqlite.Store, at time.Time, want ...string) {
		t.Helper()
		got, err := st.HeldDue(ctx, at)
		if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("HeldDue(%s) = %v, %v; want %v", at.Format(time.RFC3339Nano), got, err, want)
		}
	}
	listed(st, due.Add(-time.Millisecond))
	listed(st, due, "rws")
	st.Close()

	db, err := sql.Open("sqlite", filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DROP TABLE checkpoints; ALTER TABLE ledger DROP COLUMN hashes; DROP INDEX ledger_hits; ALTER TABLE ledger DROP COLUMN hit_kind; DROP INDEX pools_held_due; ALTER TABLE pools DROP COLUMN held_due; PRAGMA user_version = 1`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	st = mustOpen(t, dir)
	listed(st, due.Add(-time.Millisecond))
	listed(st, due, "rws")

	clock.Advance(5 * time.Second)
	rel, err := pools.NewService(st, clock.Now, 2).SweepHeld(ctx)
	if err != nil || len(rel) != 1 || len(rel[0].Paid) != 1 || rel[0].Paid[0].Amount != 10_000_086 {
		t.Fatalf("the sweep after the restart: %+v, %v; want the Royal paid, SGD 100,000.86", rel, err)
	}
	listed(st, due)
}

// TestHitIndex: the floor's hit history and a slip read the pool's
// entries about hits from the partial index ledger_hits (schema version
// 3), never the whole ledger, which grows with every round; a version 2
// file gets the index, its hits marked, when it is opened.
func TestHitIndex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st := mustOpen(t, dir)
	plan, err := sqlite.HitEntriesPlan(ctx, st)
	if err != nil || !strings.Contains(plan, "USING INDEX ledger_hits") {
		t.Fatalf("HitEntries' plan: %q, %v; want it to search ledger_hits", plan, err)
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	// 40 rounds, a Straight Flush on seat 2 in every tenth (ruling R3:
	// 10% of the pool each).
	for i := range 40 {
		at := jackpottest.T0.Add(time.Duration(i) * time.Second)
		r := round("r"+strconv.Itoa(i), at)
		if i%10 == 9 {
			r = round("r"+strconv.Itoa(i), at, jackpottest.StraightFlush("mbs-megalink-ssp-v6", 2, 2, 500))
		}
		if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	history := func(st *sqlite.Store) ([]jackpot.FloorHit, []jackpot.Entry) {
		t.Helper()
		p, err := pools.NewService(st, clock.Now, 1).Get(ctx, "p")
		if err != nil {
			t.Fatal(err)
		}
		hs, err := pools.NewService(st, clock.Now, 1).Hits(ctx, p, "all", "", 100)
		if err != nil {
			t.Fatal(err)
		}
		es, err := st.HitEntries(ctx, "p", p.Seq+1, 100)
		if err != nil {
			t.Fatal(err)
		}
		return hs, es
	}
	hits, entries := history(st)
	if len(hits) != 4 || len(entries) != 4 {
		t.Fatalf("%d hits from %d entries about hits; want the 4 Straight Flushes", len(hits), len(entries))
	}
	for i, e := range entries {
		if e.Kind != jackpot.KindHit || e.Round != "r"+strconv.Itoa(39-10*i) {
			t.Fatalf("entry %d about a hit: %s of %s; want the hit of r%d, newest first", i, e.Kind, e.Round, 39-10*i)
		}
	}
	st.Close()

	db, err := sql.Open("sqlite", filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DROP TABLE checkpoints; ALTER TABLE ledger DROP COLUMN hashes; DROP INDEX ledger_hits; ALTER TABLE ledger DROP COLUMN hit_kind; PRAGMA user_version = 2`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	st = mustOpen(t, dir)
	again, entries := history(st)
	if !reflect.DeepEqual(again, hits) || len(entries) != 4 {
		t.Fatalf("after the migration from version 2: %d hits from %d entries about hits; want the same 4", len(again), len(entries))
	}
}

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
// and none of the rest (no hit is open at its end); the meters at its
// start read the same page. A pool
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
	if want := jackpot.StampsOf(whole); !reflect.DeepEqual(p.Stamps, want) || p.Stamps.Lag != 0 || p.Stamps.Through != 5101 {
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
	if w, pg, h := cs.reads(); w != 0 || pg != 1000 || h != 0 {
		t.Fatalf("the last 10 minutes read %d entries whole, %d back from the end, %d about hits; want 0, 1,000 and none (no hit open at its end)", w, pg, h)
	}
	// With a hit before the shift open at its end (the pool's lock holding
	// round r4357's Straight Flush), the report reads the entries about
	// hits back to it: the 88 read in one page, those before it left.
	opened := p
	for _, e := range whole {
		if e.Kind == jackpot.KindHit && e.Round == "r4357" {
			opened.Locked = []jackpot.LockedHit{{Seq: e.Seq, State: jackpot.StatePending, Table: e.Table, Round: e.Round, Seat: e.Seat, Category: e.Category, Amount: e.Paid}}
		}
	}
	if len(opened.Locked) != 1 {
		t.Fatal("no hit in round r4357")
	}
	if err := sqlite.BulkLoad(ctx, st, opened, nil, nil); err != nil {
		t.Fatal(err)
	}
	got, err = svc.Report(ctx, "bench", from, to)
	if want, werr := jackpot.ShiftReport(opened, whole, from, to); err != nil || werr != nil || !reflect.DeepEqual(got, want) || len(got.Liabilities.Pending) != 1 {
		t.Fatalf("with a hit open: %v %v\n got %+v\nwant %+v", err, werr, got.Liabilities, want.Liabilities)
	}
	if w, pg, h := cs.reads(); w != 0 || pg != 1000 || h != 88 {
		t.Fatalf("with a hit open: %d entries whole, %d back from the end, %d about hits; want 0, 1,000 and 88", w, pg, h)
	}
	if err := sqlite.BulkLoad(ctx, st, p, nil, nil); err != nil {
		t.Fatal(err)
	}

	// The meters at its start: the same page (the hits per category are
	// the pool's less the page's, by the pool's stamps).
	asOf, err := svc.MetersAt(ctx, "bench", from)
	if want, werr := jackpot.MetersAt("bench", whole, from); err != nil || werr != nil || !reflect.DeepEqual(asOf, want) {
		t.Fatalf("as of the last 10 minutes: %v %v\n got %+v\nwant %+v", err, werr, asOf, want)
	}
	if w, pg, h := cs.reads(); w != 0 || pg != 1000 || h != 0 {
		t.Fatalf("as of the last 10 minutes: %d entries whole, %d back from the end, %d about hits; want 0, 1,000 and none", w, pg, h)
	}

	// The meters at the first round's time read back to it: every entry.
	asOf, err = svc.MetersAt(ctx, "bench", at(0))
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
	if err != nil || !reflect.DeepEqual(q.Stamps, p.Stamps) || q.Version != p.Version+1 || q.Seq != p.Seq || !reflect.DeepEqual(q.Meters, p.Meters) {
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
