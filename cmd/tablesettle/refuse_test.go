package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// buildBinary builds the command into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tablesettle")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// realDatabase is a data directory whose pools.db the service created and
// wrote 300 rounds of three tables to (one MBS pool), closed: the WAL is
// folded into the file.
func realDatabase(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	st, err := sqlite.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc := pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "T"+string(rune('1'+i%3)), "r"+strings.Repeat("x", 40)+string(rune('0'+i/100))+string(rune('0'+i/10%10))+string(rune('0'+i%10)), jackpottest.T0, 500, []int{1, 2, 3})
		if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return data
}

// junkOverPages writes junk over n pages of the round records of the
// database file at path, from the root page of its records table on, as
// a disk fault or an insider writing to the file would: the bytes, not
// through SQLite.
func junkOverPages(t *testing.T, path string, n int) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var root, size, count int64
	err = db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = 'records'`).Scan(&root)
	if err == nil {
		err = db.QueryRow(`PRAGMA page_size`).Scan(&size)
	}
	if err == nil {
		err = db.QueryRow(`PRAGMA page_count`).Scan(&count)
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if root+int64(n)-1 > count {
		t.Fatalf("records' root page %d + %d pages is past the file's %d", root, n, count)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	junk := bytes.Repeat([]byte("junk\xff\x00\x13"), int(size)*n/8)
	if _, err := f.WriteAt(junk, (root-1)*size); err != nil {
		t.Fatal(err)
	}
}

// TestRefusesADatabaseItDidNotCreate (issue 33 item 6): serve does not
// start, and store check exits non-zero, on a pools.db the service did
// not create (a zero-byte file, a file of junk) or one that fails SQLite's
// quick check (junk written over two pages of a real database's round
// records); each says which file and how to restore it
// (docs/store.md), and leaves the file as it was. A data directory
// without a pools.db starts: the service creates it.
func TestRefusesADatabaseItDidNotCreate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary: not in -short")
	}
	bin := buildBinary(t)
	for _, c := range []struct {
		name string
		data func(t *testing.T) string
		why  string
	}{
		{"zero bytes", func(t *testing.T) string {
			data := t.TempDir()
			if err := os.WriteFile(filepath.Join(data, sqlite.FileName), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			return data
		}, "an empty file (0 bytes)"},
		{"a file of junk", func(t *testing.T) string {
			data := t.TempDir()
			if err := os.WriteFile(filepath.Join(data, sqlite.FileName), bytes.Repeat([]byte("not a database\n"), 1000), 0o644); err != nil {
				t.Fatal(err)
			}
			return data
		}, "not a database this service created"},
		{"junk over two pages of the round records", func(t *testing.T) string {
			data := realDatabase(t)
			junkOverPages(t, filepath.Join(data, sqlite.FileName), 2)
			return data
		}, "damaged"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := c.data(t)
			path := filepath.Join(data, sqlite.FileName)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			runs := [][]string{
				{"serve", "-addr", freeAddr(t), "-data", data},
				{"store", "check", "-data", data},
			}
			if c.why != "damaged" {
				// Without the quick check, a file the service did not
				// create is still refused.
				runs = append(runs, []string{"serve", "-quick-check=false", "-addr", freeAddr(t), "-data", data})
			}
			for _, args := range runs {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
				started := ctx.Err() == context.DeadlineExceeded
				cancel()
				if started {
					t.Fatalf("%s ran on (it started):\n%s", args[0], out)
				}
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() == 0 {
					t.Fatalf("%s: %v, want a non-zero exit:\n%s", args[0], err, out)
				}
				for _, want := range []string{path + " is refused", c.why, "docs/store.md", "A refused database", "store check"} {
					if !strings.Contains(string(out), want) {
						t.Errorf("%s said %q, without %q", args[0], out, want)
					}
				}
			}
			after, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(before, after) {
				t.Fatalf("the refused file was changed (%d bytes, was %d): %v", len(after), len(before), err)
			}
		})
	}
	t.Run("no file: created", func(t *testing.T) {
		data := t.TempDir()
		if out, err := exec.Command(bin, "store", "check", "-data", data).CombinedOutput(); err == nil {
			t.Fatalf("check of a directory without a store succeeded:\n%s", out)
		}
		s := startServe(t, bin, data, &bytes.Buffer{})
		s.kill()
		out, err := exec.Command(bin, "store", "check", "-data", data).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "ok: 0 pools reconcile") {
			t.Fatalf("check of the database serve created: %v\n%s", err, out)
		}
	})
}
