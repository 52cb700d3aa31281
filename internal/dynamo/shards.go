package dynamo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
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
// the table id), with atomic ADDs, and writes its round record (which
// carries its contribution entry), in one transaction that neither reads
// nor versions the pool item: contributions commute. Each shard names the
// epoch it takes contributions for, the pool's version: a contribution
// computed from the pool at version V lands only while the shard's epoch
// is V and the shard is not sealed.
//
// Every other change reads the pool item and every shard (Pool: the
// shards' pending contributions folded in, jackpot.Rules.Fold) and
// commits the pool, the fold's entry and its own entries, and every shard
// emptied and moved to the new epoch, each conditioned on the version it
// was read at. A contribution that lands between the read and the commit
// fails that condition: the committer then seals the epoch's shards (no
// contribution lands in it any more) and reads again, so the commit that
// follows cannot be overtaken. Either way a contribution is in the
// commit's fold (before its hit) or in the next epoch (after its reset),
// never both, never neither.

// DefaultShards is the number of contribution shards the benchmarks and
// serve -shards suggest (WithShards); a store has none unless told.
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
	attrLast   = "last"
	prefShard  = "SHARD#"
)

func skShard(k int) string { return fmt.Sprintf("%s%03d", prefShard, k) }

// ShardOf is the shard of a table's contributions among n.
func ShardOf(table string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(table))
	return int(h.Sum32() % uint32(n))
}

// WithShards sets the number of contribution shards the store gives a
// pool (1 to MaxShards; 0 turns contributions beside the pool off: every
// round is committed to the pool item, as before issue 25). Every writer
// of a table should use the same number.
func (s *Store) WithShards(n int) *Store {
	s.shards = min(max(n, 0), MaxShards)
	return s
}

// shard is one shard item as read.
type shard struct {
	sk      string
	version int64
	epoch   int64
	sealed  bool
	pending jackpot.Pending
	last    *jackpot.Entry // the entry of the last round it took
}

