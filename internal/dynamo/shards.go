package dynamo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"sort"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// Contribution shards (issue 25). A round without a hit adds its wagers
// to one of the pool's shard items, sk "SHARD#<nnn>" (chosen by a hash of
// the table id), with atomic ADDs, appends its record key to the shard's
// list, and writes its round record (which carries its contribution
// entry), in one transaction that neither reads nor versions the pool
// item: contributions commute. Each shard names the epoch it takes
// contributions for, the pool's version: a contribution computed from the
// pool at version V lands only while the shard's epoch is V, the shard is
// not sealed and holds fewer than shardCap rounds.
//
// Every other change reads the pool item and every shard (Pool: the
// shards' pending contributions folded in, jackpot.Rules.Fold) and
// commits the pool, each folded round's own ledger entry (read from its
// record, jackpot.Rules.FoldRounds; all of them in one ledger item,
// ledgerItem), the epoch's fold item, its own
// entries, and every shard emptied and moved to the new epoch, each
// conditioned on the version it was read at. A contribution that lands between the read and the commit
// fails that condition: the committer then seals the epoch's shards (no
// contribution lands in it any more) and reads again, so the commit that
// follows cannot be overtaken. Either way a contribution is in the
// commit's fold (before its hit) or in the next epoch (after its reset),
// never both, never neither.

// DefaultShards is the number of contribution shards a store gives a pool
// unless told otherwise (New; WithShards, serve -shards).
const DefaultShards = 16

// MaxShards is the most contribution shards a pool may have: every commit
// of the pool writes them all in its one transaction (MaxItems: 100), beside
// the pool, its fold and up to MaxReleasedPerCommit released hits' entries.
const MaxShards = 24

const (
	attrEpoch  = "epoch"
	attrRounds = "n"
	attrWagers = "wagers"
	attrAmount = "amount"
	attrSealed = "sealed"
	attrRate   = "rs"  // a record's round beside the pool: its sum(wager x rate)
	attrRateR  = "rsr" // and sum(wager x reserve rate), in 1/10000 of the minor unit
	attrShard  = "shard"
	attrLast   = "last" // the last round's entry, kept by shards before per-round folds (removed by every fold)
	attrKeys   = "keys" // the record keys of the rounds with a wager the shard took, in commit order
	attrActor  = "aid"  // a record's round beside the pool: its principal's id
	attrRole   = "arole"
	attrFirst  = "first"
	attrCarry  = "cd" // a shard's rounds' own fractions, summed (jackpot.Pending.CarryDisplayed)
	attrCarryR = "cr" // and the reserve's
	prefShard  = "SHARD#"
	prefFold   = "FOLD#"
)

// MaxShardRounds is the most rounds one shard takes in an epoch: every
// round with a wager adds its record key (up to 135 bytes) to the shard
// item, which stays under 1 KB with 5 (a contribution then costs 2 WRU on
// its shard). A round that finds its shard full goes to another with
// room, and when none has any folds the epoch (foldNow; group.go).
const MaxShardRounds = 5

// shardCap is how many rounds one shard takes in an epoch: MaxShardRounds
// (a fold alone writes the pool, its entries' item, its fold item and
// every shard, whatever the number of rounds: at most MaxShards+3 items).
func (s *Store) shardCap() int64 {
	if s.shards == 0 {
		return 0
	}
	return MaxShardRounds
}

func skShard(k int) string { return fmt.Sprintf("%s%03d", prefShard, k) }

// skFold is the fold item of an epoch: the first sequence number and the
// number of the entries its fold wrote, one per round (Contributed finds a
// round's entry through it).
func skFold(epoch int64) string { return fmt.Sprintf("%s%019d", prefFold, epoch) }

// ShardOf is the shard of a table's contributions among n.
func ShardOf(table string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(table))
	return int(h.Sum32() % uint32(n))
}

// WithShards sets the number of contribution shards the store gives a
// pool (1 to MaxShards; DefaultShards unless set; 0 turns contributions
// beside the pool off: every round is committed to the pool item, as
// before issue 25, and the shards a pool already has are still folded
// into it). Every writer of a table should use the same number.
func (s *Store) WithShards(n int) *Store {
	s.shards = min(max(n, 0), MaxShards)
	return s
}

