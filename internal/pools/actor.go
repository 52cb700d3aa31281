package pools

import (
	"context"
	"slices"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// ActorOf is ctx's authenticated principal (never a name from a body)
// and the role it acts in: the one the edge set (principal.Acting)
// when it is one of roles, else the first of roles it holds.
// Unauthenticated without a principal, Forbidden without any of the roles.
func ActorOf(ctx context.Context, what string, roles ...principal.Role) (jackpot.Actor, error) {
	p, ok := principal.FromContext(ctx)
	if !ok {
		return jackpot.Actor{}, fault.New(fault.Unauthenticated, "authentication is required: who %s is recorded", what)
	}
	if p.Acting != "" && slices.Contains(roles, p.Acting) {
		return jackpot.Actor{ID: p.ID, Role: string(p.Acting)}, nil
	}
	for _, r := range roles {
		if p.Has(r) {
			return jackpot.Actor{ID: p.ID, Role: string(r)}, nil
		}
	}
	return jackpot.Actor{}, fault.New(fault.Forbidden, "who %s needs the %s role", what, roles[0])
}
