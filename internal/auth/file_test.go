package auth

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// A File follows its principals file: a principal added counts from the
// next lookup, a principal removed is refused from the next lookup (issue
// 16: revocation needs no restart), and a file that becomes unreadable or
// unsafe refuses every token until it is fixed, rather than keep the set
// it held before (which may hold the principal being removed).
func TestFileFollowsChanges(t *testing.T) {
	path, cageTok, f := principalsFile(t, "cage-1")
	var adminTok string
	expect := func(step, tok, id string, wantErr error) {
		t.Helper()
		p, err := f.Lookup(tok)
		switch {
		case wantErr == nil && (err != nil || p.ID != id):
			t.Fatalf("%s: %+v %v, want %s", step, p, err, id)
		case wantErr == ErrBadToken && !errors.Is(err, ErrBadToken):
			t.Fatalf("%s: %+v %v, want ErrBadToken", step, p, err)
		case wantErr == errRefused && (err == nil || errors.Is(err, ErrBadToken)):
			t.Fatalf("%s: %+v %v, want the file refused (not ErrBadToken: a 503, not a 401)", step, p, err)
		}
	}
	expect("start", cageTok, "cage-1", nil)
	expect("start", "tst_nobody", "", ErrBadToken)

	if err := Update(path, func(es []Entry) ([]Entry, error) {
		var err error
		es, adminTok, err = Add(es, "admin-1", []principal.Role{principal.Admin}, nil)
		return es, err
	}); err != nil {
		t.Fatal(err)
	}
	expect("added", adminTok, "admin-1", nil)

	if err := Update(path, func(es []Entry) ([]Entry, error) { return Remove(es, "cage-1") }); err != nil {
		t.Fatal(err)
	}
	expect("removed", cageTok, "", ErrBadToken)
	expect("removed", adminTok, "admin-1", nil)
	if err := Update(path, func(es []Entry) ([]Entry, error) { return Remove(es, "cage-1") }); err == nil {
		t.Fatal("removing a principal twice was accepted")
	}

	// Edited in place by hand (same inode) into something that does not parse.
	good, _ := os.ReadFile(path)
	if err := os.WriteFile(path, append(good, '['), 0o600); err != nil {
		t.Fatal(err)
	}
	expect("broken", adminTok, "", errRefused)
	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	expect("mended", adminTok, "admin-1", nil)

	if runtime.GOOS != "windows" {
		if err := os.Chmod(path, 0o622); err != nil {
			t.Fatal(err)
		}
		expect("writable by others", adminTok, "", errRefused)
		if err := os.Chmod(path, 0o600); err != nil {
			t.Fatal(err)
		}
		expect("mode mended", adminTok, "admin-1", nil)
	}

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	expect("deleted", adminTok, "", errRefused)
	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	expect("back", adminTok, "admin-1", nil)

	if _, err := OpenFile(filepath.Join(t.TempDir(), "none.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenFile of a missing file: %v", err)
	}
}

var errRefused = errors.New("refused")

// While principals are added and removed (atomic renames), lookups running
// at the same time see the file before or after each change, never half of
// it: a token kept throughout always authenticates, and no lookup fails
// for any other reason than a token not (or no longer) in the file.
func TestFileLookupsDuringRewrites(t *testing.T) {
	path, keep, f := principalsFile(t, "cage-keep")
	done := make(chan struct{})
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				if p, err := f.Lookup(keep); err != nil || p.ID != "cage-keep" {
					errs <- fmt.Errorf("mid-rewrite lookup: %+v %v", p, err)
					return
				}
			}
		}()
	}
	for i := range 100 {
		id := fmt.Sprintf("temp-%d", i)
		if err := Update(path, func(es []Entry) ([]Entry, error) {
			es, _, err := Add(es, id, []principal.Role{principal.Supervisor}, nil)
			return es, err
		}); err != nil {
			t.Fatal(err)
		}
		if err := Update(path, func(es []Entry) ([]Entry, error) { return Remove(es, id) }); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// principalsFile makes a principals file holding one cage principal, id,
// and returns its path, the principal's token and the File following it.
func principalsFile(t *testing.T, id string) (string, string, *File) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "principals.json")
	var tok string
	if err := Update(path, func(es []Entry) ([]Entry, error) {
		var err error
		es, tok, err = Add(es, id, []principal.Role{principal.Cage}, nil)
		return es, err
	}); err != nil {
		t.Fatal(err)
	}
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, tok, f
}