// Shards is the number of contribution shards the store gives a pool.
func (s *Store) Shards() int { return s.shards }

// shard is one shard item as read.
type shard struct {
	sk      string
	version int64
	epoch   int64
	sealed  bool
	pending jackpot.Pending
	keys    []string // the record keys of its rounds with a wager
	// carries: the shard sums its rounds' own fractions (cd, cr); a shard
	// written before issue 34 does not, and its rounds' are read from
	// their records (carriesOf).
	carries bool
}

// shardMark is what Pool folded, carried to Commit in jackpot.Pool.Shards:
// the epoch, every shard's version as read, and, when the shards held
// rounds, their record keys and the pool they fold into (its meters,
// settings and sequence number before the fold), from which Commit posts
// each round's own entry (jackpot.Rules.FoldRounds).
type shardMark struct {
	Epoch    int64            `json:"epoch"`
	Versions map[string]int64 `json:"versions"`
	Keys     []string         `json:"keys,omitempty"`
	Base     *foldBase        `json:"base,omitempty"`
}

// foldBase is the pool a fold starts from, and what the shards held.
type foldBase struct {
	Seq      int64            `json:"seq"`
	Settings jackpot.Settings `json:"settings"`
	Meters   jackpot.Meters   `json:"meters"`
	Pending  jackpot.Pending  `json:"pending"`
}

func intAttr(it map[string]types.AttributeValue, name string) int64 {
	if v, ok := it[name].(*types.AttributeValueMemberN); ok {
		n, _ := strconv.ParseInt(v.Value, 10, 64)
		return n
	}
	return 0
}

// readShards reads every shard item of a pool (one strongly consistent
// Query: O(shards) small items).
func (s *Store) readShards(ctx context.Context, id string) ([]shard, error) {
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :pre)"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#sk": attrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk(id)), ":pre": str(prefShard)},
		ConsistentRead:            aws.Bool(true),
	}
	var out []shard
	for {
		page, err := s.api.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("dynamo: shards of %s: %w", id, err)
		}
		for _, it := range page.Items {
			sk, _ := it[attrSK].(*types.AttributeValueMemberS)
			if sk == nil {
				continue
			}
			_, sealed := it[attrSealed]
			_, carries := it[attrCarry]
			sh := shard{sk: sk.Value, version: intAttr(it, attrVersion), epoch: intAttr(it, attrEpoch), sealed: sealed, carries: carries,
				pending: jackpot.Pending{Rounds: intAttr(it, attrRounds), Wagers: intAttr(it, attrWagers), WagerAmount: money.Amount(intAttr(it, attrAmount)),
					CarryDisplayed: intAttr(it, attrCarry), CarryReserve: intAttr(it, attrCarryR)}}
			if l, ok := it[attrKeys].(*types.AttributeValueMemberL); ok {
				for _, v := range l.Value {
					if k, ok := v.(*types.AttributeValueMemberS); ok {
						sh.keys = append(sh.keys, k.Value)
					}
				}
			}
			if sh.pending.Wagers > 0 && len(sh.keys) == 0 {
				return nil, fmt.Errorf("dynamo: shard %s of %s holds %d wagers and no round: written before per-round folds; fold it with that version", sh.sk, id, sh.pending.Wagers)
			}
			out = append(out, sh)
		}
		if len(page.LastEvaluatedKey) == 0 {
			return s.carriesOf(ctx, id, out)
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
}

// carriesOf fills in the rounds' own fractions of the shards written
// before they were summed (issue 34: no cd, cr) from their rounds'
// records, which keep them: the number of carry entries a fold posts
// follows from them (jackpot.Rules.Fold). Only an epoch under way when
// the store was upgraded has such shards; every fold resets them.
func (s *Store) carriesOf(ctx context.Context, id string, shards []shard) ([]shard, error) {
	for i := range shards {
		sh := &shards[i]
		if sh.carries || len(sh.keys) == 0 {
			continue
		}
		rounds, err := s.roundsOf(ctx, id, sh.keys)
		if err != nil {
			return nil, err
		}
		for _, e := range rounds {
			sh.pending.CarryDisplayed += e.CarryDisplayed
			sh.pending.CarryReserve += e.CarryReserve
		}
		sh.carries = true
	}
	return shards, nil
}

