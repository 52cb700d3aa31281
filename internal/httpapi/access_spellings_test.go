package httpapi_test

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/httpapi/authtest"
)

// Issue 16: a path spelled otherwise than the access table's key
// reaches no operation its caller may not call. The server authorizes by
// the pattern ServeMux itself matched (the one it dispatches to), so an
// unclean path is judged as the clean one, an encoded slash stays inside
// its segment (a pool id), and anything else matches nothing. Nothing is
// written.
func TestPathTricksReachNothingElse(t *testing.T) {
	srv, ops, tokens, dir := localServer(t)
	pool := authtest.PoolIDOf(ops)
	for _, op := range ops {
		if op.Route == "POST /v1/pools" {
			if a := send(t, srv, op.Method, op.Path, op.Body, http.Header{"Authorization": {"Bearer " + tokens["admin"]}}); a.Status != http.StatusCreated {
				t.Fatalf("create: %d %s", a.Status, a.Body)
			}
		}
	}
	before := authtest.DirDigest(t, dir)
	P := "/v1/pools/" + pool
	for _, tc := range []struct {
		name, caller, method, path string
		want                       int
		detail                     string // in the answer, when not ""
	}{
		{"reconcile, the cage", "cage", "GET", P + "/reconcile", 403, "GET /v1/pools/{id}/reconcile needs role controller"},
		{"encoded slash is part of the pool id", "cage", "GET", P + "%2Freconcile", 404, "no pool " + pool + "/reconcile"},
		{"encoded slash, a table", "table", "GET", P + "%2Freconcile", 403, "GET /v1/pools/{id} needs role"},
		{"trailing slash", "cage", "GET", P + "/reconcile/", 404, "no operation"},
		{"double slash", "cage", "GET", "/v1//pools/" + pool + "/reconcile", 403, "GET /v1/pools/{id}/reconcile needs role controller"},
		{"double slash, no credentials", "none", "GET", "/v1//pools/" + pool + "/reconcile", 401, "GET /v1/pools/{id}/reconcile needs credentials"},
		{"dot-dot", "cage", "GET", P + "/x/../reconcile", 403, "needs role controller"},
		{"encoded dot-dot", "cage", "GET", P + "/%2E%2E/" + pool + "/reconcile", 404, "no operation"},
		{"upper case", "cage", "GET", "/V1/pools/" + pool + "/reconcile", 404, "no operation"},
		{"HEAD is GET's rule", "cage", "HEAD", P + "/reconcile", 403, ""},
		{"HEAD without credentials", "none", "HEAD", P, 401, ""},
		{"OPTIONS", "cage", "OPTIONS", P + "/reconcile", 405, "use GET"},
		{"a table reaching adjustments by dot-dot", "table", "POST", P + "/rounds/../adjustments", 403, "POST /v1/pools/{id}/adjustments needs role admin"},
		{"a table reaching create by trailing slash", "table", "POST", "/v1/pools/", 404, ""},
		{"a page prefix then dot-dot", "none", "GET", "/display/../v1/pools/" + pool + "/reconcile", 401, "needs credentials"},
		{"a page with encoded slashes is the page", "none", "GET", "/display/x%2F..%2F..%2Fv1%2Fpools%2F" + pool + "%2Freconcile", 200, "<!doctype html>"},
		{"an asset with encoded slashes", "none", "GET", "/assets/..%2F..%2Fv1%2Fpools", 404, ""},
		{"a page's path under /v1", "none", "GET", "/v1/display/" + pool, 404, ""},
		{"POST to a page", "admin", "POST", "/display/" + pool, 405, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.caller != "none" {
				h.Set("Authorization", "Bearer "+tokens[tc.caller])
			}
			a := send(t, srv, tc.method, tc.path, nil, h)
			if a.Status != tc.want {
				t.Fatalf("%s %s as %s: %d, want %d: %s", tc.method, tc.path, tc.caller, a.Status, tc.want, a.Body)
			}
			if tc.detail != "" && !bytes.Contains(a.Body, []byte(tc.detail)) {
				t.Errorf("answer lacks %q: %s", tc.detail, a.Body)
			}
		})
	}
	if authtest.DirDigest(t, dir) != before {
		t.Error("a path trick changed the store")
	}
}

