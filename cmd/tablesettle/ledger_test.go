package main

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/localledger"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// loggedData writes, in dir, the embedded store of serve with the local
// key and witness, and pool p: its opening and 15 rounds on table t1 at
// one a second (16 entries), a checkpoint published after every round
// (each) or after the tenth only (size 11). It returns the open service.
func loggedData(t *testing.T, dir string, each bool) (*sqlite.Store, *pools.Service) {
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
	for i := range 15 {
		clock.Advance(time.Second)
		r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r"+strconv.Itoa(i), clock.Now(), 500, []int{1, 2, 3})
		if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
			t.Fatal(err)
		}
		if each || i == 9 {
			if _, err := svc.PublishCheckpoint(ctx, "p"); err != nil {
				t.Fatal(err)
			}
		}
	}
	return st, svc
}

func runLedger(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := ledger(args, &out)
	return out.String(), err
}

// TestLedgerVerifyAccepts: issue 34 item 7. What the service writes
// verifies from -data, from an export of -data, and from the service's
// URL, each with a one-line summary: 16 entries, the latest checkpoint
// at 16, every consistency proof between the 16 checkpoints (one at the opening).
func TestLedgerVerifyAccepts(t *testing.T) {
	dir := t.TempDir()
	st, svc := loggedData(t, dir, true)
	h, _ := httpapi.New(httpapi.Deps{Pools: svc, Logger: slog.New(slog.DiscardHandler)})
	srv := httptest.NewServer(h)
	defer srv.Close()
	out, err := runLedger(t, "verify", "-url", srv.URL, "-pool", "p")
	if err != nil || !strings.HasPrefix(out, "ok: pool p: 16 entries, 1 checkpoints verified (latest size 16") || !strings.Contains(out, "2 inclusion proofs verified") {
		t.Fatalf("verify -url: %v\n%s", err, out)
	}
	st.Close()

	out, err = runLedger(t, "verify", "-data", dir)
	if err != nil || !strings.HasPrefix(out, "ok: pool p: 16 entries, 16 checkpoints verified (latest size 16") || !strings.Contains(out, "15 consistency and 2 inclusion proofs verified, 0 entries after") {
		t.Fatalf("verify -data: %v\n%s", err, out)
	}
	exp := filepath.Join(t.TempDir(), "export")
	if _, err := runLedger(t, "export", "-data", dir, "-pool", "p", "-out", exp); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(exp, "entries.jsonl"))
	if err != nil || bytes.Count(b, []byte("\n")) != 16 || !bytes.HasPrefix(b, []byte(`{"pool":"p","seq":1,`)) {
		t.Fatalf("entries.jsonl: %v\n%s", err, b)
	}
	again, err := runLedger(t, "verify", exp)
	if err != nil || again != out {
		t.Fatalf("verify of the export: %v\n%s\nwant\n%s", err, again, out)
	}
}