// pendingOf sums what the shards of epoch hold.
func pendingOf(shards []shard, epoch int64) (jackpot.Pending, error) {
	var sum jackpot.Pending
	for _, sh := range shards {
		if sh.epoch != epoch {
			continue
		}
		var err error
		if sum, err = sum.Add(sh.pending); err != nil {
			return jackpot.Pending{}, err
		}
	}
	return sum, nil
}

// view is the pool item p with its shards folded in: the pool as it
// stands (Pool, and so every serial change, reads it). Its meters come
// from the shards' sums (jackpot.Rules.Fold), and its Seq is past one
// entry per round with a wager: Commit posts each of them (commitFold).
func (s *Store) view(p jackpot.Pool, shards []shard) (jackpot.Pool, error) {
	pend, err := pendingOf(shards, p.Version)
	if err != nil {
		return jackpot.Pool{}, fmt.Errorf("dynamo: shards of %s: %w", p.ID, err)
	}
	m := shardMark{Epoch: p.Version, Versions: map[string]int64{}}
	for _, sh := range shards {
		m.Versions[sh.sk] = sh.version
		if sh.epoch == p.Version {
			m.Keys = append(m.Keys, sh.keys...)
		}
	}
	q, err := jackpot.Rules{}.Fold(p, pend, int64(len(m.Keys)))
	if err != nil {
		return jackpot.Pool{}, fmt.Errorf("dynamo: fold the shards of %s: %w", p.ID, err)
	}
	if len(m.Keys) > 0 {
		m.Base = &foldBase{Seq: p.Seq, Settings: p.Settings, Meters: p.Meters, Pending: pend}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return jackpot.Pool{}, err
	}
	q.Shards = string(b)
	return q, nil
}

// foldNow commits the rounds the shards of the pool's epoch hold into it,
// with nothing else (a commit of the pool moving it to the next epoch,
// sealed with sealNext). Nothing to fold is no commit. jackpot.ErrConflict:
// another commit landed first (it folded them).
func (s *Store) foldNow(ctx context.Context, id string, sealNext bool) error {
	// One fold of a pool at a time in this process: the rounds that find
	// the shards full together wait for the first one's fold.
	s.mu.Lock()
	if wait, ok := s.folding[id]; ok {
		s.mu.Unlock()
		select {
		case <-wait:
			return jackpot.ErrConflict
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	done := make(chan struct{})
	s.folding[id] = done
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.folding, id)
		s.mu.Unlock()
		close(done)
	}()
	var epoch int64
	for n := 0; ; n++ {
		p, err := s.poolItem(ctx, id)
		if err != nil {
			return err
		}
		s.remember(p)
		if n > 0 && p.Version != epoch {
			return jackpot.ErrConflict // another commit folded them
		}
		epoch = p.Version
		shards, err := s.readShards(ctx, id)
		if err != nil {
			return err
		}
		busy := false
		for _, sh := range shards {
			busy = busy || (sh.epoch == p.Version && sh.pending.Rounds > 0)
		}
		if !busy {
			return nil
		}
		if n == 0 && !s.closed(p.Version, shards) {
			// Seal the epoch first (one small transaction): no
			// contribution then lands between this read and the
			// commit, which would cancel the commit of the whole fold.
			if err := s.seal(ctx, id, p.Version, shards); err != nil {
				return err
			}
			if shards, err = s.readShards(ctx, id); err != nil {
				return err
			}
		}
		q, err := s.view(p, shards)
		if err != nil {
			return err
		}
		q.Version = p.Version + 1
		q.UpdatedAt = s.now()
		err = s.commit(ctx, jackpot.Commit{PrevVersion: p.Version, Pool: q}, sealNext)
		if !errors.Is(err, jackpot.ErrConflict) || n == foldAttempts-1 {
			return err
		}
		// A contribution landed since the read: the commit sealed the
		// epoch, so the next read is the last; nothing lands until a
		// commit of the pool, so it must be made.
	}
}

// closed reports whether every shard read is of epoch and takes no more
// contribution in it: sealed, or full (shardCap rounds; the fold of an
// epoch whose shards filled up, the usual one, then needs no seal).
func (s *Store) closed(epoch int64, shards []shard) bool {
	if s.shards == 0 {
		return false // no cap known: the writers' may be any
	}
	for _, sh := range shards {
		if sh.epoch != epoch || !(sh.sealed || sh.pending.Rounds >= s.shardCap()) {
			return false
		}
	}
	return len(shards) > 0
}

