package dynamo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// Group commit (issue 25). Contributions to one pool in this process share
// transactions: a caller that finds no transaction of the pool in flight
// sends its round at once (a lone writer waits for nothing, never for a
// timer); callers that arrive while one is in flight queue, and when it
// returns the first of them sends everything queued it can (a batch) as
// one transaction, and hands on to the next. DynamoDB Local (and a shard
// item on AWS) takes one transaction at a time, and its cost is mostly per
// transaction, not per item: one transaction of k rounds commits many more
// rounds a second than k transactions.
//
// A batch is exact as a single round is:
//   - One Update per shard (DynamoDB refuses two operations on one item):
//     the rounds of a batch on one shard ADD their sums, append their record
//     keys, and are conditioned on the epoch, not sealed and #n <= cap - k
//     (k of them), so a shard never holds more than shardCap rounds an
//     epoch; each round's record names the shard it went to.
//   - Two rounds with a record key in common (a twin, or one
//     Idempotency-Key) are never in one batch: the second waits for the
//     next, where its record's condition fails (jackpot.ErrConflict, and
//     the service finds the first answer).
//   - A cancelled transaction wrote nothing, and says why item by item: a
//     record that exists fails its round alone (ErrConflict), the others are
//     sent again without it; a full shard's rounds go to shards with room
//     (or, every shard full, fold the epoch and go to the next); a sealed
//     shard or one past the epoch means the whole epoch is closed (seal and
//     commit write every shard of it in one transaction), so every round of
//     the batch gets ErrConflict; a missing shard gives its rounds
//     ErrSerial. A transaction another one held is sent again after a
//     jitter. Any other error leaves every round of the attempt unknown.
//   - Each round's contribution and its record are in the same
//     transaction: a round is committed exactly when its record is.

// group is one pool's queue of contributions.
type group struct {
	busy  bool         // a transaction of the pool is in flight (or about to be)
	queue []*groupCall // the contributions waiting, oldest first
}

// groupCall is one Contribute call, waiting or in a batch.
type groupCall struct {
	c     pools.Contribution
	items []map[string]types.AttributeValue // its records' items
	size  int                               // their size, about
	lead  chan struct{}                     // closed when it is to send the next batch
	out   chan error                        // its outcome (one)

	leading bool // chosen to send the next batch (under s.mu)
	shard   int  // its shard in the batch; -1 when none has room
	done    bool // its outcome is given (by the batch's sender only)
}

// shardFill is what this store knows the shards of a pool's epoch hold:
// for each, at least n rounds (what it added, and what a failed condition
// returned). The shards' counts only grow within an epoch.
type shardFill struct {
	epoch int64
	n     map[int]int64
}

// errMoved refuses a contribution for its epoch, not for its record: the
// epoch is closed (sealed, or committed past), or full and folded, or every
// attempt met another transaction. Nothing of it was written; it is a
// jackpot.ErrConflict and a pools.ErrMoved to the service, which tries a
// newer snapshot without reading the round's records first.
var errMoved = fmt.Errorf("dynamo: the contribution's epoch is closed or full: %w: %w", pools.ErrMoved, jackpot.ErrConflict)

// maxBatchBytes bounds a batch's items (DynamoDB: 4 MB a transaction).
const maxBatchBytes = 4_000_000

// batchTime bounds a batch that carries other callers' rounds (the
// caller's cancellation does not stop it).
const batchTime = 30 * time.Second

// batchAttempts is how many transactions one batch sends at most (each
// after a cancellation that wrote nothing): what is left then gets
// ErrConflict.
const batchAttempts = 16