func insider(t *testing.T, db *sql.DB, query string) {
	t.Helper()
	if _, err := db.Exec(query); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// TestLedgerVerifyCatchesTampering: issue 34 item 7 and "must hold":
// each edit made directly in the SQLite file as an insider would, the
// service stopped, makes `ledger verify -data` (and the verify of an
// export made after the edit) exit non-zero naming the seq. The pool has
// 16 entries (the opening, rounds at seq 2-16), a checkpoint after every
// round, or only at size 11 (sparse).
func TestLedgerVerifyCatchesTampering(t *testing.T) {
	for _, tc := range []struct {
		name   string
		sparse bool
		edit   string
		seq    int64
	}{
		{name: "an entry's table, money untouched", seq: 14,
			edit: `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.table', 'T7'), tbl = 'T7' WHERE pool = 'p' AND seq = 14`},
		{name: "an entry's actor, money untouched", seq: 13,
			edit: `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.actor', json('{"id":"someone-else","role":"table"}')) WHERE pool = 'p' AND seq = 13`},
		{name: "an entry's money", seq: 9,
			edit: `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.contributed', json_extract(doc, '$.contributed') + 1) WHERE pool = 'p' AND seq = 9`},
		{name: "an entry's table before a sparse checkpoint", sparse: true, seq: 5,
			edit: `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.table', 'T7'), tbl = 'T7' WHERE pool = 'p' AND seq = 5`},
		{name: "the newest entry deleted, the pool's count with it", seq: 16,
			edit: `DELETE FROM ledger WHERE pool = 'p' AND seq = 16;
				UPDATE pools SET seq = 15, doc = json_set(CAST(doc AS TEXT), '$.seq', 15) WHERE id = 'p'`},
		{name: "two entries swapped", seq: 12,
			edit: `UPDATE ledger SET doc = (SELECT json_set(CAST(o.doc AS TEXT), '$.seq', ledger.seq) FROM ledger o WHERE o.pool = 'p' AND o.seq = 27 - ledger.seq),
				round = (SELECT o.round FROM ledger o WHERE o.pool = 'p' AND o.seq = 27 - ledger.seq) WHERE pool = 'p' AND seq IN (12, 15)`},
		{name: "two entries swapped with their seq", seq: 12,
			edit: `UPDATE ledger SET doc = (SELECT o.doc FROM ledger o WHERE o.pool = 'p' AND o.seq = 27 - ledger.seq) WHERE pool = 'p' AND seq IN (12, 15)`},
		{name: "an entry and the meters changed consistently", seq: 15,
			edit: `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.displayed', json_extract(doc, '$.displayed') + 100,
				'$.contributed', json_extract(doc, '$.contributed') + 100, '$.rateSum', json_extract(doc, '$.rateSum') + 1000000) WHERE pool = 'p' AND seq = 15;
				UPDATE pools SET doc = json_set(CAST(doc AS TEXT), '$.meters.displayed', json_extract(doc, '$.meters.displayed') + 100,
				'$.meters.contributed', json_extract(doc, '$.meters.contributed') + 100) WHERE id = 'p'`},
		{name: "an entry and its stored hashes rewritten", seq: 7,
			edit: `UPDATE ledger SET doc = json_set(CAST(doc AS TEXT), '$.table', 'T7'), tbl = 'T7', hashes = zeroblob(length(hashes)) WHERE pool = 'p' AND seq = 7`},
		{name: "a checkpoint's signature altered", seq: 10,
			edit: `UPDATE checkpoints SET note = CAST(substr(CAST(note AS TEXT), 1, length(note) - 11) || CASE substr(CAST(note AS TEXT), length(note) - 10, 1) WHEN 'A' THEN 'B' ELSE 'A' END || substr(CAST(note AS TEXT), length(note) - 9) AS BLOB) WHERE pool = 'p' AND size = 10`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			st, _ := loggedData(t, dir, !tc.sparse)
			st.Close()
			if out, err := runLedger(t, "verify", "-data", dir, "-pool", "p"); err != nil {
				t.Fatalf("before the edit: %v\n%s", err, out)
			}
			db, err := sql.Open("sqlite", filepath.Join(dir, sqlite.FileName))
			if err != nil {
				t.Fatal(err)
			}
			insider(t, db, tc.edit)
			db.Close()
			want := "FAIL p: seq " + strconv.FormatInt(tc.seq, 10) + ": "
			out, err := runLedger(t, "verify", "-data", dir, "-pool", "p")
			if err != errLedgerDiffers || !strings.HasPrefix(out, want) {
				t.Fatalf("after the edit: %v\n%s\nwant %q", err, out, want)
			}
			t.Log(strings.TrimSpace(out))
			exp := filepath.Join(t.TempDir(), "export")
			if _, err := runLedger(t, "export", "-data", dir, "-pool", "p", "-out", exp); err != nil {
				t.Fatal(err)
			}
			again, err := runLedger(t, "verify", exp)
			if err != errLedgerDiffers || !strings.HasPrefix(again, "FAIL "+exp+": seq "+strconv.FormatInt(tc.seq, 10)+": ") {
				t.Fatalf("the export after the edit: %v\n%s", err, again)
			}
		})
	}
}