// awaitFold waits for this process's fold of pool under way, if any.
func (s *Store) awaitFold(ctx context.Context, pool string) {
	s.mu.Lock()
	wait, ok := s.folding[pool]
	s.mu.Unlock()
	if ok {
		select {
		case <-wait:
		case <-ctx.Done():
		}
	}
}

// foldAttempts is how many times foldNow reads and commits a fold whose
// shards moved under it (the first lost race seals them).
const foldAttempts = 4

// commitFold is the fold the commit of a pool read through Pool writes:
// each round's own contribution entry (from its record, in the order of
// their times, their shards' order breaking ties), numbered from the pool's
// Seq on, and the epoch's fold item naming them. Their sum is checked
// against the pool's meters as Pool read them (Fold); never written when
// they differ.
func (s *Store) commitFold(ctx context.Context, id string, m shardMark) ([]jackpot.Entry, map[string]types.AttributeValue, error) {
	fold, err := s.foldEntries(ctx, id, m)
	if err != nil || len(fold) == 0 {
		return nil, nil, err
	}
	it := key(id, skFold(m.Epoch))
	it[attrPool], it[attrFirst], it[attrRounds] = str(id), num(fold[0].Seq), num(int64(len(fold)))
	return fold, it, nil
}

// Folding implements pools.ContributionStore: the entries commitFold
// writes for p (read through Pool).
func (s *Store) Folding(ctx context.Context, p jackpot.Pool) ([]jackpot.Entry, error) {
	if p.Shards == "" {
		return nil, nil
	}
	var m shardMark
	if err := json.Unmarshal([]byte(p.Shards), &m); err != nil {
		return nil, fmt.Errorf("dynamo: the shard note of %s: %w", p.ID, err)
	}
	return s.foldEntries(ctx, p.ID, m)
}

// foldEntries are the rounds' own entries of a fold (commitFold).
func (s *Store) foldEntries(ctx context.Context, id string, m shardMark) ([]jackpot.Entry, error) {
	if len(m.Keys) == 0 || m.Base == nil {
		return nil, nil
	}
	rounds, err := s.roundsOf(ctx, id, m.Keys)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(rounds, func(i, j int) bool { return rounds[i].At.Before(rounds[j].At) })
	base := jackpot.Pool{ID: id, Settings: m.Base.Settings, Meters: m.Base.Meters, Seq: m.Base.Seq}
	folded, fold, err := jackpot.Rules{}.FoldRounds(base, rounds)
	if err != nil {
		return nil, fmt.Errorf("dynamo: fold the shards of %s: %w", id, err)
	}
	sum, err := jackpot.Rules{}.Fold(base, m.Base.Pending, int64(len(m.Keys)))
	if err != nil {
		return nil, fmt.Errorf("dynamo: fold the shards of %s: %w", id, err)
	}
	if !reflect.DeepEqual(folded.Meters, sum.Meters) || folded.Seq != sum.Seq {
		return nil, fmt.Errorf("dynamo: fold the shards of %s: the rounds' entries (%+v) are not what the shards hold (%+v)", id, folded.Meters, sum.Meters)
	}
	return fold, nil
}