// Contribute implements pools.ContributionStore: the round goes in one
// transaction with the pool's other contributions queued in this process
// (group commit): per shard one Update (ADDs and the rounds' record keys
// appended, conditioned on the epoch, not sealed and room for them), and
// each round's records, the first carrying its contribution entry.
func (s *Store) Contribute(ctx context.Context, c pools.Contribution) error {
	if s.shards == 0 {
		return jackpot.ErrConflict
	}
	if len(c.Records) == 0 {
		return errors.New("dynamo: a contribution without a round record")
	}
	call := &groupCall{c: c, lead: make(chan struct{}), out: make(chan error, 1), shard: -1}
	for i, r := range c.Records {
		extra := map[string]types.AttributeValue{}
		if i == 0 {
			extra[attrEpoch], extra[attrShard] = num(c.Version), num(0)
			if c.Entry != nil {
				// The round's entry is its record's answer and these
				// numbers (entryOf): the record stays under 1 KB.
				extra[attrRate], extra[attrRateR] = num(c.Entry.RateSum), num(c.Entry.RateSumReserve)
				if a := c.Entry.Actor; a != nil {
					extra[attrActor], extra[attrRole] = str(a.ID), str(a.Role)
				}
			}
		}
		it, err := item(c.Pool, skRecord(r.Key), r, extra)
		if err != nil {
			return err
		}
		call.items = append(call.items, it)
		call.size += ItemSize(it)
	}
	s.mu.Lock()
	g := s.groups[c.Pool]
	if g == nil {
		g = &group{}
		s.groups[c.Pool] = g
	}
	g.queue = append(g.queue, call)
	leads := !g.busy
	g.busy = true
	s.mu.Unlock()
	if !leads {
		select {
		case err := <-call.out:
			if err == nil {
				s.foldLate(ctx, c.Pool, c.Version)
			}
			return err
		case <-call.lead:
		case <-ctx.Done():
			s.mu.Lock()
			if i := slices.Index(g.queue, call); i >= 0 && !call.leading {
				// Never sent: nothing of it was written.
				g.queue = slices.Delete(g.queue, i, i+1)
				s.mu.Unlock()
				return fmt.Errorf("dynamo: contribute to %s: %w", c.Pool, ctx.Err())
			}
			s.mu.Unlock()
			// In a batch under way, or chosen to send the next one.
			select {
			case err := <-call.out:
				return err
			case <-call.lead:
			}
		}
	}
	s.sendBatch(ctx, c.Pool, g)
	err := <-call.out
	if err == nil {
		s.foldLate(ctx, c.Pool, c.Version)
	}
	return err
}

// sendBatch takes a batch from the head of g's queue (the caller's own
// contribution first), commits it, gives each of its rounds its outcome,
// and hands the queue on. A batch of other callers' rounds too runs
// without the caller's cancellation, for at most batchTime.
func (s *Store) sendBatch(ctx context.Context, pool string, g *group) {
	defer s.handOn(pool, g)
	batch, room, closed := s.takeBatch(pool, g)
	if len(batch) > 1 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), batchTime)
		defer cancel()
	}
	v := batch[0].c.Version
	if closed {
		// Their epochs are closed: nothing to send, nothing to fold.
		for _, c := range batch {
			s.move(pool, c.c.Version, []*groupCall{c})
		}
		return
	}
	if !room {
		// Every shard of the epoch is known full: fold them into the
		// pool (whoever folds first), and these rounds, all of the
		// epoch, go to the next one.
		_ = s.foldNow(ctx, pool, false)
		s.move(pool, v, batch)
		return
	}
	for _, c := range s.commitBatch(ctx, pool, v, batch) {
		if !c.done {
			// The shards are full with this batch's rounds: fold them,
			// and the rounds that found no room go to the next epoch.
			_ = s.foldNow(ctx, pool, false)
			break
		}
	}
	// The rounds without room, or left when every attempt was cancelled:
	// nothing of them was written.
	s.move(pool, v, batch)
}

// move refuses the rounds of calls without an outcome yet for their
// epoch v (errMoved), noting first that Snapshot is to serve a fresh
// snapshot from its cache only when the cache is past v.
func (s *Store) move(pool string, v int64, calls []*groupCall) {
	noted := false
	for _, c := range calls {
		if c.done {
			continue
		}
		if !noted {
			s.mu.Lock()
			s.moved[pool] = max(s.moved[pool], v)
			s.mu.Unlock()
			noted = true
		}
		c.give(errMoved)
	}
}

// give is c's outcome.
func (c *groupCall) give(err error) {
	if !c.done {
		c.done = true
		c.out <- err
	}
}

