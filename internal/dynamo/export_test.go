package dynamo

import "context"

// Queued is how many contributions to pool wait in this process for the
// transaction in flight (group commit): the tests start a burst, wait
// until it is queued, and only then let the transaction in flight return.
func (s *Store) Queued(pool string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.groups[pool]; g != nil {
		return len(g.queue)
	}
	return 0
}

// WithHitLogPage makes a backfill of the hit log read n ledger entries at
// a time (hits.go), so that a test's short ledger takes several pages.
func (s *Store) WithHitLogPage(n int) *Store {
	s.hitLogPage = n
	return s
}

// BackfillLogSteps runs one call of the log's backfill of at most pages
// pages (loghash.go): done when it reached the end.
func (s *Store) BackfillLogSteps(ctx context.Context, id string, pages int) (bool, error) {
	return s.backfillLog(ctx, id, pages)
}