// roundsOf reads the contribution entries kept with the records of keys
// (strongly consistent BatchGetItems).
func (s *Store) roundsOf(ctx context.Context, id string, keys []string) ([]jackpot.Entry, error) {
	out := make([]jackpot.Entry, len(keys))
	read := make([]bool, len(keys))
	// A record never changes once written: the entries read for the last
	// fold of the pool (a fold tried again after a lost race reads the
	// same rounds and more) are kept.
	s.mu.Lock()
	cached := s.rounds[id]
	for i, k := range keys {
		if e, ok := cached[k]; ok {
			out[i], read[i] = e, true
		}
	}
	s.mu.Unlock()
	// The others in BatchGetItems of at most 100 keys (strongly
	// consistent), sent again for the keys DynamoDB left unprocessed.
	at := map[string]int{}
	var todo []map[string]types.AttributeValue
	for i, k := range keys {
		if !read[i] {
			at[skRecord(k)] = i
			todo = append(todo, key(id, skRecord(k)))
		}
	}
	for n := 0; len(todo) > 0; n++ {
		batch := todo[:min(len(todo), 100)]
		todo = todo[len(batch):]
		got, err := s.api.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			s.table: {Keys: batch, ConsistentRead: aws.Bool(true)}}})
		if err != nil {
			return nil, fmt.Errorf("dynamo: the round records of %s: %w", id, err)
		}
		for _, it := range got.Responses[s.table] {
			sk, _ := it[attrSK].(*types.AttributeValueMemberS)
			if sk == nil {
				continue
			}
			i, ok := at[sk.Value]
			if !ok {
				continue
			}
			e, err := entryOf(it)
			if err == nil && e == nil {
				err = errors.New("no contribution kept with it")
			}
			if err != nil {
				return nil, fmt.Errorf("dynamo: round record %s of %s: %w", keys[i], id, err)
			}
			out[i], read[i] = *e, true
		}
		if left := got.UnprocessedKeys[s.table].Keys; len(left) > 0 {
			if n >= 20 {
				return nil, fmt.Errorf("dynamo: the round records of %s: %d keys left unprocessed", id, len(left))
			}
			if err := sleepJitter(ctx, n+1); err != nil {
				return nil, err
			}
			todo = append(todo, left...)
		}
	}
	for i, k := range keys {
		if !read[i] {
			return nil, fmt.Errorf("dynamo: round record %s of %s: not found", k, id)
		}
	}
	keep := make(map[string]jackpot.Entry, len(keys))
	for i, k := range keys {
		keep[k] = out[i]
	}
	s.mu.Lock()
	s.rounds[id] = keep
	s.mu.Unlock()
	return out, nil
}

// Snapshot implements pools.ContributionStore: the pool item alone, from
// the store's cache unless fresh (a stale snapshot costs a refused
// contribution, never a wrong one: the shard's epoch condition).
func (s *Store) Snapshot(ctx context.Context, id string, fresh bool) (jackpot.Pool, error) {
	if s.shards == 0 {
		return jackpot.Pool{}, pools.ErrSerial
	}
	// A fresh snapshot is asked for after a refusal: the cache serves it
	// when it is past every epoch this store refused a contribution at
	// (the fold of this process that refused them remembered the pool it
	// committed), else the pool item is read.
	s.mu.Lock()
	p, ok := s.snap[id]
	moved, refused := s.moved[id]
	wait, reading := s.reading[id]
	if ok && (!fresh || (refused && p.Version > moved)) {
		s.mu.Unlock()
		return p, nil
	}
	if !ok && !fresh && reading {
		// Nothing cached and a read under way (many rounds arriving at
		// once): the pool it read.
		s.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return jackpot.Pool{}, ctx.Err()
		}
		return s.Snapshot(ctx, id, false)
	}
	var done chan struct{}
	if !reading {
		done = make(chan struct{})
		s.reading[id] = done
	}
	s.mu.Unlock()
	if done != nil {
		defer func() {
			s.mu.Lock()
			delete(s.reading, id)
			s.mu.Unlock()
			close(done)
		}()
	}
	p, err := s.poolItem(ctx, id)
	if err != nil {
		return jackpot.Pool{}, err
	}
	s.remember(p)
	return p, nil
}

func (s *Store) remember(p jackpot.Pool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.snap[p.ID]; !ok || old.Version <= p.Version {
		p.Shards = ""
		s.snap[p.ID] = p
	}
}

func (s *Store) forget(id string) {
	s.mu.Lock()
	delete(s.snap, id)
	s.mu.Unlock()
}

// forgetUpTo forgets the cached pool if it is not past epoch v (a
// contribution at v found the epoch closed).
func (s *Store) forgetUpTo(id string, v int64) {
	s.mu.Lock()
	if p, ok := s.snap[id]; ok && p.Version <= v {
		delete(s.snap, id)
	}
	s.mu.Unlock()
}

// contendedAttempts is how many times Contribute sends a batch that
// another transaction on a shard or record cancelled (TransactionConflict).
const contendedAttempts = 6

// sleepJitter waits 1 to 2^n ms, or until ctx is done.
func sleepJitter(ctx context.Context, n int) error {
	return pools.SleepContext(ctx, time.Duration(1+rand.Int64N(int64(1)<<min(n, 5)))*time.Millisecond)
}