// handOn makes the oldest waiting contribution of g send the next batch,
// or leaves the pool idle.
func (s *Store) handOn(pool string, g *group) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(g.queue) == 0 {
		g.busy = false
		if s.groups[pool] == g {
			delete(s.groups, pool)
		}
		return
	}
	next := g.queue[0]
	next.leading = true
	close(next.lead)
}

// takeBatch removes a batch from the head of g's queue: its first
// contribution, and every later one of the same epoch that fits beside it
// (no record key in common, room on a shard, 100 items, 4 MB). Else, with
// closed true, every queued contribution of an epoch the pool is known to
// have left (this store saw a later one: computed before a fold, they
// queued while it landed); with room false, every one of the first's
// epoch, whose shards are all known full.
func (s *Store) takeBatch(pool string, g *group) (batch []*groupCall, room, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := g.queue[0]
	v := first.c.Version
	cur := s.fill[pool].epoch
	if p, ok := s.snap[pool]; ok {
		cur = max(cur, p.Version)
	}
	take := func(doomed func(int64) bool) {
		var rest []*groupCall
		for _, c := range g.queue {
			if doomed(c.c.Version) {
				batch = append(batch, c)
			} else {
				rest = append(rest, c)
			}
		}
		g.queue = rest
	}
	if v < cur {
		take(func(w int64) bool { return w < cur })
		return batch, false, true
	}
	known := s.knownLocked(pool, v)
	load := map[int]int64{}
	if !s.placeLocked(first, ShardOf(first.c.Table, s.shards), known, load) {
		take(func(w int64) bool { return w == v })
		return batch, false, false
	}
	batch = []*groupCall{first}
	keys := map[string]bool{}
	for _, r := range first.c.Records {
		keys[r.Key] = true
	}
	items, size := len(first.items)+1, first.size
	rest := []*groupCall{}
	for _, c := range g.queue[1:] {
		fits := c.c.Version == v && items+len(c.items)+1 <= MaxItems && size+c.size <= maxBatchBytes
		for _, r := range c.c.Records {
			fits = fits && !keys[r.Key]
		}
		if fits {
			was := len(load)
			if fits = s.placeLocked(c, ShardOf(c.c.Table, s.shards), known, load); fits {
				items += len(c.items)
				if len(load) > was {
					items++ // its shard's Update
				}
			}
		}
		if !fits {
			rest = append(rest, c)
			continue
		}
		for _, r := range c.c.Records {
			keys[r.Key] = true
		}
		size += c.size
		batch = append(batch, c)
	}
	g.queue = rest
	return batch, true, false
}

// placeLocked puts c on a shard with room for one more round beside what
// it is known to hold and the batch's load: first one the batch already
// uses (lowest first: the fewer shards a transaction writes, the fewer
// items and write units, as one Update carries the sums of all its rounds
// there), else the first from k on, round the ring; false when none has
// room.
func (s *Store) placeLocked(c *groupCall, k int, known, load map[int]int64) bool {
	cp := s.shardCap()
	used := make([]int, 0, len(load))
	for j, n := range load {
		if n > 0 {
			used = append(used, j)
		}
	}
	sort.Ints(used)
	for _, j := range used {
		if known[j]+load[j] < cp {
			c.shard = j
			load[j]++
			return true
		}
	}
	for i := range s.shards {
		j := (k + i) % s.shards
		if known[j]+load[j] < cp {
			c.shard = j
			load[j]++
			return true
		}
	}
	c.shard = -1
	return false
}

// knownLocked is what the shards of pool's epoch are known to hold (a
// throwaway for an epoch older than the one known: its rounds are refused).
func (s *Store) knownLocked(pool string, epoch int64) map[int]int64 {
	f := s.fill[pool]
	if f.n == nil || f.epoch < epoch {
		f = shardFill{epoch: epoch, n: map[int]int64{}}
		s.fill[pool] = f
	}
	if f.epoch != epoch {
		return map[int]int64{}
	}
	return f.n
}

