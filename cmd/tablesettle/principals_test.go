package main

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/auth"
)

var tokenRE = regexp.MustCompile(`Bearer (tst_[A-Za-z0-9_-]{43})`)

// serve on a fresh machine makes DATA/principals.json with a token per
// role, prints them once, and keeps only their hashes (issue 16 item 5).
func TestServeBootstrapsPrincipals(t *testing.T) {
	data := t.TempDir()
	var out bytes.Buffer
	access, err := localAccess("", data, &out)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(data, "principals.json")
	if !strings.Contains(out.String(), path) {
		t.Errorf("output does not name %s:\n%s", path, out.String())
	}
	toks := tokenRE.FindAllStringSubmatch(out.String(), -1)
	if len(toks) != 5 {
		t.Fatalf("%d tokens printed, want 5 (one per role):\n%s", len(toks), out.String())
	}
	raw, _ := os.ReadFile(path)
	for _, m := range toks {
		if strings.Contains(string(raw), m[1]) {
			t.Error("a token is stored in plain text")
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Authorization", "Bearer "+m[1])
		if p, err := access.Authenticator.Authenticate(r); err != nil || p == nil {
			t.Errorf("printed token not accepted: %v", err)
		}
	}
	if !access.OpenStateless {
		t.Error("the local server must leave stateless operations open")
	}
	// The second start reads the file and prints nothing.
	out.Reset()
	if _, err := localAccess("", data, &out); err != nil || out.Len() != 0 {
		t.Errorf("second start: %v, printed %q", err, out.String())
	}
	// A file named explicitly must exist.
	if _, err := localAccess(filepath.Join(data, "missing.json"), data, &out); err == nil {
		t.Error("a missing -principals file was accepted")
	}
}

func TestPrincipalsAdd(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.json")
	var out bytes.Buffer
	if err := principals([]string{"add", "--id", "table-7", "--role", "table", "--tables", "T7, T8", "-file", file}, &out); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(tst_[A-Za-z0-9_-]{43})`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no token printed: %s", out.String())
	}
	if err := principals([]string{"add", "--id", "cage-1", "--role", "cage", "-file", file}, &out); err != nil {
		t.Fatal(err)
	}
	entries, err := auth.ReadFile(file)
	if err != nil || len(entries) != 2 {
		t.Fatalf("%v %v", entries, err)
	}
	p, err := auth.NewTokens(entries).Lookup(m[1])
	if err != nil || p.ID != "table-7" || !p.BoundTo("T7") || !p.BoundTo("T8") || p.BoundTo("T9") {
		t.Errorf("%+v %v", p, err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"unknown role", []string{"add", "--id", "x", "--role", "root", "-file", file}},
		{"table without tables", []string{"add", "--id", "x", "--role", "table", "-file", file}},
		{"id taken", []string{"add", "--id", "cage-1", "--role", "cage", "-file", file}},
		{"no verb", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := principals(tc.args, &out); err == nil {
				t.Error("accepted")
			}
		})
	}
	if entries, _ := auth.ReadFile(file); len(entries) != 2 {
		t.Errorf("a refused add changed the file: %d entries", len(entries))
	}
}
