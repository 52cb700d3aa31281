package auth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// Rule is who may call one route.
type Rule struct {
	// Stateless routes compute without state (rulesets, evaluate, settle
	// without a pool, irregularity decisions, paytable analysis, the spec
	// and docs): any authenticated principal, whatever its roles; on the
	// local server, also a caller without credentials.
	Stateless bool
	// Roles may call the route (one of them is enough).
	Roles []principal.Role
	// Public routes are the floor's pages and their assets (internal/web),
	// and the keys that verify the ledger's checkpoints (GET
	// /v1/ledger/keys, issue 34): they hold no data, so anyone may load
	// them, with or without credentials, on every host. The API calls the
	// pages make are checked like any client's.
	Public bool
	// AnyPrincipal routes answer any authenticated principal, whatever its
	// roles (GET /v1/me: who the credentials name).
	AnyPrincipal bool
	// TableBound routes carry a table id (the body's "table") that must be
	// one of the principal's tables; the operation checks it with
	// CheckTable once it has read its body.
	TableBound bool

	// unlisted is the rule of a route Routes does not list (RuleOf): it
	// refuses every principal.
	unlisted bool
}

var (
	// readers see pools, their hits and ledgers: the cage pays from them,
	// and every role that acts on a pool needs to see what it acts on.
	readers    = []principal.Role{principal.Cage, principal.Supervisor, principal.Controller, principal.Admin}
	stateless  = Rule{Stateless: true}
	public     = Rule{Public: true}
	roles      = func(r ...principal.Role) Rule { return Rule{Roles: r} }
	tableBound = Rule{Roles: []principal.Role{principal.Table}, TableBound: true}
)

// Routes is the access table: "METHOD /path" as the routes are registered
// (huma's paths, Go ServeMux patterns) to who may call it. A route that is
// not here is refused to everyone (403): a new operation must be added
// here, and internal/httpapi's matrix test fails until it is.
//
// Routes of operations that other work is adding (issue 13: pending hits,
// corrections, approvals) are here by the paths they are expected at;
// entries for routes not registered are harmless.
var Routes = map[string]Rule{
	// The spec and docs.
	"GET /openapi.json":                    stateless,
	"GET /openapi.yaml":                    stateless,
	"GET /openapi-3.0.json":                stateless,
	"GET /openapi-3.0.yaml":                stateless,
	"GET /schemas/{schema}":                stateless,
	"GET /docs":                            stateless,
	"GET /docs/app.js":                     stateless,
	"GET /docs/app.css":                    stateless,
	"GET /v1/rulesets":                     stateless,
	"GET /v1/rulesets/{id}":                stateless,
	"POST /v1/hands/evaluate":              stateless,
	"GET /v1/rulesets/{id}/analysis":       stateless,
	"POST /v1/paytables/analyze":           stateless,
	"POST /v1/rounds/settle":               stateless,
	"GET /v1/rulesets/{id}/irregularities": stateless,
	"POST /v1/irregularities":              stateless,
	// What answers cite: the rulings and the rule documents.
	"GET /v1/rulings":                        stateless,
	"GET /v1/rulings/{id}":                   stateless,
	"GET /v1/rulesets/{id}/document":         stateless,
	"GET /v1/rulesets/{id}/clauses/{clause}": stateless,

	// The floor's pages (issue 14) and who the caller is.
	"GET /{$}":            public,
	"GET /display/{pool}": public,
	"GET /playground":     public,
	"GET /assets/{file}":  public,
	"GET /v1/me":          {AnyPrincipal: true},

	// admin: create pools, propose settings changes and meter adjustments
	// (dual control: a controller approves them).
	"POST /v1/pools":                  roles(principal.Admin),
	"PATCH /v1/pools/{id}":            roles(principal.Admin),
	"POST /v1/pools/{id}/adjustments": roles(principal.Admin),
	// table: apply rounds, for its own tables only.
	"POST /v1/pools/{id}/rounds": tableBound,
	// reading.
	"GET /v1/pools/{id}":        roles(readers...),
	"GET /v1/pools/{id}/ledger": roles(readers...),
	"GET /v1/pools/{id}/hits":   roles(readers...),
	// The floor (issue 24): the sign reads its pools' displays only (a
	// kiosk holds no credential that could move money or read a ledger);
	// readers may read them too. Shift reports and jackpot slips are
	// read by every reader.
	"GET /v1/pools/{id}/display":         roles(append(readers[:len(readers):len(readers)], principal.Display)...),
	"GET /v1/pools/{id}/report":          roles(readers...),
	"GET /v1/pools/{id}/hits/{seq}/slip": roles(readers...),
	// Held RWS hits whose window has passed are paid: the floor (a
	// supervisor) or the cage may sweep them; any round applied does too.
	"POST /v1/pools/{id}/release": roles(principal.Supervisor, principal.Cage),
	// controller: reconcile.
	"GET /v1/pools/{id}/reconcile": roles(principal.Controller),
	// The verifiable ledger (issue 34): checkpoints and proofs are read by
	// every role that reads the ledger, and by a table (a proof of its own
	// rounds' entries only: the operation checks the entry's table); the
	// keys that verify checkpoints need no credentials.
	"GET /v1/pools/{id}/checkpoint":         roles(append(readers[:len(readers):len(readers)], principal.Table)...),
	"GET /v1/pools/{id}/ledger/{seq}/proof": roles(append(readers[:len(readers):len(readers)], principal.Table)...),
	"GET /v1/pools/{id}/consistency":        roles(append(readers[:len(readers):len(readers)], principal.Table)...),
	"GET /v1/ledger/keys":                   public,

	// The jackpot lock and corrections (issue 13).
	"GET /v1/pools/{id}/meters":              roles(readers...),
	"POST /v1/pools/{id}/hits/{seq}/confirm": roles(principal.Supervisor),
	"POST /v1/pools/{id}/hits/{seq}/paid":    roles(principal.Cage),
	// supervisor: propose voids of pending hits and corrections of
	// applied rounds (dual control: a controller approves them).
	"POST /v1/pools/{id}/hits/{seq}/void":                   roles(principal.Supervisor),
	"POST /v1/pools/{id}/rounds/{table}/{round}/correction": roles(principal.Supervisor),

	// Dual control (issue 16): the open proposals are read by every role
	// that acts on a pool; a controller approves (the service refuses the
	// proposer itself); the proposer (admin or supervisor) withdraws (the
	// service refuses anyone else).
	"GET /v1/pools/{id}/proposals":                      roles(readers...),
	"POST /v1/pools/{id}/proposals/{proposal}/approve":  roles(principal.Controller),
	"POST /v1/pools/{id}/proposals/{proposal}/withdraw": roles(principal.Admin, principal.Supervisor),
}

