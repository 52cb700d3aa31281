package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/ledgerlog"
	"github.com/tablesettle/tablesettle/internal/localledger"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// loggedPool opens a store in dir with the local signing key and witness
// (localledger), and pool p: its opening, then rounds r0..r(n-1) at one a
// second, each on table t1; a checkpoint is published after the first
// cp rounds (every round's when each is set).
func loggedPool(t *testing.T, dir string, n, cp int, each bool) (*sqlite.Store, *pools.Service) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if svc.Signing, err = localledger.Open(dir); err != nil {
		t.Fatal(err)
	}
	svc.Signing.Every = time.Hour // the test publishes
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		clock.Advance(time.Second)
		if _, _, err := svc.ApplyRound(ctx, "p", round("r"+strconv.Itoa(i), clock.Now()), "", ""); err != nil {
			t.Fatal(err)
		}
		if each || i+1 == cp {
			if _, err := svc.PublishCheckpoint(ctx, "p"); err != nil {
				t.Fatal(err)
			}
		}
	}
	return st, svc
}

// reopen closes st, runs the insider's SQL on the database file, and
// opens it again with the same key.
func reopen(t *testing.T, dir string, st *sqlite.Store, edit func(db *sql.DB)) *pools.Service {
	t.Helper()
	st.Close()
	db, err := sql.Open("sqlite", filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	edit(db)
	db.Close()
	st = mustOpen(t, dir)
	svc := pools.NewService(st, time.Now, 1)
	if svc.Signing, err = localledger.Open(dir); err != nil {
		t.Fatal(err)
	}
	return svc
}

func insider(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// rehash rewrites every stored hash of pool p from the entries as they
// are now: an insider who has the code, and covers an edit with hashes
// that agree with it.
func rehash(t *testing.T, db *sql.DB) {
	t.Helper()
	rows, err := db.Query(`SELECT CAST(doc AS TEXT) FROM ledger WHERE pool = 'p' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	var es []jackpot.Entry
	for rows.Next() {
		var doc string
		var e jackpot.Entry
		if err := rows.Scan(&doc); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(doc), &e); err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	rows.Close()
	hs, err := ledgerlog.Append(tlog.HashReaderFunc(func([]int64) ([]tlog.Hash, error) { return nil, nil }), 0, es)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range es {
		insider(t, db, `UPDATE ledger SET hashes = ? WHERE pool = 'p' AND seq = ?`, ledgerlog.Pack(hs[i]), e.Seq)
	}
}

// problemNaming reports whether a reconciliation's problems name entry seq.
func problemNaming(r jackpot.Reconciliation, seq int64) bool {
	for _, p := range r.Problems {
		if strings.Contains(p, "entry "+strconv.FormatInt(seq, 10)+" ") {
			return true
		}
	}
	return false
}

// TestReconcileFromCheckpoint: issue 34 item 6. Reconcile starts from
// the latest checkpoint whose signature and root verify (at 11 entries:
// the opening and 10 rounds) and re-derives the 5 entries after it; its
// meters and rate sums are the checkpoint's extension lines plus theirs.
func TestReconcileFromCheckpoint(t *testing.T) {
	ctx := context.Background()
	st, svc := loggedPool(t, t.TempDir(), 15, 10, false)
	defer st.Close()
	r, err := svc.Reconcile(ctx, "p")
	if err != nil || !r.OK || r.From != 11 || r.Entries != 5 {
		t.Fatalf("reconcile: %+v %v; want ok from 11, 5 entries re-derived", r, err)
	}
	all, err := svc.ReconcileAll(ctx, "p")
	if err != nil || !all.OK || all.From != 0 || all.Entries != 16 || all.Rebuilt.Displayed != r.Rebuilt.Displayed || all.RateSum != r.RateSum {
		t.Fatalf("the whole ledger: %+v %v; want ok, 16 entries, the same meters and rate sums as %+v", all, err, r)
	}
	// 15 rounds of three SGD 5 wagers at 17.33%: 15 x 1500 x 1733 = 38,992,500.
	if r.RateSum != "38992500" {
		t.Fatalf("rate sum %s, want 38992500", r.RateSum)
	}
}

// TestTamperCaught: issue 34, must hold: tampering made directly in the
// SQLite file as an insider would is reported by reconcile, naming the
// seq. The pool has 16 entries (the opening and 15 rounds, seq 2-16); the
// checkpoint covers the first 11.
func TestTamperCaught(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		full bool // ReconcileAll: the edit is before the checkpoint
		each bool // a checkpoint after every round
		edit func(t *testing.T, db *sql.DB)
		seq  int64
	}{
		{name: "an entry's table, money untouched", seq: 14, edit: func(t *testing.T, db *sql.DB) {
			insider(t, db, `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.table', 'T7'), tbl = 'T7' WHERE pool = 'p' AND seq = 14`)
		}},
		{name: "an entry's actor, money untouched", seq: 13, edit: func(t *testing.T, db *sql.DB) {
			insider(t, db, `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.actor', json('{"id":"someone-else","role":"table"}')) WHERE pool = 'p' AND seq = 13`)
		}},
		{name: "the newest entry deleted", seq: 16, edit: func(t *testing.T, db *sql.DB) {
			insider(t, db, `DELETE FROM ledger WHERE pool = 'p' AND seq = 16`)
		}},
		{name: "the newest entry deleted, the pool's count with it", seq: 16, each: true, edit: func(t *testing.T, db *sql.DB) {
			insider(t, db, `DELETE FROM ledger WHERE pool = 'p' AND seq = 16`)
			insider(t, db, `UPDATE pools SET seq = 15, doc = json_set(CAST(doc AS TEXT), '$.seq', 15) WHERE id = 'p'`)
		}},
		{name: "two entries swapped", seq: 12, edit: func(t *testing.T, db *sql.DB) {
			insider(t, db, `UPDATE ledger SET doc = (SELECT json_set(CAST(o.doc AS TEXT), '$.seq', ledger.seq) FROM ledger o WHERE o.pool = 'p' AND o.seq = 27 - ledger.seq),
				round = (SELECT o.round FROM ledger o WHERE o.pool = 'p' AND o.seq = 27 - ledger.seq) WHERE pool = 'p' AND seq IN (12, 15)`)
		}},
		{name: "an entry and the meters changed consistently", seq: 15, edit: func(t *testing.T, db *sql.DB) {
			// SGD 1.00 more credited by entry 15, its rate sum and the
			// pool's meters with it: the meters reconcile.
			insider(t, db, `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.displayed', json_extract(doc, '$.displayed') + 100,
				'$.contributed', json_extract(doc, '$.contributed') + 100, '$.rateSum', json_extract(doc, '$.rateSum') + 1000000) WHERE pool = 'p' AND seq = 15`)
			insider(t, db, `UPDATE pools SET doc = json_set(CAST(doc AS TEXT), '$.meters.displayed', json_extract(doc, '$.meters.displayed') + 100,
				'$.meters.contributed', json_extract(doc, '$.meters.contributed') + 100) WHERE id = 'p'`)
		}},
		{name: "an entry before the checkpoint, its hashes left", seq: 5, full: true, edit: func(t *testing.T, db *sql.DB) {
			insider(t, db, `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.table', 'T7'), tbl = 'T7' WHERE pool = 'p' AND seq = 5`)
		}},
		{name: "an entry before the checkpoint, its hashes rewritten", seq: 5, each: true, edit: func(t *testing.T, db *sql.DB) {
			insider(t, db, `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.table', 'T7'), tbl = 'T7' WHERE pool = 'p' AND seq = 5`)
			rehash(t, db)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			st, svc := loggedPool(t, dir, 15, 10, tc.each)
			if r, err := svc.Reconcile(ctx, "p"); err != nil || !r.OK {
				t.Fatalf("before the edit: %+v %v", r, err)
			}
			if err := svc.VerifyPools(ctx); err != nil {
				t.Fatalf("the scheduled verifier before the edit: %v", err)
			}
			svc = reopen(t, dir, st, func(db *sql.DB) { tc.edit(t, db) })
			reconcile := svc.Reconcile
			if tc.full {
				reconcile = svc.ReconcileAll
			}
			r, err := reconcile(ctx, "p")
			if err != nil {
				t.Fatal(err)
			}
			if r.OK || !problemNaming(r, tc.seq) {
				t.Fatalf("after the edit: ok %v, problems %q; want entry %d named", r.OK, r.Problems, tc.seq)
			}
			// The serve loop's verifier reports it too (full: it is
			// before the checkpoint, which the verifier starts from).
			if err := svc.VerifyPools(ctx); !tc.full && (err == nil || !strings.Contains(err.Error(), "pool p does not verify")) {
				t.Fatalf("the scheduled verifier: %v", err)
			}
			t.Logf("reconcile from %d: %q", r.From, r.Problems)
		})
	}
}

