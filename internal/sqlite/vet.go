package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The store creates its database itself, and opens no other (issue 33
// item 6). A file at the store's path that it did not create (an empty
// file, a file of junk, another program's database) or a database that
// fails SQLite's quick check was once started on as an empty store, or
// served rounds until they failed; now it is refused at start, with the
// file named and the way to restore it (docs/store.md, "A refused
// database").

// ApplicationID is the mark of a database this service created: SQLite's
// PRAGMA application_id, in the file's header, set in the transaction
// that writes the schema (migrate). "TSet" in ASCII.
const ApplicationID = 0x54536574

// ErrRefused is the refusal of a database file the store will not open
// (errors.Is).
var ErrRefused = errors.New("refused")

// refusal is ErrRefused for path, saying why and how to restore it.
func refusal(path, why string) error {
	return fmt.Errorf("sqlite: %s is %w: %s. Nothing was changed in it. "+
		"Restore the newest backup (docs/store.md, \"A refused database\"): stop serve, move %s and any %s-wal and %s-shm aside, "+
		"copy the backup to %s, run tablesettle store check, start serve. "+
		"If this data directory never held pools, delete the file and the service creates a new database",
		path, ErrRefused, why, path, path, path, path)
}

// create creates the database at path: the schema and the mark
// (ApplicationID) are written to a new file beside it, synced, and linked
// into place only when whole, so that a file at path is always one the
// service finished creating. When another process linked its own first,
// that one stands.
func create(path string) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".new-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	f.Close()
	defer func() {
		for _, p := range []string{tmp, tmp + "-journal", tmp + "-wal", tmp + "-shm"} {
			os.Remove(p)
		}
	}()
	db, err := sql.Open("sqlite", dsn(tmp, "_journal_mode=DELETE", "_synchronous=FULL"))
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	if err := migrate(context.Background(), db); err != nil {
		db.Close()
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// vet refuses the file at path unless it is a database this service
// created (its mark, or, from a build before the mark, a schema version:
// migrate marks it) and, when quick, it passes SQLite's PRAGMA
// quick_check. It writes nothing.
func vet(path string, quick bool) error {
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return refusal(path, "not a database: "+err.Error())
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	var app, version int64
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&app); err != nil {
		return refusal(path, "not a database this service created ("+err.Error()+")")
	}
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return refusal(path, "not a database this service created ("+err.Error()+")")
	}
	switch {
	case app == ApplicationID:
	case app != 0:
		return refusal(path, fmt.Sprintf("another program's database (application_id %#x), not one this service created", app))
	case version == 0:
		if fi, err := os.Stat(path); err == nil && fi.Size() == 0 {
			return refusal(path, "an empty file (0 bytes), not a database this service created")
		}
		return refusal(path, "a database without this service's schema, not one it created")
	}
	if !quick {
		return nil
	}
	lines, err := quickCheck(ctx, db)
	if err != nil {
		return refusal(path, "damaged: SQLite's quick check failed: "+err.Error())
	}
	if len(lines) != 1 || lines[0] != "ok" {
		if len(lines) > 3 {
			lines = append(lines[:3], fmt.Sprintf("and %d more", len(lines)-3))
		}
		return refusal(path, "damaged: SQLite's quick check found: "+strings.Join(lines, "; "))
	}
	return nil
}

// quickCheck is PRAGMA quick_check's lines: ["ok"] when sound.
func quickCheck(ctx context.Context, db *sql.DB) ([]string, error) {
	return column(ctx, db, `PRAGMA quick_check`)
}
