package pools_test

import (
	"context"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// The ledger records the authenticated principal in the role it acts in
// (issue 16): the role the edge set when the operation allows it, else the
// first allowed role it holds; nobody is Unauthenticated, a principal
// without an allowed role Forbidden.
func TestActorOf(t *testing.T) {
	as := func(p *principal.Principal) context.Context { return principal.NewContext(context.Background(), p) }
	ann := &principal.Principal{ID: "ann", Roles: []principal.Role{principal.Admin, principal.Supervisor}}
	acting := &principal.Principal{ID: "ann", Roles: ann.Roles, Acting: principal.Supervisor}
	for _, c := range []struct {
		name  string
		ctx   context.Context
		roles []principal.Role
		want  jackpot.Actor
		kind  fault.Kind
	}{
		{"the first allowed role held", as(ann), []principal.Role{principal.Supervisor, principal.Admin}, jackpot.Actor{ID: "ann", Role: "supervisor"}, 0},
		{"the role acted in, when allowed", as(acting), []principal.Role{principal.Admin, principal.Supervisor}, jackpot.Actor{ID: "ann", Role: "supervisor"}, 0},
		{"the role acted in, not allowed", as(acting), []principal.Role{principal.Admin}, jackpot.Actor{ID: "ann", Role: "admin"}, 0},
		{"no allowed role", as(ann), []principal.Role{principal.Cage}, jackpot.Actor{}, fault.Forbidden},
		{"nobody", context.Background(), []principal.Role{principal.Admin}, jackpot.Actor{}, fault.Unauthenticated},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, err := pools.ActorOf(c.ctx, "adjusts", c.roles...)
			if a != c.want || (c.kind == 0) != (err == nil) || (err != nil && !fault.Is(err, c.kind)) {
				t.Errorf("got %+v %v, want %+v kind %v", a, err, c.want, c.kind)
			}
		})
	}
}
