package dynamo

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
