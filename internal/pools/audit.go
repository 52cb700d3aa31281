package pools

import (
	"context"
	"errors"
	"fmt"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// AuditPools is the scheduled verifier's step (issue 34 item 6; the sweep
// on Lambda): the reconcile of every pool from its latest verified
// checkpoint (Reconcile), whose cost is the entries after it. It returns
// each pool's reconciliation; a pool that could not be read is an error,
// after every other pool was audited.
func (s *Service) AuditPools(ctx context.Context) ([]jackpot.Reconciliation, error) {
	pl, ok := s.Store.(PoolLister)
	if !ok {
		return nil, nil
	}
	ids, err := pl.Pools(ctx)
	if err != nil {
		return nil, unavailable(err)
	}
	var out []jackpot.Reconciliation
	var errs []error
	for _, id := range ids {
		r, err := s.Reconcile(ctx, id)
		if err != nil {
			errs = append(errs, fmt.Errorf("pool %s: %w", id, err))
			continue
		}
		out = append(out, r)
	}
	return out, errors.Join(errs...)
}