// commitBatch sends batch (contributions to epoch v, each placed on a
// shard) until every round has its outcome, or has no room (returned: the
// epoch's shards are full).
func (s *Store) commitBatch(ctx context.Context, pool string, v int64, batch []*groupCall) (noRoom []*groupCall) {
	contended := 0
	for attempt := 0; ; attempt++ {
		var live []*groupCall
		for _, c := range batch {
			if !c.done && c.shard >= 0 {
				live = append(live, c)
			}
		}
		if len(live) == 0 {
			break
		}
		if attempt == batchAttempts {
			// Every attempt was cancelled: nothing of them was written.
			s.move(pool, v, live)
			break
		}
		tx, shards, rounds := s.batchTx(pool, v, live)
		_, err := s.api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx})
		if err == nil {
			s.mu.Lock()
			known := s.knownLocked(pool, v)
			for _, c := range live {
				known[c.shard]++
			}
			s.mu.Unlock()
			s.keepEntries(pool, live)
			for _, c := range live {
				c.give(nil)
			}
			break
		}
		var tce *types.TransactionCanceledException
		var tc *types.TransactionConflictException
		if !errors.As(err, &tce) && errors.As(err, &tc) {
			tce = &types.TransactionCanceledException{} // held by another transaction, nothing written
		}
		if tce == nil {
			// The outcome is unknown: each round's record tells.
			for _, c := range live {
				c.give(fmt.Errorf("dynamo: contribute to %s: %w", pool, err))
			}
			break
		}
		full := map[int]bool{}
		failed, held := false, len(tce.CancellationReasons) == 0
		for i, r := range tce.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "", "None":
				continue
			case "TransactionConflict":
				held = true
				continue
			case "ConditionalCheckFailed":
			default:
				// Throttled, invalid, too large: as before group commit,
				// an error the service treats as unknown.
				for _, c := range live {
					c.give(fmt.Errorf("dynamo: contribute to %s: %w", pool, err))
				}
				return noRoom
			}
			failed = true
			if i >= len(shards) {
				// A round's record exists: a twin's, a replay's, or this
				// round's own from an attempt whose answer was lost.
				rounds[i-len(shards)].give(jackpot.ErrConflict)
				continue
			}
			k, it := shards[i], r.Item
			_, sealed := it[attrSealed]
			switch {
			case len(it) == 0:
				// A pool without shards yet (created before them): its
				// rounds go to the pool, whose commit creates them.
				s.forget(pool)
				for _, c := range live {
					if c.shard == k {
						c.give(pools.ErrSerial)
					}
				}
			case intAttr(it, attrEpoch) == v && !sealed:
				// Full: what it holds leaves no room for all of them.
				s.mu.Lock()
				known := s.knownLocked(pool, v)
				known[k] = max(known[k], intAttr(it, attrRounds))
				s.mu.Unlock()
				full[k] = true
			default:
				// Sealed for a commit under way, or moved on: the whole
				// epoch is closed (a seal and a commit write every shard
				// of it in one transaction). Nothing of the batch was
				// written; a fold of this process under way lands before
				// the rounds are tried again.
				s.forgetUpTo(pool, v)
				s.awaitFold(ctx, pool)
				s.move(pool, v, batch)
				return noRoom
			}
		}
		if len(full) > 0 {
			// The rounds of a full shard go to shards with room (the
			// others keep theirs).
			noRoom = append(noRoom, s.replace(pool, v, live, func(c *groupCall) bool { return full[c.shard] })...)
		}
		if failed && !held {
			continue
		}
		// Another transaction held a shard or a record: nothing was
		// written; the same rounds again after a short jitter, each on
		// the next shard with room (any shard of the epoch is folded
		// alike).
		if contended++; contended >= contendedAttempts {
			s.move(pool, v, live)
			break
		}
		if err := sleepJitter(ctx, contended); err != nil {
			s.move(pool, v, live)
			break
		}
		noRoom = append(noRoom, s.replace(pool, v, live, func(*groupCall) bool { return true })...)
	}
	return noRoom
}