// Issue 16: a table principal bound to T12 posts a round whose
// body table is T12 spelled otherwise (case, white space, Unicode look-
// alikes, a second "table" key, a key in another case): each is refused
// (403 not bound; 422 not a table id, or a key given twice, in any case)
// and nothing is written. A JSON
// escape of T12 is T12 itself.
func TestTableBindingSpellings(t *testing.T) {
	srv, ops, tokens, dir := localServer(t)
	var create, round authtest.Op
	for _, op := range ops {
		switch op.Route {
		case "POST /v1/pools":
			create = op
		case "POST /v1/pools/{id}/rounds":
			round = op
		}
	}
	if a := send(t, srv, create.Method, create.Path, create.Body, http.Header{"Authorization": {"Bearer " + tokens["admin"]}}); a.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	if !bytes.Contains(round.Body, []byte(`"table":"T12"`)) {
		t.Fatalf("the round example is not for T12: %s", round.Body)
	}
	path := "/v1/pools/" + authtest.PoolIDOf(ops) + "/rounds"
	before := authtest.DirDigest(t, dir)
	for _, tc := range []struct {
		name, table string // replaces "table":"T12"
		want        []int
	}{
		{"lower case", `"table":"t12"`, []int{403}},
		{"leading space", `"table":" T12"`, []int{422}},
		{"trailing space", `"table":"T12 "`, []int{422}},
		{"trailing newline", `"table":"T12\n"`, []int{422}},
		{"fullwidth T", `"table":"Ｔ12"`, []int{422}},
		{"fullwidth digits", `"table":"T１２"`, []int{422}},
		{"zero-width space", `"table":"T12\u200b"`, []int{422}},
		{"NUL", `"table":"T12\u0000"`, []int{422}},
		{"Kelvin-like case folding", `"table":"ＴＴ"`, []int{422}},
		{"another table, then T12 again", `"table":"T99","table":"T12"`, []int{422}},
		{"T12, then another table", `"table":"T12","table":"T99"`, []int{422}},
		{"the key in upper case for another table", `"table":"T12","TABLE":"T99"`, []int{422}},
		{"the key in title case for another table", `"Table":"T99","table":"T12"`, []int{422}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := bytes.Replace(round.Body, []byte(`"table":"T12"`), []byte(tc.table), 1)
			a := send(t, srv, "POST", path, body, http.Header{"Authorization": {"Bearer " + tokens["table"]}, "Idempotency-Key": {"spell-" + strings.ReplaceAll(tc.name, ",", "")}})
			ok := false
			for _, w := range tc.want {
				ok = ok || a.Status == w
			}
			if !ok {
				t.Fatalf("status %d, want one of %v: %s", a.Status, tc.want, a.Body)
			}
			if !strings.Contains(strings.ToLower(string(a.Body)), "table") {
				t.Errorf("the refusal does not name the table: %s", a.Body)
			}
		})
	}
	if authtest.DirDigest(t, dir) != before {
		t.Fatal("a refused spelling changed the store")
	}
	body := bytes.Replace(round.Body, []byte(`"table":"T12"`), []byte(`"table":"T\u00312"`), 1)
	if a := send(t, srv, "POST", path, body, http.Header{"Authorization": {"Bearer " + tokens["table"]}, "Idempotency-Key": {"spell-escaped"}}); a.Status != http.StatusOK {
		t.Errorf("T12 written with a JSON escape: %d %s", a.Status, a.Body)
	}
}

// Issue 16: a request is authorized before a byte of its body is
// read. A caller without credentials (or without the role) that announces
// a body and never sends it, or announces one over the limit, is answered
// 401 (403) at once: not 408 after the body's idle timeout, not 413. So is
// every answer the middleware gives without reading the body (404, 405,
// 413, 400): net/http would otherwise wait, with no deadline, for up to
// 256 KiB of body before sending it.
func TestRefusedBeforeTheBodyIsRead(t *testing.T) {
	srv, _, tokens, _ := localServer(t)
	for _, tc := range []struct {
		name, method, path, auth, length string
		want                             string
	}{
		{"no credentials, the body never comes", "POST", "/v1/pools", "", "100", "HTTP/1.1 401"},
		{"no credentials, a body over the limit", "POST", "/v1/pools", "", "10000000", "HTTP/1.1 401"},
		{"bad token, the body never comes", "POST", "/v1/pools", "Bearer tst_nope", "100", "HTTP/1.1 401"},
		{"the cage, the body never comes", "POST", "/v1/pools", "Bearer " + tokens["cage"], "100", "HTTP/1.1 403"},
		{"the cage, a body over the limit", "POST", "/v1/pools", "Bearer " + tokens["cage"], "10000000", "HTTP/1.1 403"},
		{"no operation, the body never comes", "POST", "/v1/nothing", "", "100", "HTTP/1.1 404"},
		{"wrong method, the body never comes", "PUT", "/v1/pools", "", "100", "HTTP/1.1 405"},
		{"the admin, a body announced over 64 KiB never comes", "POST", "/v1/pools", "Bearer " + tokens["admin"], "100000", "HTTP/1.1 413"},
		{"a bad query escape, the body never comes", "POST", "/v1/pools?x=%zz", "Bearer " + tokens["admin"], "100", "HTTP/1.1 400"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			req := tc.method + " " + tc.path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + tc.length + "\r\n"
			if tc.auth != "" {
				req += "Authorization: " + tc.auth + "\r\n"
			}
			if _, err := c.Write([]byte(req + "\r\n")); err != nil {
				t.Fatal(err)
			}
			_ = c.SetReadDeadline(time.Now().Add(3 * time.Second)) // the body idle timeout is 10 s
			line, err := bufio.NewReader(c).ReadString('\n')
			if err != nil {
				t.Fatalf("no answer before the body: %v", err)
			}
			if !strings.HasPrefix(line, tc.want) {
				t.Errorf("status line %q, want %s", line, tc.want)
			}
		})
	}
}