// cancelledAt reports whether a cancelled transaction's item i failed its
// condition.
func cancelledAt(err error, i int) bool {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) || i >= len(tce.CancellationReasons) {
		return false
	}
	return aws.ToString(tce.CancellationReasons[i].Code) == "ConditionalCheckFailed"
}

// seal closes the shards of epoch to contributions, so that a commit of
// the pool read after it cannot be overtaken. A shard already past epoch
// (a commit landed) cancels it: there is nothing to seal.
func (s *Store) seal(ctx context.Context, id string, epoch int64, shards []shard) error {
	var tx []types.TransactWriteItem
	for _, sh := range shards {
		if sh.epoch != epoch || sh.sealed {
			continue
		}
		tx = append(tx, types.TransactWriteItem{Update: &types.Update{TableName: aws.String(s.table), Key: key(id, sh.sk),
			UpdateExpression:          aws.String("SET #sealed = :t"),
			ConditionExpression:       aws.String("#epoch = :epoch"),
			ExpressionAttributeNames:  map[string]string{"#sealed": attrSealed, "#epoch": attrEpoch},
			ExpressionAttributeValues: map[string]types.AttributeValue{":t": &types.AttributeValueMemberBOOL{Value: true}, ":epoch": num(epoch)}}})
	}
	if len(tx) == 0 {
		return nil
	}
	_, err := s.api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx})
	if err != nil && !conflict(err) {
		return fmt.Errorf("dynamo: seal the shards of %s: %w", id, err)
	}
	return nil
}

// shardWrites are the updates of a commit to every shard: emptied, moved
// to epoch next, unsealed (sealed with sealed), each conditioned on the
// version the commit's read saw (absent: still absent).
func (s *Store) shardWrites(id string, next int64, seen map[string]int64, sealed bool) []types.TransactWriteItem {
	sks := map[string]bool{}
	for sk := range seen {
		sks[sk] = true
	}
	for k := range s.shards {
		sks[skShard(k)] = true
	}
	order := make([]string, 0, len(sks))
	for sk := range sks {
		order = append(order, sk)
	}
	sort.Strings(order)
	out := make([]types.TransactWriteItem, 0, len(order))
	for _, sk := range order {
		u := &types.Update{TableName: aws.String(s.table), Key: key(id, sk),
			UpdateExpression:          aws.String("SET #epoch = :next, #n = :zero, #wagers = :zero, #amount = :zero, #cd = :zero, #cr = :zero, #pool = :id ADD #version :one REMOVE #sealed, #last, #keys"),
			ExpressionAttributeNames:  map[string]string{"#epoch": attrEpoch, "#n": attrRounds, "#wagers": attrWagers, "#amount": attrAmount, "#pool": attrPool, "#version": attrVersion, "#sealed": attrSealed, "#last": attrLast, "#keys": attrKeys, "#cd": attrCarry, "#cr": attrCarryR},
			ExpressionAttributeValues: map[string]types.AttributeValue{":next": num(next), ":zero": num(0), ":id": str(id), ":one": num(1)}}
		if v, ok := seen[sk]; ok {
			u.ConditionExpression = aws.String("#version = :seen")
			u.ExpressionAttributeValues[":seen"] = num(v)
		} else {
			u.ConditionExpression = aws.String("attribute_not_exists(#pk)")
			u.ExpressionAttributeNames["#pk"] = attrPK
		}
		if sealed {
			u.UpdateExpression = aws.String("SET #epoch = :next, #n = :zero, #wagers = :zero, #amount = :zero, #cd = :zero, #cr = :zero, #pool = :id, #sealed = :t ADD #version :one REMOVE #last, #keys")
			u.ExpressionAttributeValues[":t"] = &types.AttributeValueMemberBOOL{Value: true}
		}
		out = append(out, types.TransactWriteItem{Update: u})
	}
	return out
}

