// Package principal is who is asking: an authenticated caller with its
// roles and the table ids it is bound to. The HTTP layer authenticates a
// request (a bearer token on the local server, the IAM identity in the
// API Gateway request context in the stack) and puts the Principal in the
// request's context; the use cases read it from there and record it on
// every ledger entry. A name typed into a request body is never a
// principal.
package principal

import (
	"context"
	"slices"
	"strings"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// Role is what a principal may do (issue 16).
type Role string

// The roles.
const (
	Table      Role = "table"      // settle rounds, apply them to pools, report irregularities, for its own tables only
	Supervisor Role = "supervisor" // confirm or void pending hits, propose corrections
	Cage       Role = "cage"       // read pools, hits and ledgers; mark a confirmed hit paid
	Controller Role = "controller" // approve (second signature) adjustments, settings changes, corrections, voids; reconcile
	Admin      Role = "admin"      // create pools, propose settings changes and meter adjustments
	Display    Role = "display"    // the sign: read a pool's meter, paytable and public hit states only (issue 24)
)

// Roles lists every role, in the order above.
var Roles = []Role{Table, Supervisor, Cage, Controller, Admin, Display}

// Valid reports whether r is one of Roles.
func (r Role) Valid() bool { return slices.Contains(Roles, r) }

// Principal is an authenticated caller.
type Principal struct {
	ID     string   // stable id: a name from the principals file, or an IAM ARN
	Roles  []Role   // what it may do
	Tables []string // the table ids a table principal may report for
	// Acting is the role this request acts in: the first of Roles that
	// the route allows (set by the HTTP layer once it has authorized the
	// request; "" on a stateless route). A ledger entry records it beside
	// ID.
	Acting Role
}

// Has reports whether p holds role r.
func (p *Principal) Has(r Role) bool { return p != nil && slices.Contains(p.Roles, r) }

// BoundTo reports whether p may report for table id.
func (p *Principal) BoundTo(table string) bool {
	return p != nil && slices.Contains(p.Tables, table)
}

type ctxKey struct{}

// NewContext returns ctx carrying p.
func NewContext(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, ctxKey{}, p)
}

// Require returns the principal ctx carries, or an Unauthenticated
// *fault.Error: a use case that moves money calls it first, so that a
// request that reached it without a principal is refused (401), never
// recorded under no name.
func Require(ctx context.Context) (*Principal, error) {
	if p, ok := FromContext(ctx); ok {
		return p, nil
	}
	return nil, fault.New(fault.Unauthenticated, "this operation needs an authenticated principal")
}

// FromContext returns the principal ctx carries, if any.
func FromContext(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(ctxKey{}).(*Principal)
	return p, ok && p != nil
}

// SamePerson reports whether principal ids a and b name one person: the
// same id, or two IAM identities of one account with the same name, where
// the name of a role session (arn:aws:sts::ACCOUNT:assumed-role/ROLE/NAME)
// is its session name and that of an IAM user (arn:aws:iam::ACCOUNT:user/
// PATH/NAME) its user name. That is how the stack's principals sign:
// alice's session of the admin role and her session of the controller role
// are two principals, one person. Dual control refuses such a pair; a pair
// it wrongly takes for one person only means another person approves.
// (The session name is the caller's choice: the README says how to make it
// the person's.)
func SamePerson(a, b string) bool {
	if a == b {
		return a != ""
	}
	pa, oka := iamPerson(a)
	pb, okb := iamPerson(b)
	return oka && okb && pa == pb
}

// iamPerson returns "partition:account:name" of a role session's or an IAM
// user's ARN.
func iamPerson(arn string) (string, bool) {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[1] == "" || parts[4] == "" {
		return "", false
	}
	kind, rest, _ := strings.Cut(parts[5], "/")
	segs := strings.Split(rest, "/")
	var name string
	switch {
	case parts[2] == "sts" && kind == "assumed-role" && len(segs) == 2 && segs[0] != "":
		name = segs[1]
	case parts[2] == "iam" && kind == "user":
		name = segs[len(segs)-1]
	}
	if name == "" {
		return "", false
	}
	return parts[1] + ":" + parts[4] + ":" + name, true
}