// TestMigrationFillsHashes: schema version 4 fills the stored hashes of
// the entries a version 3 database holds, once: the root after the
// migration is the one the entries' commits wrote.
func TestMigrationFillsHashes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, svc := loggedPool(t, dir, 20, 0, false)
	_, root, err := svc.TreeHead(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	svc = reopen(t, dir, st, func(db *sql.DB) {
		insider(t, db, `DROP TABLE checkpoints; ALTER TABLE ledger DROP COLUMN hashes; PRAGMA user_version = 3`)
	})
	p, again, err := svc.TreeHead(ctx, "p")
	if err != nil || again != root || p.Seq != 21 {
		t.Fatalf("after the migration: root %x at %d, %v; want %x at 21", again, p.Seq, err, root)
	}
}

// TestLocalKeyFile: issue 34 item 2. The signing key is created at the
// first start, mode 0600, beside the database, and kept: a restart signs
// with the same key; a key file others may read is refused.
func TestLocalKeyFile(t *testing.T) {
	dir := t.TempDir()
	g, err := localledger.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, localledger.KeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v; want mode 0600", fi, err)
	}
	again, err := localledger.Open(dir)
	if err != nil || again.Keys[0] != g.Keys[0] || !strings.HasPrefix(g.Deployment, "tablesettle-local-") {
		t.Fatalf("restart: %v %v; want the same key %s", again, err, g.Keys[0])
	}
	os.Chmod(filepath.Join(dir, localledger.KeyFile), 0o644)
	if _, err := localledger.Open(dir); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a world-readable key: %v", err)
	}
}