// Contributions returns the contribution entries of the rounds committed
// beside the pool (each kept with its round record), and what the shards
// hold now (not yet folded): the rounds folded have their own entries in
// the ledger, the others are what the shards hold, exactly
// (poolstest.LedgerHasEveryRound). It costs a read of every record.
func (s *Store) Contributions(ctx context.Context, id string) ([]jackpot.Entry, jackpot.Pending, error) {
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :pre)"),
		FilterExpression:          aws.String("attribute_exists(#rs)"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#sk": attrSK, "#rs": attrRate},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk(id)), ":pre": str("REC#")},
		ConsistentRead:            aws.Bool(true),
	}
	var out []jackpot.Entry
	for {
		page, err := s.api.Query(ctx, in)
		if err != nil {
			return nil, jackpot.Pending{}, fmt.Errorf("dynamo: contributions of %s: %w", id, err)
		}
		for _, it := range page.Items {
			e, err := entryOf(it)
			if err != nil || e == nil {
				return nil, jackpot.Pending{}, fmt.Errorf("dynamo: contributions of %s: an unreadable record: %v", id, err)
			}
			out = append(out, *e)
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	p, err := s.poolItem(ctx, id)
	if err != nil {
		return nil, jackpot.Pending{}, err
	}
	shards, err := s.readShards(ctx, id)
	if err != nil {
		return nil, jackpot.Pending{}, err
	}
	pend, err := pendingOf(shards, p.Version)
	return out, pend, err
}

// Contributed implements pools.ContributionStore: the round's entry as
// its fold wrote it in the ledger (with its sequence number), found through
// the fold item of the round's epoch; before the fold, the entry kept with
// its record (Seq 0).
func (s *Store) Contributed(ctx context.Context, pool, k string) (*jackpot.Entry, error) {
	out, err := s.api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(pool, skRecord(k)), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("dynamo: round record %s of %s: %w", k, pool, err)
	}
	e, err := entryOf(out.Item)
	if err != nil {
		return nil, fmt.Errorf("dynamo: round record %s of %s: %w", k, pool, err)
	}
	if e == nil {
		return nil, nil
	}
	f, err := s.api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(pool, skFold(intAttr(out.Item, attrEpoch))), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("dynamo: the fold of round record %s of %s: %w", k, pool, err)
	}
	if f.Item == nil {
		return e, nil // not folded yet
	}
	first, n := intAttr(f.Item, attrFirst), intAttr(f.Item, attrRounds)
	es, err := s.LedgerPage(ctx, pool, pools.LedgerQuery{After: first - 1, Before: first + n, Limit: int(n)})
	if err != nil {
		return nil, err
	}
	for _, x := range es {
		if x.Kind == jackpot.KindContribution && x.Corrects == "" && x.Commit == e.Commit && x.Table == e.Table && x.Round == e.Round {
			return &x, nil
		}
	}
	return nil, fmt.Errorf("dynamo: round record %s of %s: its fold (entries %d-%d) has no entry of it", k, pool, first, first+n-1)
}

// entryOf is the contribution entry of a round committed beside the pool,
// from its record item (nil for a round applied to the pool): the answer
// says what it credited, the item its rate sums, so its carries are
// rate sum - 10000 x credit (jackpot.Rules.Contribute).
func entryOf(it map[string]types.AttributeValue) (*jackpot.Entry, error) {
	if _, ok := it[attrRate]; !ok {
		return nil, nil
	}
	rec, err := decode[jackpot.RoundRecord](it)
	if err != nil {
		return nil, err
	}
	r := rec.Result
	c := r.Contribution
	dealt := r.DealtAt
	e := jackpot.Entry{Pool: rec.Pool, At: r.AppliedAt, Kind: jackpot.KindContribution, Table: rec.Table, Round: rec.Round, DealtAt: &dealt,
		Displayed: c.Displayed, Overflow: c.Overflow, Reserve: c.Reserve, Wagers: c.Wagers, WagerAmount: c.WagerAmount,
		RateSum: intAttr(it, attrRate), RateSumReserve: intAttr(it, attrRateR), Contributed: c.Displayed + c.Overflow, ContributedReserve: c.Reserve,
		Commit: rec.Commit, Rules: c.Rules}
	if id, ok := it[attrActor].(*types.AttributeValueMemberS); ok {
		e.Actor = &jackpot.Actor{ID: id.Value}
		if r, ok := it[attrRole].(*types.AttributeValueMemberS); ok {
			e.Actor.Role = r.Value
		}
	}
	e.CarryDisplayed = e.RateSum - 10000*int64(e.Contributed)
	e.CarryReserve = e.RateSumReserve - 10000*int64(e.ContributedReserve)
	return &e, nil
}
