package auth

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// A file or mapping with anything after its JSON array is malformed: a
// second array (two files pasted together) would otherwise be dropped
// without a word.
func TestTrailingDataRefused(t *testing.T) {
	e1 := `[{"id":"a","roles":["cage"],"tokenSha256":"` + HashToken("a") + `"}]`
	e2 := `[{"id":"b","roles":["admin"],"tokenSha256":"` + HashToken("b") + `"}]`
	path := filepath.Join(t.TempDir(), "principals.json")
	for _, tc := range []struct{ name, body string }{
		{"two arrays", e1 + "\n" + e2},
		{"trailing garbage", e1 + " x"},
	} {
		t.Run("principals file/"+tc.name, func(t *testing.T) {
			if err := os.WriteFile(path, []byte(tc.body), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), "after the JSON array") {
				t.Errorf("err %v, want it refused", err)
			}
		})
	}
	if err := os.WriteFile(path, []byte(e1+"\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err != nil {
		t.Errorf("trailing white space: %v", err)
	}
	m1 := `[{"arn":"arn:aws:iam::1:role/a","roles":["cage"]}]`
	if _, err := ParseIAM(m1 + `[{"arn":"arn:aws:iam::1:role/b","roles":["admin"]}]`); err == nil || !strings.Contains(err.Error(), "after the JSON array") {
		t.Errorf("IAM mapping with two arrays: err %v, want it refused", err)
	}
	if _, err := ParseIAM(m1 + "\n"); err != nil {
		t.Errorf("IAM mapping with a trailing newline: %v", err)
	}
}

// A principals file that others may write is a file anyone on the machine
// can add an admin to: serve refuses it (as ssh refuses such a key file).
func TestReadFileRefusesWritableByOthers(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX permissions")
	}
	path := filepath.Join(t.TempDir(), "principals.json")
	if _, err := Bootstrap(path); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode os.FileMode
		ok   bool
	}{{0o600, true}, {0o640, true}, {0o644, true}, {0o620, false}, {0o602, false}, {0o666, false}} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			if err := os.Chmod(path, tc.mode); err != nil {
				t.Fatal(err)
			}
			_, err := ReadFile(path)
			if tc.ok && err != nil {
				t.Errorf("mode %v refused: %v", tc.mode, err)
			}
			if !tc.ok && (err == nil || !strings.Contains(err.Error(), "chmod go-w")) {
				t.Errorf("mode %v: err %v, want it refused (writable by others)", tc.mode, err)
			}
		})
	}
}

// The principal Lookup returns is the caller's own: changing it (a
// handler appending a table, sorting roles) changes nothing for the next
// request holding the same token.
func TestLookupReturnsACopy(t *testing.T) {
	entries, tok, err := Add(nil, "table-12", []principal.Role{principal.Table}, []string{"T12"})
	if err != nil {
		t.Fatal(err)
	}
	ts := NewTokens(entries)
	p, err := ts.Lookup(tok)
	if err != nil {
		t.Fatal(err)
	}
	p.Roles[0] = principal.Admin
	p.Tables[0] = "T99"
	q, err := ts.Lookup(tok)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.Roles, []principal.Role{principal.Table}) || !slices.Equal(q.Tables, []string{"T12"}) {
		t.Errorf("a change to one request's principal leaked into the next: roles %v tables %v", q.Roles, q.Tables)
	}
}

// A principals file another user owns is that user's to rewrite, whatever
// its mode: refused, unless the owner is root or the user serving.
func TestReadFileRefusesAnotherUsersFile(t *testing.T) {
	if runtime.GOOS == "windows" || os.Getuid() != 0 {
		t.Skip("needs POSIX owners and root to give a file away")
	}
	path := filepath.Join(t.TempDir(), "principals.json")
	if _, err := Bootstrap(path); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err != nil {
		t.Fatalf("root's own file: %v", err)
	}
	if err := os.Chown(path, 4242, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), "owned by uid 4242") {
		t.Errorf("a file of uid 4242: err %v, want it refused", err)
	}
}
