package sqlite_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// appID is the database's PRAGMA application_id.
func appID(t *testing.T, path string) int64 {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id int64
	if err := db.QueryRow(`PRAGMA application_id`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestTheStoreOpensOnlyWhatItCreated (issue 33 item 6): a database the
// store creates carries its mark (ApplicationID) and reopens; one of a
// build before the mark (a schema version, no mark) opens and is marked;
// a SQLite database of another program (no schema version, or another
// application_id) is refused (ErrRefused), named, and left unmarked.
func TestTheStoreOpensOnlyWhatItCreated(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, sqlite.FileName)
	mustOpen(t, dir).Close()
	if id := appID(t, path); id != sqlite.ApplicationID {
		t.Fatalf("a created database's application_id %#x, want %#x", id, sqlite.ApplicationID)
	}
	if left, _ := filepath.Glob(path + ".new-*"); len(left) != 0 {
		t.Fatalf("creation left %v", left)
	}
	mustOpen(t, dir).Close()

	// A database from a build before the mark.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA application_id = 0`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	mustOpen(t, dir).Close()
	if id := appID(t, path); id != sqlite.ApplicationID {
		t.Fatalf("an unmarked database of this service: application_id %#x after open, want %#x", id, sqlite.ApplicationID)
	}

	for _, c := range []struct{ name, sql, why string }{
		{"no schema version", `CREATE TABLE notes (t TEXT)`, "without this service's schema"},
		{"another program's", `CREATE TABLE notes (t TEXT); PRAGMA user_version = 3; PRAGMA application_id = 42`, "another program's database (application_id 0x2a)"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, sqlite.FileName)
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(c.sql); err != nil {
			t.Fatal(err)
		}
		db.Close()
		before, _ := os.ReadFile(path)
		st, err := sqlite.Open(dir)
		if err == nil {
			st.Close()
		}
		if !errors.Is(err, sqlite.ErrRefused) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: %v; want it refused, naming %s: %s", c.name, err, path, c.why)
		}
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Errorf("%s: the refused file was written", c.name)
		}
	}
}
