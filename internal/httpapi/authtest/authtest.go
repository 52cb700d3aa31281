// Package authtest walks the access matrix of issue 16: every operation
// registered on an API x every role (and no credentials), each answered
// 2xx, 401 or 403 as auth.Routes designs it. The local server's test
// (internal/httpapi) and the Lambda handlers' test (internal/lambdaapp)
// run the same matrix, each sending requests its own way.
package authtest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// Caller is one column of the matrix.
type Caller struct {
	Name      string               // "none", a role's name, "table-T99"
	Principal *principal.Principal // nil: no credentials
}

// BoundTable is the table the matrix's table principal is bound to: the
// table of the spec's apply-round example. OtherTable is another one.
const (
	BoundTable = "T12"
	OtherTable = "T99"
)

// Callers are no credentials, one principal per role (the table principal
// bound to BoundTable), and a table principal bound to OtherTable only.
func Callers() []Caller {
	cs := []Caller{{Name: "none"}}
	for _, r := range principal.Roles {
		p := &principal.Principal{ID: "matrix-" + string(r), Roles: []principal.Role{r}}
		if r == principal.Table {
			p.Tables = []string{BoundTable}
		}
		cs = append(cs, Caller{Name: string(r), Principal: p})
	}
	return append(cs, Caller{Name: "table-" + OtherTable, Principal: &principal.Principal{
		ID: "matrix-table-" + OtherTable, Roles: []principal.Role{principal.Table}, Tables: []string{OtherTable}}})
}

// Op is one row of the matrix: an operation and a request for it built from
// its spec example.
type Op struct {
	ID, Method, Path string // Path as registered: /v1/pools/{id}
	Route            string // "METHOD /path", the key of auth.Routes
	Body             []byte // the spec's request example; nil without a body
	Table            string // the body's "table", if any
	Exact            bool   // every path parameter is one the matrix can fill: an allowed call must succeed
}

// PoolID is the id of the pool the create example opens, which fills
// /v1/pools/{id}; RulesetID fills /v1/rulesets/{id}.
const RulesetID = "mbs-megalink-tcp-v6"

// Operations lists api's operations with their requests: POST /v1/pools
// first (the others need its pool), then by route.
func Operations(api huma.API) ([]Op, error) {
	var ops []Op
	for path, item := range api.OpenAPI().Paths {
		for _, o := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
			if o == nil {
				continue
			}
			op := Op{ID: o.OperationID, Method: o.Method, Path: path, Route: o.Method + " " + path, Exact: true}
			if o.RequestBody != nil {
				mt := o.RequestBody.Content["application/json"]
				var ex any
				if mt != nil && mt.Example != nil {
					ex = mt.Example
				} else if mt != nil {
					names := make([]string, 0, len(mt.Examples))
					for k := range mt.Examples {
						names = append(names, k)
					}
					sort.Strings(names)
					if len(names) > 0 {
						ex = mt.Examples[names[0]].Value
					}
				}
				if ex == nil {
					op.Exact = false
					ex = map[string]any{}
				}
				b, err := json.Marshal(ex)
				if err != nil {
					return nil, fmt.Errorf("%s: example: %w", op.Route, err)
				}
				op.Body = b
				var t struct {
					Table string `json:"table"`
				}
				_ = json.Unmarshal(b, &t)
				op.Table = t.Table
			}
			for _, seg := range strings.Split(path, "/") {
				if strings.HasPrefix(seg, "{") && seg != "{id}" {
					op.Exact = false // {hit}, {proposal}: no fixture; allowed calls must pass authorization only
				}
			}
			ops = append(ops, op)
		}
	}
	sort.Slice(ops, func(i, j int) bool {
		ci, cj := ops[i].Route == "POST /v1/pools", ops[j].Route == "POST /v1/pools"
		if ci != cj {
			return ci
		}
		return ops[i].Route < ops[j].Route
	})
	return ops, nil
}

// PoolIDOf returns the id of the pool the create example opens.
func PoolIDOf(ops []Op) string {
	for _, op := range ops {
		if op.Route == "POST /v1/pools" {
			var p struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(op.Body, &p)
			return p.ID
		}
	}
	return ""
}