// replace puts the rounds of live without an outcome that moves picks on
// the next shard with room (from their own on), beside what the shards are
// known to hold and the rounds that stay; it returns those that find none.
func (s *Store) replace(pool string, v int64, live []*groupCall, moves func(*groupCall) bool) (noRoom []*groupCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	known := s.knownLocked(pool, v)
	load := map[int]int64{}
	for _, c := range live {
		if !c.done && c.shard >= 0 && !moves(c) {
			load[c.shard]++
		}
	}
	for _, c := range live {
		if !c.done && c.shard >= 0 && moves(c) && !s.placeLocked(c, c.shard+1, known, load) {
			noRoom = append(noRoom, c)
		}
	}
	return noRoom
}

// batchTx is the transaction of live (each placed on a shard): one Update
// per shard used, in shard order, then each round's records; shards[i] is
// the shard of item i, rounds[j] the round of item len(shards)+j.
func (s *Store) batchTx(pool string, v int64, live []*groupCall) (tx []types.TransactWriteItem, shards []int, rounds []*groupCall) {
	on := map[int][]*groupCall{}
	for _, c := range live {
		if len(on[c.shard]) == 0 {
			shards = append(shards, c.shard)
		}
		on[c.shard] = append(on[c.shard], c)
	}
	sort.Ints(shards)
	cp := s.shardCap()
	for _, k := range shards {
		var wagers, amount, carry, carryR int64
		var keys []types.AttributeValue
		for _, c := range on[k] {
			if e := c.c.Entry; e != nil {
				wagers += e.Wagers
				amount += int64(e.WagerAmount)
				carry += e.CarryDisplayed
				carryR += e.CarryReserve
				// The round's record key, so that the fold finds its entry.
				keys = append(keys, str(c.c.Records[0].Key))
			}
		}
		n := int64(len(on[k]))
		u := &types.Update{TableName: aws.String(s.table), Key: key(pool, skShard(k)),
			UpdateExpression:         aws.String("ADD #version :one, #n :k, #wagers :w, #amount :a, #cd :cd, #cr :cr"),
			ConditionExpression:      aws.String("#epoch = :epoch AND attribute_not_exists(#sealed) AND #n <= :room"),
			ExpressionAttributeNames: map[string]string{"#version": attrVersion, "#n": attrRounds, "#wagers": attrWagers, "#amount": attrAmount, "#epoch": attrEpoch, "#sealed": attrSealed, "#cd": attrCarry, "#cr": attrCarryR},
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":k": num(n), ":w": num(wagers), ":a": num(amount),
				":cd": num(carry), ":cr": num(carryR), ":epoch": num(v), ":room": num(cp - n)},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
		if len(keys) > 0 {
			u.UpdateExpression = aws.String("SET #keys = list_append(if_not_exists(#keys, :none), :keys) " + *u.UpdateExpression)
			u.ExpressionAttributeNames["#keys"] = attrKeys
			u.ExpressionAttributeValues[":none"] = &types.AttributeValueMemberL{Value: []types.AttributeValue{}}
			u.ExpressionAttributeValues[":keys"] = &types.AttributeValueMemberL{Value: keys}
		}
		tx = append(tx, types.TransactWriteItem{Update: u})
	}
	for _, k := range shards {
		for _, c := range on[k] {
			c.items[0][attrShard] = num(int64(c.shard))
			for _, it := range c.items {
				tx = append(tx, notExists(it, s.table))
				rounds = append(rounds, c)
			}
		}
	}
	return tx, shards, rounds
}

// keepEntries keeps the contribution entries of live, just committed, for
// the fold that will read them (roundsOf): entryOf of the very items
// written, as a read of their records would give (a record never changes
// once written). At most a few epochs' worth are kept.
func (s *Store) keepEntries(pool string, live []*groupCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.rounds[pool]
	if m == nil || len(m) > 4*MaxItems {
		m = map[string]jackpot.Entry{}
		s.rounds[pool] = m
	}
	for _, c := range live {
		if c.c.Entry == nil {
			continue
		}
		if e, err := entryOf(c.items[0]); err == nil && e != nil {
			m[c.c.Records[0].Key] = *e
		}
	}
}
