package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/principal"
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
	if len(toks) != len(principal.Roles) {
		t.Fatalf("%d tokens printed, want %d (one per role):\n%s", len(toks), len(principal.Roles), out.String())
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

// A running serve follows its principals file: `principals add` and
// `principals remove` count from the next request, with no restart, so
// that a removed principal (a cashier who has left) is refused at once;
// a file that becomes unsafe answers 503 to every token until it is fixed.
// Checked through the server's middleware with GET /v1/me.
func TestServeFollowsPrincipalsFile(t *testing.T) {
	data := t.TempDir()
	var out bytes.Buffer
	access, err := localAccess("", data, &out)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(data, "principals.json")
	me := http.NewServeMux()
	me.HandleFunc("GET /v1/me", func(w http.ResponseWriter, r *http.Request) {
		p, _ := principal.FromContext(r.Context())
		fmt.Fprint(w, p.ID)
	})
	h := httpapi.Middleware(httpapi.Deps{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), Access: access}, me)
	get := func(tok string) (int, string) {
		r := httptest.NewRequest("GET", "/v1/me", nil)
		r.Header.Set("Authorization", "Bearer "+tok)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	cageTok := regexp.MustCompile(`cage +local-cage\s+Authorization: Bearer (tst_\S+)`).FindStringSubmatch(out.String())
	if cageTok == nil {
		t.Fatalf("no cage token in:\n%s", out.String())
	}
	if code, body := get(cageTok[1]); code != 200 || body != "local-cage" {
		t.Fatalf("before: %d %s", code, body)
	}

	out.Reset()
	if err := principals([]string{"add", "--id", "cage-2", "--role", "cage", "-file", file}, &out); err != nil {
		t.Fatal(err)
	}
	newTok := regexp.MustCompile(`(tst_[A-Za-z0-9_-]{43})`).FindString(out.String())
	if code, body := get(newTok); code != 200 || body != "cage-2" {
		t.Errorf("added, no restart: %d %s", code, body)
	}

	out.Reset()
	if err := principals([]string{"remove", "--id", "local-cage", "-file", file}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "removed local-cage") {
		t.Errorf("remove printed %q", out.String())
	}
	if code, body := get(cageTok[1]); code != 401 {
		t.Errorf("removed, no restart: %d %s, want 401", code, body)
	}
	if code, _ := get(newTok); code != 200 {
		t.Errorf("the other principal after a removal: %d", code)
	}

	out.Reset()
	if err := principals([]string{"list", "-file", file}, &out); err != nil {
		t.Fatal(err)
	}
	if list := out.String(); strings.Contains(list, "local-cage") || !strings.Contains(list, "cage-2\troles cage\n") ||
		!strings.Contains(list, "local-table\troles table\ttables T12\n") || strings.Contains(list, "tst_") || regexp.MustCompile(`[0-9a-f]{64}`).MatchString(list) {
		t.Errorf("list:\n%s", list)
	}

	if err := os.Chmod(file, 0o666); err != nil {
		t.Fatal(err)
	}
	if code, body := get(newTok); code != 503 {
		t.Errorf("file writable by others: %d %s, want 503", code, body)
	}
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _ := get(newTok); code != 200 {
		t.Errorf("file mended: %d", code)
	}

	for _, args := range [][]string{
		{"remove", "--id", "local-cage", "-file", file}, // not there any more
		{"remove", "-file", file},                       // no id
		{"remove", "--id", "x", "--role", "cage", "-file", file},
		{"list", "extra", "-file", file},
	} {
		if err := principals(args, io.Discard); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}
