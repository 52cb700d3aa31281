package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// legacyFile copies internal/sqlite's pools.json of the earlier JSON
// store into dir.
func legacyFile(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile("../../internal/sqlite/testdata/pools-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, sqlite.LegacyFileName)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFirstStartImportsPoolsJSON (issue 23): serve's first start in a
// data directory that holds the earlier JSON store's pools.json imports
// it, once; the file stays.
func TestFirstStartImportsPoolsJSON(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	legacy := legacyFile(t, data)
	var out bytes.Buffer
	st, err := openStore(ctx, data, &out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "imported 2 pools (28 ledger entries, 42 round records)") {
		t.Fatalf("first start said %q", out.String())
	}
	st.Close()
	if _, err := os.Stat(legacy); err != nil {
		t.Fatalf("the JSON file is gone: %v", err)
	}
	out.Reset()
	st, err = openStore(ctx, data, &out)
	if err != nil || out.Len() != 0 {
		t.Fatalf("second start: %v, said %q; want no second import", err, out.String())
	}
	st.Close()
}

// TestFirstStartRefusesABadPoolsJSON: a pools.json that cannot be
// imported stops serve with the reason; nothing is imported.
func TestFirstStartRefusesABadPoolsJSON(t *testing.T) {
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, sqlite.LegacyFileName), []byte(`{"format":1,"pools":`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := openStore(context.Background(), data, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "it is not a pools file") || !strings.Contains(err.Error(), "untouched") {
		t.Fatalf("bad file: %v", err)
	}
}

// TestStoreCommands: store import, backup and check; check exits
// non-zero (an error) when a pool does not reconcile.
func TestStoreCommands(t *testing.T) {
	data := t.TempDir()
	legacy := legacyFile(t, t.TempDir())
	var out bytes.Buffer
	if err := store([]string{"import", legacy, "-data", data}, &out); err != nil {
		t.Fatal(err)
	}
	if err := store([]string{"check", "-data", data}, &out); err != nil {
		t.Fatalf("check: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "integrity: ok") || !strings.Contains(out.String(), "ok: 2 pools reconcile") {
		t.Fatalf("check said:\n%s", out.String())
	}
	backup := filepath.Join(t.TempDir(), "copy.db")
	if err := store([]string{"backup", backup, "-data", data}, &out); err != nil {
		t.Fatal(err)
	}
	if err := store([]string{"backup", backup, "-data", data}, &out); err == nil {
		t.Fatal("a backup over an existing file was written")
	}
	// The backup is a store: move it into a data directory and check it.
	restored := t.TempDir()
	if err := os.Rename(backup, filepath.Join(restored, sqlite.FileName)); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := store([]string{"check", "-data", restored}, &out); err != nil || !strings.Contains(out.String(), "ok: 2 pools reconcile") {
		t.Fatalf("check of the backup: %v\n%s", err, out.String())
	}
	// A ledger entry deleted behind the store's back: check fails.
	db, err := sql.Open("sqlite", filepath.Join(data, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM ledger WHERE pool = 'mbs-1' AND seq = 23`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out.Reset()
	if err := store([]string{"check", "-data", data}, &out); !errors.Is(err, errDiffers) {
		t.Fatalf("check of a damaged store: %v; want it to fail", err)
	}
	if !strings.Contains(out.String(), "pool mbs-1: 22 ledger entries stored, the pool counts 23") {
		t.Fatalf("check said:\n%s", out.String())
	}
	if err := store([]string{"check", "-data", t.TempDir()}, &out); err == nil {
		t.Fatal("check of a directory without a store succeeded")
	}
}