// Want is the status the design gives op for c: http.StatusOK standing for
// any 2xx, 401 or 403. open: stateless routes need no credentials (the
// local server).
func Want(op Op, c Caller, open bool) int {
	rule, ok := auth.Routes[op.Route]
	switch {
	case ok && rule.Public:
		return http.StatusOK
	case c.Principal == nil && ok && rule.Stateless && open:
		return http.StatusOK
	case c.Principal == nil:
		return http.StatusUnauthorized
	case !ok:
		return http.StatusForbidden
	case rule.Stateless, rule.AnyPrincipal:
		return http.StatusOK
	}
	if auth.Authorize(c.Principal, op.Route) != nil {
		return http.StatusForbidden
	}
	if rule.TableBound && !c.Principal.BoundTo(op.Table) {
		return http.StatusForbidden
	}
	return http.StatusOK
}

// Answer is what a Sender got back.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Sender sends op's request to path with body as c.
type Sender func(t *testing.T, op Op, path string, c Caller) Answer

// Run walks the matrix: every op x every caller. state returns a digest of
// everything the service stores; a refused request must leave it as it was.
func Run(t *testing.T, ops []Op, open bool, send Sender, state func() string) {
	t.Helper()
	if len(ops) == 0 {
		t.Fatal("no operations registered")
	}
	poolID := PoolIDOf(ops)
	for _, op := range ops {
		if _, ok := auth.Routes[op.Route]; !ok {
			t.Errorf("%s (%s) is registered but has no rule in auth.Routes: add one", op.Route, op.ID)
		}
		path := strings.ReplaceAll(op.Path, "{hit}", "matrix-hit")
		path = strings.ReplaceAll(path, "{proposal}", "matrix-proposal")
		path = strings.ReplaceAll(path, "{seq}", "999999")
		path = strings.ReplaceAll(path, "{table}", "T12")
		path = strings.ReplaceAll(path, "{round}", "matrix-round")
		if strings.HasPrefix(path, "/v1/rulesets/{id}") {
			path = strings.Replace(path, "{id}", RulesetID, 1)
		}
		if strings.HasPrefix(path, "/v1/rulings/{id}") {
			path = strings.Replace(path, "{id}", "R12", 1)
		}
		path = strings.ReplaceAll(path, "{id}", poolID)
		if op.Route == "GET /v1/pools/{id}/meters" {
			path += "?at=2030-01-01T00:00:00Z" // its one required parameter
		}
		if op.Route == "GET /v1/pools/{id}/consistency" {
			path += "?from=1" // its one required parameter: the opening's tree
		}
		for _, c := range Callers() {
			t.Run(op.ID+"/"+c.Name, func(t *testing.T) {
				want := Want(op, c, open)
				before := state()
				a := send(t, op, path, c)
				if want != http.StatusOK {
					if a.Status != want {
						t.Fatalf("%s as %s: %d, want %d; %s", op.Route, c.Name, a.Status, want, a.Body)
					}
					if ct := a.Header.Get("Content-Type"); ct != "application/problem+json" {
						t.Errorf("Content-Type %q, want application/problem+json", ct)
					}
					if want == http.StatusUnauthorized && a.Header.Get("WWW-Authenticate") == "" {
						t.Error("401 without WWW-Authenticate")
					}
					var p huma.ErrorModel
					if err := json.Unmarshal(a.Body, &p); err != nil || p.Status != want || p.Detail == "" {
						t.Errorf("not a problem naming what is missing: %s", a.Body)
					}
					if after := state(); after != before {
						t.Errorf("a refused request changed the store")
					}
					return
				}
				if a.Status == http.StatusUnauthorized || a.Status == http.StatusForbidden || a.Status >= 500 {
					t.Fatalf("%s as %s: %d, want it allowed; %s", op.Route, c.Name, a.Status, a.Body)
				}
				if op.Exact && (a.Status < 200 || a.Status > 299) {
					t.Fatalf("%s as %s: %d, want 2xx; %s", op.Route, c.Name, a.Status, a.Body)
				}
			})
		}
	}
}

// DirDigest is a digest of every file under dir: what an embedded store holds.
// A refused request must leave it as it was.
func DirDigest(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(p, "-shm") {
			// SQLite's shared-memory index of the WAL: readers write
			// their marks in it; it holds no data (internal/sqlite).
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}
