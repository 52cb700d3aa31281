package dynamo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// Folds on a schedule (issue 34 item 4: reads never write). A round
// committed beside the pool reaches the ledger when its epoch is folded.
// A read never folds; a writer folds when the shards are full (foldNow),
// and an epoch open longer than FoldAfter is folded
//
//   - by the next contribution that lands in it (in the background, so
//     that its answer waits for nothing), and
//   - by the scheduled fold, FoldDue: every second in `serve`
//     (cmd/tablesettle), every minute on Lambda (functions/sweep), for
//     every pool in the registry of sharded pools.
//
// So a round reaches the ledger within FoldAfter + the scheduler's period
// + one fold's commit of being answered: under load (a contribution at
// least every second) about 3 s, and at most 5 s
// (TestFoldDueBoundsTheLedgerUnderLoad); on a quiet pool on Lambda,
// within the sweep's minute.

// FoldAfter is how long an epoch with rounds stays open before it is
// folded although its shards are not full: the bound on how long a round
// beside the pool waits for its ledger entry, less the scheduler's
// period.
const FoldAfter = 2 * time.Second

// The registry of pools with contribution shards: one item, pk
// "TABLESETTLE" sk "SHARDED", a string set of pool ids (ids), added to by
// CreatePool and by a pool's first commit in a process (a pool created
// before the registry), read by FoldDue. A pool is never removed.
const (
	pkRegistry = "TABLESETTLE"
	skSharded  = "SHARDED"
	attrIDs    = "ids"
)

// WithFoldAfter sets how long an epoch with rounds stays open before the
// next contribution to it folds it in the background and the scheduled
// fold (FoldDue) folds it: FoldAfter in the hosts (serve -dynamodb, the
// Lambda functions). Unset (0), contributions fold only full epochs, and
// FoldDue folds every epoch with rounds. The epoch's age is the pool's
// UpdatedAt against the store's clock, so the writers' clocks must agree.
func (s *Store) WithFoldAfter(d time.Duration) *Store {
	s.foldAfter = d
	return s
}

// registryAdd is the update that adds pool id to the registry.
func (s *Store) registryAdd(id string) types.TransactWriteItem {
	return types.TransactWriteItem{Update: &types.Update{TableName: aws.String(s.table),
		Key:                       map[string]types.AttributeValue{attrPK: str(pkRegistry), attrSK: str(skSharded)},
		UpdateExpression:          aws.String("ADD #ids :id"),
		ExpressionAttributeNames:  map[string]string{"#ids": attrIDs},
		ExpressionAttributeValues: map[string]types.AttributeValue{":id": &types.AttributeValueMemberSS{Value: []string{id}}}}}
}

// registered reports whether this process knows pool id to be in the
// registry; mark records that it is.
func (s *Store) registered(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inRegistry[id]
}

func (s *Store) markRegistered(id string) {
	s.mu.Lock()
	s.inRegistry[id] = true
	s.mu.Unlock()
}

// shardedPools lists the registry's pools and those this process has read.
func (s *Store) shardedPools(ctx context.Context) ([]string, error) {
	out, err := s.api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table),
		Key: map[string]types.AttributeValue{attrPK: str(pkRegistry), attrSK: str(skSharded)}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("dynamo: the registry of sharded pools: %w", err)
	}
	seen := map[string]bool{}
	if ss, ok := out.Item[attrIDs].(*types.AttributeValueMemberSS); ok {
		for _, id := range ss.Value {
			seen[id] = true
		}
	}
	s.mu.Lock()
	for id := range s.snap {
		seen[id] = true
	}
	s.mu.Unlock()
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

var _ pools.Folder = (*Store)(nil)

// FoldDue implements pools.Folder: it folds every pool whose shards hold
// rounds of an epoch open for FoldAfter or longer (one strongly consistent
// Query of its shards, and a read of the pool item when they hold
// rounds), and returns the pools it folded. A pool another writer folds
// first is not counted. It is the scheduled fold; nothing else reads it.
func (s *Store) FoldDue(ctx context.Context) ([]string, error) {
	ids, err := s.shardedPools(ctx)
	if err != nil {
		return nil, err
	}
	var folded []string
	var first error
	for _, id := range ids {
		ok, err := s.foldIfDue(ctx, id)
		if ok {
			folded = append(folded, id)
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return folded, first
}

// foldIfDue folds pool id when its shards hold rounds of an epoch open for
// FoldAfter or longer.
func (s *Store) foldIfDue(ctx context.Context, id string) (bool, error) {
	shards, err := s.readShards(ctx, id)
	if err != nil {
		return false, err
	}
	busy := false
	for _, sh := range shards {
		busy = busy || sh.pending.Rounds > 0
	}
	if !busy {
		return false, nil
	}
	p, err := s.poolItem(ctx, id)
	if errors.Is(err, jackpot.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	s.remember(p)
	if s.now().Sub(p.UpdatedAt) < max(s.foldAfter, 0) {
		return false, nil
	}
	switch err := s.foldNow(ctx, id, false); {
	case errors.Is(err, jackpot.ErrConflict):
		return false, nil // another commit folded them
	case err != nil:
		return false, err
	}
	return true, nil
}

// foldLate folds, in the background, the epoch a contribution just landed
// in when it has been open for FoldAfter or longer (at version v, opened
// at the snapshot's time): under load the writers bound a round's wait for
// its entry without a scheduler. One at a time per pool in a process.
func (s *Store) foldLate(ctx context.Context, pool string, v int64) {
	s.mu.Lock()
	p, ok := s.snap[pool]
	_, under := s.folding[pool]
	late := s.foldAfter > 0 && ok && p.Version == v && s.now().Sub(p.UpdatedAt) >= s.foldAfter && !under && !s.lateFold[pool]
	if late {
		s.lateFold[pool] = true
	}
	s.mu.Unlock()
	if !late {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), batchTime)
		defer cancel()
		_ = s.foldNow(ctx, pool, false) // lost or failed: the scheduled fold tries again
		s.mu.Lock()
		delete(s.lateFold, pool)
		s.mu.Unlock()
	}()
}