// Narrow are the roles whose IAM role in the stack may invoke only the
// routes that name them, not the stateless ones nor GET /v1/me: the
// sign's kiosk (display) reads its pools' displays and nothing else.
var Narrow = []principal.Role{principal.Display}

// RuleOf is the rule of route ("METHOD /path" as registered): its entry
// of Routes, or, for a route Routes does not list, the rule that refuses
// every principal. A host looks each operation's rule up once, when the
// operation is registered (internal/httpapi), and checks every request
// against that rule.
func RuleOf(route string) Rule {
	if rule, ok := Routes[route]; ok {
		return rule
	}
	return Rule{unlisted: true}
}

// Authorize decides whether p may call route: nil, or a Forbidden
// *fault.Error naming what is missing. p is the authenticated principal
// (nil only where the caller may go without credentials: check that first).
func Authorize(p *principal.Principal, route string) *fault.Error {
	return RuleOf(route).Authorize(p, route)
}

// Authorize decides whether p may call route, whose rule this is: nil, or
// a Forbidden *fault.Error naming what is missing.
func (rule Rule) Authorize(p *principal.Principal, route string) *fault.Error {
	if rule.unlisted {
		return fault.New(fault.Forbidden, "%s has no access rule: refused to every principal", route)
	}
	if rule.Stateless || rule.Public || (rule.AnyPrincipal && p != nil) {
		return nil
	}
	for _, r := range rule.Roles {
		if p.Has(r) {
			return nil
		}
	}
	have := "no role"
	if p != nil && len(p.Roles) > 0 {
		rs := make([]string, len(p.Roles))
		for i, r := range p.Roles {
			rs[i] = string(r)
		}
		have = "role " + strings.Join(rs, ", ")
	}
	need := make([]string, len(rule.Roles))
	for i, r := range rule.Roles {
		need[i] = string(r)
	}
	id := ""
	if p != nil {
		id = p.ID
	}
	return fault.New(fault.Forbidden, "%s needs role %s; principal %q has %s", route, strings.Join(need, " or "), id, have)
}

// Acting is the role p acts in under this rule: the first of p's roles
// the rule allows, or "" (a stateless route, or none allowed).
func (rule Rule) Acting(p *principal.Principal) principal.Role {
	if rule.unlisted || rule.Stateless || p == nil {
		return ""
	}
	for _, r := range p.Roles {
		if slices.Contains(rule.Roles, r) {
			return r
		}
	}
	return ""
}

// CheckTable decides whether p may report for table (issue 16: a table
// principal posts rounds for the table ids it is bound to only). field is
// where the request carries the table id ("body.table").
func CheckTable(p *principal.Principal, table, field string) *fault.Error {
	if p.BoundTo(table) {
		return nil
	}
	var id string
	var tables []string
	if p != nil {
		id, tables = p.ID, p.Tables
	}
	bound := "no table"
	if len(tables) > 0 {
		bound = "tables " + strings.Join(tables, ", ")
	}
	e := fault.New(fault.Forbidden, "principal %q is not bound to table %q (it is bound to %s)", id, table, bound)
	e.Fields = []fault.Problem{{Field: field, Message: fmt.Sprintf("not one of the principal's tables %v", tables), Value: table}}
	return e
}

// RolesOf lists, for each role, the routes it may call that are not
// stateless, sorted: what the stack's IAM role of that role must be allowed
// to invoke besides the stateless routes.
func RolesOf() map[principal.Role][]string {
	out := map[principal.Role][]string{}
	for route, rule := range Routes {
		for _, r := range rule.Roles {
			out[r] = append(out[r], route)
		}
	}
	for r := range out {
		slices.Sort(out[r])
	}
	return out
}