// shardMark is what Pool folded, carried to Commit in jackpot.Pool.Shards.
type shardMark struct {
	Epoch    int64            `json:"epoch"`
	Versions map[string]int64 `json:"versions"`
	Fold     []jackpot.Entry  `json:"fold,omitempty"`
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
			sh := shard{sk: sk.Value, version: intAttr(it, attrVersion), epoch: intAttr(it, attrEpoch), sealed: sealed,
				pending: jackpot.Pending{Rounds: intAttr(it, attrRounds), Wagers: intAttr(it, attrWagers), WagerAmount: money.Amount(intAttr(it, attrAmount))}}
			if d, ok := it[attrLast].(*types.AttributeValueMemberS); ok && sh.pending.Rounds > 0 {
				var e jackpot.Entry
				if err := json.Unmarshal([]byte(d.Value), &e); err != nil {
					return nil, fmt.Errorf("dynamo: shard %s of %s: %w", sh.sk, id, err)
				}
				sh.last = &e
			}
			out = append(out, sh)
		}
		if len(page.LastEvaluatedKey) == 0 {
			return out, nil
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
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
// stands (Pool, and so every serial change, reads it).
func (s *Store) view(p jackpot.Pool, shards []shard) (jackpot.Pool, error) {
	if len(shards) == 0 && s.shards == 0 {
		return p, nil
	}
	pend, err := pendingOf(shards, p.Version)
	if err != nil {
		return jackpot.Pool{}, fmt.Errorf("dynamo: shards of %s: %w", p.ID, err)
	}
	// The fold is stamped at the last round it folds (the meters as of
	// an instant then count it from there), and is that round's own
	// entry when it folds one.
	var one *jackpot.Entry
	at := p.UpdatedAt
	for _, sh := range shards {
		if sh.epoch == p.Version && sh.last != nil {
			one = sh.last
			if sh.last.At.After(at) {
				at = sh.last.At
			}
		}
	}
	q, fold, err := jackpot.Rules{}.Fold(p, pend, one, at)
	if err != nil {
		return jackpot.Pool{}, fmt.Errorf("dynamo: fold the shards of %s: %w", p.ID, err)
	}
	m := shardMark{Epoch: p.Version, Versions: map[string]int64{}, Fold: fold}
	for _, sh := range shards {
		m.Versions[sh.sk] = sh.version
	}
	b, err := json.Marshal(m)
	if err != nil {
		return jackpot.Pool{}, err
	}
	q.Shards = string(b)
	return q, nil
}

// Snapshot implements pools.ContributionStore: the pool item alone, from
// the store's cache unless fresh (a stale snapshot costs a refused
// contribution, never a wrong one: the shard's epoch condition).
func (s *Store) Snapshot(ctx context.Context, id string, fresh bool) (jackpot.Pool, error) {
	if s.shards == 0 {
		return jackpot.Pool{}, pools.ErrSerial
	}
	if !fresh {
		s.mu.Lock()
		p, ok := s.snap[id]
		s.mu.Unlock()
		if ok {
			return p, nil
		}
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

// Contribute implements pools.ContributionStore: one transaction of the
// table's shard (ADDs, conditioned on the epoch and not sealed) and the
// round's records, the first carrying its contribution entry.
func (s *Store) Contribute(ctx context.Context, c pools.Contribution) error {
	if s.shards == 0 {
		return jackpot.ErrConflict
	}
	if len(c.Records) == 0 {
		return errors.New("dynamo: a contribution without a round record")
	}
	home := ShardOf(c.Table, s.shards)
	k := home
	var wagers int64
	var amount money.Amount
	if c.Entry != nil {
		wagers, amount = c.Entry.Wagers, c.Entry.WagerAmount
	}
	last := "{}"
	if c.Entry != nil {
		b, err := json.Marshal(c.Entry)
		if err != nil {
			return err
		}
		last = string(b)
	}
	tx := make([]types.TransactWriteItem, 0, 1+len(c.Records))
	tx = append(tx, types.TransactWriteItem{Update: &types.Update{TableName: aws.String(s.table), Key: key(c.Pool, skShard(k)),
		UpdateExpression:         aws.String("SET #last = :last ADD #version :one, #n :one, #wagers :w, #amount :a"),
		ConditionExpression:      aws.String("#epoch = :epoch AND attribute_not_exists(#sealed)"),
		ExpressionAttributeNames: map[string]string{"#version": attrVersion, "#n": attrRounds, "#wagers": attrWagers, "#amount": attrAmount, "#epoch": attrEpoch, "#sealed": attrSealed, "#last": attrLast},
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":w": num(wagers), ":a": num(int64(amount)),
			":epoch": num(c.Version), ":last": str(last)},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
	for i, r := range c.Records {
		extra := map[string]types.AttributeValue{}
		if i == 0 {
			extra[attrEpoch], extra[attrShard] = num(c.Version), num(int64(k))
			if c.Entry != nil {
				// The round's entry is its record's answer and these two
				// numbers (entryOf): the record stays under 1 KB.
				extra[attrRate], extra[attrRateR] = num(c.Entry.RateSum), num(c.Entry.RateSumReserve)
			}
		}
		rit, err := item(c.Pool, skRecord(r.Key), r, extra)
		if err != nil {
			return err
		}
		tx = append(tx, notExists(rit, s.table))
	}
	in := &dynamodb.TransactWriteItemsInput{TransactItems: tx}
	_, err := s.api.TransactWriteItems(ctx, in)
	for n := 1; n < contendedAttempts && contended(err); n++ {
		// Another transaction held the shard (or a record) and nothing
		// was written: the same write again after a short jitter, on the
		// next shard (any shard of the epoch is folded alike).
		if err := sleepJitter(ctx, n); err != nil {
			return fmt.Errorf("dynamo: contribute to %s: %w", c.Pool, err)
		}
		k = (home + n) % s.shards
		tx[0].Update.Key = key(c.Pool, skShard(k))
		if rit := tx[1].Put.Item; rit != nil {
			rit[attrShard] = num(int64(k))
		}
		_, err = s.api.TransactWriteItems(ctx, in)
	}
	if conflict(err) {
		if cancelledAt(err, 0) {
			s.forget(c.Pool)
			if shardMissing(err) {
				// A pool without shards yet (created before them): the
				// round goes to the pool, whose commit creates them.
				return pools.ErrSerial
			}
		}
		return jackpot.ErrConflict
	}
	if err != nil {
		return fmt.Errorf("dynamo: contribute to %s: %w", c.Pool, err)
	}
	return nil
}

// contendedAttempts is how many times Contribute sends a transaction that
// another transaction on its shard cancelled (TransactionConflict).
const contendedAttempts = 6

// contended reports whether err is a transaction cancelled only because
// another transaction held one of its items: nothing was written, and no
// condition failed.
func contended(err error) bool {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		var tc *types.TransactionConflictException
		return errors.As(err, &tc)
	}
	found := false
	for _, r := range tce.CancellationReasons {
		switch aws.ToString(r.Code) {
		case "", "None":
		case "TransactionConflict":
			found = true
		default:
			return false
		}
	}
	return found
}

// sleepJitter waits 1 to 2^n ms, or until ctx is done.
func sleepJitter(ctx context.Context, n int) error {
	return pools.SleepContext(ctx, time.Duration(1+rand.Int64N(int64(1)<<min(n, 5)))*time.Millisecond)
}

// shardMissing reports whether a cancelled contribution's shard does not
// exist (its condition failed on no item).
func shardMissing(err error) bool {
	var tce *types.TransactionCanceledException
	return errors.As(err, &tce) && len(tce.CancellationReasons) > 0 && len(tce.CancellationReasons[0].Item) == 0
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
// to epoch next, unsealed, each conditioned on the version the commit's
// read saw (absent: still absent).
func (s *Store) shardWrites(id string, next int64, seen map[string]int64) []types.TransactWriteItem {
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
			UpdateExpression:          aws.String("SET #epoch = :next, #n = :zero, #wagers = :zero, #amount = :zero, #pool = :id ADD #version :one REMOVE #sealed, #last"),
			ExpressionAttributeNames:  map[string]string{"#epoch": attrEpoch, "#n": attrRounds, "#wagers": attrWagers, "#amount": attrAmount, "#pool": attrPool, "#version": attrVersion, "#sealed": attrSealed, "#last": attrLast},
			ExpressionAttributeValues: map[string]types.AttributeValue{":next": num(next), ":zero": num(0), ":id": str(id), ":one": num(1)}}
		if v, ok := seen[sk]; ok {
			u.ConditionExpression = aws.String("#version = :seen")
			u.ExpressionAttributeValues[":seen"] = num(v)
		} else {
			u.ConditionExpression = aws.String("attribute_not_exists(#pk)")
			u.ExpressionAttributeNames["#pk"] = attrPK
		}
		out = append(out, types.TransactWriteItem{Update: u})
	}
	return out
}

// Contributions returns the contribution entries of the rounds committed
// beside the pool (each kept with its round record), and what the shards
// hold now (not yet folded): with the fold entries of the ledger (the
// contribution entries without a table), they account for every wager,
// exactly. A reconciliation reads them; it costs a read of every record.
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

// FoldActor signs a fold committed with no entry of its own (a reading of
// the meters as of an instant, a reconciliation): the store itself.
var FoldActor = jackpot.Actor{ID: "tablesettle:fold", Role: "store"}

// Contributed implements pools.ContributionStore.
func (s *Store) Contributed(ctx context.Context, pool, k string) (*jackpot.Entry, error) {
	out, err := s.api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(pool, skRecord(k)), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("dynamo: round record %s of %s: %w", k, pool, err)
	}
	e, err := entryOf(out.Item)
	if err != nil {
		return nil, fmt.Errorf("dynamo: round record %s of %s: %w", k, pool, err)
	}
	return e, nil
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
	e.CarryDisplayed = e.RateSum - 10000*int64(e.Contributed)
	e.CarryReserve = e.RateSumReserve - 10000*int64(e.ContributedReserve)
	return &e, nil
}
