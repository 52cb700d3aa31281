// Package dynamo is the DynamoDB pools.Store used in production.
//
// One table, partition key pk (S) and sort key sk (S). A pool lives in one
// partition, pk = "POOL#<id>":
//
//	sk "POOL"                  the pool: settings, meters, held hits (doc), version
//	sk "LEDGER#<seq, 19 digits>" one ledger entry (doc), oldest first by sk; or, with n,
//	                           the n entries seq to seq+n-1 a fold of the shards wrote
//	                           (z a gzip-compressed JSON array of them: ledgerItem, entriesOf)
//	sk "REC#<key>"             a round record: round/<table>/<round> or key/<sha256 of Idempotency-Key>;
//	                           an adjustment's or settings change's: adjustment/key/<sha256>, settings/key/<sha256>;
//	                           a round committed beside the pool also has epoch, shard, rs, rsr, aid and arole (its entry)
//	sk "SHARD#<nnn>"           a contribution shard (shards.go): epoch, version, n, wagers, amount, sealed, keys
//	sk "FOLD#<epoch, 19 digits>" the ledger entries a fold of the shards wrote: first, n
//	sk "HIT#<seq, 19 digits>"  a copy of the ledger entry seq when it is about a hit (hits.go)
//	sk "HITLOG"                the HIT# items are complete (written with the pool)
//
// A pool item holding an RWS hit in its settle window also carries heldKey
// and heldDue, the keys of the sparse global secondary index "held" that
// lists the pools with a held hit due (held.go, the scheduled sweep).
//
// Every item carries the attribute pool (the pool id; a DynamoDB reserved
// word, so expressions name it through ExpressionAttributeNames). A commit
// is one TransactWriteItems: the pool, conditional on its version; every
// new ledger entry and round record, each conditional on not existing;
// every shard, emptied into the next epoch, conditional on the version the
// pool was read with (CreatePool creates them; for a pool created before
// them, its first commit). A
// condition that fails means another writer won (jackpot.ErrConflict);
// anything else is an unconfirmed write (the service answers 503). A
// round without a hit is committed beside the pool instead (shards.go,
// docs/scale.md).
package dynamo

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/ledgerlog"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// API is the part of the DynamoDB client the store uses (see doc.go for
// the IAM actions).
type API interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
}

// Store is the DynamoDB pools.Store, and a pools.ContributionStore:
// rounds without a hit are committed beside the pool (shards.go).
type Store struct {
	api    API
	table  string
	shards int
	now    func() time.Time

	mu   sync.Mutex
	snap map[string]jackpot.Pool // Snapshot's cache: the pool items last read
	fill map[string]shardFill    // what the shards of a pool's epoch are known to hold (group.go)
	// hitLogged are the pools whose hit log is known complete (hits.go);
	// hitLogPage, when set, is a backfill's page (a test's).
	hitLogged  map[string]bool
	hitLogPage int
	// groups are the contributions to a pool waiting for its transaction
	// in flight, by pool (group commit, group.go).
	groups map[string]*group
	moved  map[string]int64 // the last epoch a contribution to a pool was refused at for its epoch
	// reading are Snapshot's reads of a pool item under way, by pool.
	reading map[string]chan struct{}
	// folding are the folds under way (foldNow), by pool; rounds the
	// entries read for a pool's last fold, by record key (roundsOf).
	folding map[string]chan struct{}
	rounds  map[string]map[string]jackpot.Entry
	// inRegistry are the pools known to be in the registry of sharded
	// pools; lateFold the pools with a background fold under way
	// (folddue.go).
	inRegistry map[string]bool
	lateFold   map[string]bool
	foldAfter  time.Duration // WithFoldAfter
	// logCache are stored hashes of the pools' Merkle logs this process
	// wrote or read, by storage index (loghash.go): they never change.
	logCache map[string]map[int64]tlog.Hash
}

var (
	_ pools.Store             = (*Store)(nil)
	_ pools.LedgerPager       = (*Store)(nil)
	_ pools.ContributionStore = (*Store)(nil)
)

// New returns a store on table through api with DefaultShards
// contribution shards per pool: rounds without a hit are committed beside
// the pool (docs/scale.md). WithShards(0) turns them off (every round is
// committed to the pool item, the serial path).
func New(api API, table string) *Store {
	return &Store{api: api, table: table, shards: DefaultShards, now: time.Now, snap: map[string]jackpot.Pool{}, fill: map[string]shardFill{}, groups: map[string]*group{}, moved: map[string]int64{}, reading: map[string]chan struct{}{},
		folding: map[string]chan struct{}{}, rounds: map[string]map[string]jackpot.Entry{}, inRegistry: map[string]bool{}, lateFold: map[string]bool{},
		logCache: map[string]map[int64]tlog.Hash{}}
}

// Table is the DynamoDB table the store is on.
func (s *Store) Table() string { return s.table }

// MaxItems is the most items one TransactWriteItems may write.
const MaxItems = 100

const (
	attrPK      = "pk"
	attrSK      = "sk"
	attrPool    = "pool"
	attrVersion = "version"
	attrDoc     = "doc"
	attrSeq     = "seq"
	skPool      = "POOL"
)

func pk(id string) string               { return "POOL#" + id }
func skLedger(seq int64) string         { return fmt.Sprintf("LEDGER#%019d", seq) }
func skRecord(key string) string        { return "REC#" + key }
func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

func key(id, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(pk(id)), attrSK: str(sk)}
}

func item(id, sk string, doc any, extra map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	it := key(id, sk)
	it[attrPool] = str(id)
	it[attrDoc] = str(string(b))
	for k, v := range extra {
		it[k] = v
	}
	return it, nil
}

func decode[T any](it map[string]types.AttributeValue) (T, error) {
	var out T
	d, ok := it[attrDoc].(*types.AttributeValueMemberS)
	if !ok {
		return out, errors.New("dynamo: item without a doc")
	}
	err := json.Unmarshal([]byte(d.Value), &out)
	return out, err
}

// notExists is the condition of an item that must be new.
func notExists(it map[string]types.AttributeValue, table string) types.TransactWriteItem {
	return types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: it,
		ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{"#pk": attrPK}}}
}

// CreatePool implements pools.Store.
func (s *Store) CreatePool(ctx context.Context, p jackpot.Pool, entries []jackpot.Entry) error {
	it, err := item(p.ID, skPool, p, poolAttrs(p))
	if err != nil {
		return err
	}
	tx := []types.TransactWriteItem{notExists(it, s.table), notExists(hitLogItem(p.ID, 0, true), s.table)}
	var hashes [][]tlog.Hash
	if len(entries) > 0 {
		// The pool's first entries: the log's first leaves, read nothing.
		if hashes, err = ledgerlog.Append(tlog.HashReaderFunc(func([]int64) ([]tlog.Hash, error) {
			return nil, errors.New("a new pool's log has no earlier hash")
		}), entries[0].Seq-1, entries); err != nil {
			return fmt.Errorf("dynamo: create pool %s: %w", p.ID, err)
		}
	}
	for i, e := range entries {
		eit, err := item(p.ID, skLedger(e.Seq), e, map[string]types.AttributeValue{attrSeq: num(e.Seq)})
		if err != nil {
			return err
		}
		for k, v := range packHashes(e.Seq, hashes[i:i+1], false) {
			eit[k] = v
		}
		tx = append(tx, notExists(eit, s.table))
	}
	copies, err := hitCopies(p.ID, entries)
	if err != nil {
		return err
	}
	for _, hit := range copies {
		tx = append(tx, notExists(hit, s.table))
	}
	// The shards, at the pool's first epoch: without them its first
	// rounds would all go to the pool at once.
	tx = append(tx, s.shardWrites(p.ID, p.Version, nil, false)...)
	tx = append(tx, s.registryAdd(p.ID)) // the scheduled fold finds it (folddue.go)
	_, err = s.api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx})
	if conflict(err) {
		// Either the pool exists, or this very request landed before and
		// its answer was lost; both mean the pool is there (the service
		// compares its settings: Create is idempotent).
		return jackpot.ErrExists
	}
	if err != nil {
		return fmt.Errorf("dynamo: create pool %s: %w", p.ID, err)
	}
	s.markRegistered(p.ID)
	if len(entries) > 0 {
		s.cacheHashes(p.ID, entries[0].Seq, hashes)
	}
	return nil
}

// Pool implements pools.Store: the pool item with what its contribution
// shards hold folded in (the pool as it stands: one GetItem and one Query
// of the shards, both strongly consistent).
func (s *Store) Pool(ctx context.Context, id string) (jackpot.Pool, error) {
	p, err := s.poolItem(ctx, id)
	if err != nil {
		return jackpot.Pool{}, err
	}
	s.remember(p)
	// The shards are read even with none configured (WithShards(0)): a
	// pool may have some from writers with shards on, and what they hold
	// is in the pool as it stands.
	shards, err := s.readShards(ctx, id)
	if err != nil {
		return jackpot.Pool{}, err
	}
	return s.view(p, shards)
}

// poolItem reads the pool item alone.
func (s *Store) poolItem(ctx context.Context, id string) (jackpot.Pool, error) {
	out, err := s.api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(id, skPool), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return jackpot.Pool{}, fmt.Errorf("dynamo: get pool %s: %w", id, err)
	}
	if out.Item == nil {
		return jackpot.Pool{}, jackpot.ErrNotFound
	}
	return decode[jackpot.Pool](out.Item)
}

// Ledger implements pools.Store: LedgerPage, oldest first.
func (s *Store) Ledger(ctx context.Context, id string, after int64, limit int) ([]jackpot.Entry, error) {
	return s.LedgerPage(ctx, id, pools.LedgerQuery{After: after, Limit: limit})
}

// Record implements pools.Store.
func (s *Store) Record(ctx context.Context, pool, k string) (jackpot.RoundRecord, error) {
	out, err := s.api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(pool, skRecord(k)), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return jackpot.RoundRecord{}, fmt.Errorf("dynamo: round record %s of %s: %w", k, pool, err)
	}
	if out.Item == nil {
		return jackpot.RoundRecord{}, jackpot.ErrNotFound
	}
	return decode[jackpot.RoundRecord](out.Item)
}

// Commit implements pools.Store: one TransactWriteItems, conditional on
// the pool's version (the reserved word pool is named through #pool), with
// the fold of the contribution shards the pool was read with (Pool) and
// every shard emptied into the next epoch, each conditional on the version
// read. A contribution that landed since the read cancels it: the shards
// are then sealed, and the caller's next read cannot be overtaken.
func (s *Store) Commit(ctx context.Context, c jackpot.Commit) error {
	return s.commit(ctx, c, false)
}

// commit is Commit; sealNext leaves the shards of the next epoch sealed
// (a fold made room for a commit that follows at once: no contribution
// lands before it, and it unseals them).
func (s *Store) commit(ctx context.Context, c jackpot.Commit, sealNext bool) error {
	id := c.Pool.ID
	if c.Pool.Version != c.PrevVersion+1 {
		return jackpot.ErrConflict
	}
	var mark shardMark
	if c.Pool.Shards != "" {
		if err := json.Unmarshal([]byte(c.Pool.Shards), &mark); err != nil {
			return fmt.Errorf("dynamo: commit to %s: the pool's shard note: %w", id, err)
		}
		if mark.Epoch != c.PrevVersion {
			return jackpot.ErrConflict
		}
	} else {
		// A pool not read through Pool (a test's, or a created pool's):
		// it folded nothing, which holds only while the shards hold
		// nothing.
		shards, err := s.readShards(ctx, id)
		if err != nil {
			return err
		}
		if len(shards) > 0 || s.shards > 0 {
			mark = shardMark{Epoch: c.PrevVersion, Versions: map[string]int64{}}
		}
		for _, sh := range shards {
			if sh.epoch == c.PrevVersion && (sh.pending.Rounds > 0 || sh.pending.WagerAmount > 0) {
				if err := s.seal(ctx, id, c.PrevVersion, shards); err != nil {
					return err
				}
				return jackpot.ErrConflict
			}
			mark.Versions[sh.sk] = sh.version
		}
	}
	var shardTx []types.TransactWriteItem
	if mark.Versions != nil || s.shards > 0 {
		shardTx = s.shardWrites(id, c.Pool.Version, mark.Versions, sealNext)
	}
	// The fold: one entry per round the shards held, all in one item
	// (ledgerItem), and the epoch's fold item. A commit of its own entries that would not fit one
	// transaction with them folds first, on its own, leaving the next
	// epoch sealed so that nothing lands before the caller tries again on
	// a fresh read (its retry of a lost race).
	foldItems := 0
	if len(mark.Keys) > 0 {
		foldItems = 2 // its entries' item and its fold item
	}
	copies, err := hitCopies(id, c.Entries)
	if err != nil {
		return err
	}
	register := len(shardTx) > 0 && !s.registered(id) // a pool created before the registry (folddue.go)
	n := 1 + foldItems + len(c.Entries) + len(copies) + len(c.Records) + len(shardTx)
	if register {
		n++
	}
	if n > MaxItems && foldItems > 0 && len(c.Entries)+len(c.Records) > 0 {
		if err := s.foldNow(ctx, id, true); err != nil && !errors.Is(err, jackpot.ErrConflict) {
			return err
		}
		return jackpot.ErrConflict
	}
	if n > MaxItems {
		return fmt.Errorf("dynamo: commit to %s writes %d items, more than one transaction's %d", id, n, MaxItems)
	}
	fold, foldItem, err := s.commitFold(ctx, id, mark)
	if err != nil {
		return err
	}
	if len(fold) > 0 {
		// The pool's stamps (jackpot.Stamps) as the view read them stop
		// before the rounds folded in: they cover them, then the commit's
		// own entries, in ledger order.
		c.Pool.Stamps = c.Pool.Stamps.With(fold...).With(c.Entries...)
	}
	// The Merkle log: the stored hashes of the fold's entries and the
	// commit's own, over the earlier entries' (loghash.go), written with
	// them.
	logged := append(append([]jackpot.Entry(nil), fold...), c.Entries...)
	hashes, err := s.appendHashes(ctx, id, logged)
	if err != nil {
		return err
	}
	hashesOf := func(from, to int, fold bool) map[string]types.AttributeValue {
		if hashes == nil {
			return nil // a ledger not yet backfilled (appendHashes)
		}
		return packHashes(logged[from].Seq, hashes[from:to], fold)
	}
	pit, err := item(id, skPool, c.Pool, poolAttrs(c.Pool))
	if err != nil {
		return err
	}
	tx := make([]types.TransactWriteItem, 0, n)
	tx = append(tx, types.TransactWriteItem{Put: &types.Put{TableName: aws.String(s.table), Item: pit,
		ConditionExpression:       aws.String("#version = :prev AND #pool = :id"),
		ExpressionAttributeNames:  map[string]string{"#version": attrVersion, "#pool": attrPool},
		ExpressionAttributeValues: map[string]types.AttributeValue{":prev": num(c.PrevVersion), ":id": str(id)}}})
	if len(fold) > 0 {
		fit, err := ledgerItem(id, fold)
		if err != nil {
			return err
		}
		for k, v := range hashesOf(0, len(fold), true) {
			fit[k] = v
		}
		tx = append(tx, notExists(fit, s.table))
	}
	for i, e := range c.Entries {
		eit, err := item(id, skLedger(e.Seq), e, map[string]types.AttributeValue{attrSeq: num(e.Seq)})
		if err != nil {
			return err
		}
		for k, v := range hashesOf(len(fold)+i, len(fold)+i+1, false) {
			eit[k] = v
		}
		tx = append(tx, notExists(eit, s.table))
	}
	for _, hit := range copies {
		tx = append(tx, notExists(hit, s.table))
	}
	if foldItem != nil {
		tx = append(tx, notExists(foldItem, s.table))
	}
	for _, r := range c.Records {
		rit, err := item(id, skRecord(r.Key), r, nil)
		if err != nil {
			return err
		}
		tx = append(tx, notExists(rit, s.table))
	}
	first := len(tx)
	tx = append(tx, shardTx...)
	if register {
		tx = append(tx, s.registryAdd(id))
	}
	_, err = s.api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx})
	if conflict(err) {
		if !cancelledAt(err, 0) {
			for i := first; i < len(tx); i++ {
				if cancelledAt(err, i) {
					// A contribution landed since the read: seal the
					// epoch, so the next read is the last.
					if shards, rerr := s.readShards(context.WithoutCancel(ctx), id); rerr == nil {
						_ = s.seal(context.WithoutCancel(ctx), id, c.PrevVersion, shards)
					}
					break
				}
			}
		}
		return jackpot.ErrConflict
	}
	if err != nil {
		return fmt.Errorf("dynamo: commit to %s: %w", id, err)
	}
	if register {
		s.markRegistered(id)
	}
	if len(hashes) > 0 {
		s.cacheHashes(id, logged[0].Seq, hashes)
	}
	p := c.Pool
	s.remember(p)
	return nil
}

// conflict reports whether err is a transaction cancelled only because a
// condition failed or another transaction held an item: a lost race, to
// be retried on a fresh read.
func conflict(err error) bool {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		var tc *types.TransactionConflictException
		return errors.As(err, &tc)
	}
	found := false
	for _, r := range tce.CancellationReasons {
		code := aws.ToString(r.Code)
		switch code {
		case "", "None":
		case "ConditionalCheckFailed", "TransactionConflict":
			found = true
		default:
			return false
		}
	}
	return found
}

// CreateTable creates the table with the key schema the infra defines
// (pk S, sk S, on-demand; the held index, held.go) and waits until it is active. Tests and local
// development use it; the Lambda function never does.
func CreateTable(ctx context.Context, client *dynamodb.Client, table string) error {
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String(attrPK), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String(attrSK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(AttrHeldKey), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String(AttrHeldDue), AttributeType: types.ScalarAttributeTypeN}},
		KeySchema:              []types.KeySchemaElement{{AttributeName: aws.String(attrPK), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(attrSK), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{heldIndexSpec()},
	})
	if err != nil {
		var inUse *types.ResourceInUseException
		if !errors.As(err, &inUse) {
			return fmt.Errorf("dynamo: create table %s: %w", table, err)
		}
	}
	w := dynamodb.NewTableExistsWaiter(client)
	return w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, 30e9)
}

// LocalClient is a client for DynamoDB Local at endpoint (http://127.0.0.1:PORT)
// with fake static credentials and region.
func LocalClient(endpoint string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "local", SecretAccessKey: "local", Source: "tablesettle-local"}, nil
		}),
	})
}

// LedgerPage implements pools.LedgerPager: one Query over the pool's
// partition between the sequence bounds, in sort-key order or reversed
// (ScanIndexForward false, newest first), so a page costs the same
// whatever the history behind it. The table has no index by time: time
// bounds filter the entries of the sequence range as they are read (a
// page bounded by time alone reads back to the first entry in its range).
// A fold's item holds its entries from its sort key's seq on, so the
// range also takes the entries after q.After of the item at or before it
// (one more Query of one item, straddle).
func (s *Store) LedgerPage(ctx context.Context, id string, q pools.LedgerQuery) ([]jackpot.Entry, error) {
	out := []jackpot.Entry{}
	if q.Limit <= 0 {
		return out, nil
	}
	after, before := max(q.After, 0), q.Before
	if before <= 0 || before > math.MaxInt64-1 {
		before = math.MaxInt64
	}
	if after >= before-1 {
		return out, nil
	}
	take := func(es []jackpot.Entry) {
		if q.Newest {
			slices.Reverse(es)
		}
		for _, e := range es {
			if e.Seq <= after || e.Seq >= before || (!q.From.IsZero() && e.At.Before(q.From)) || (!q.To.IsZero() && !e.At.Before(q.To)) {
				continue
			}
			if len(out) < q.Limit {
				out = append(out, e)
			}
		}
	}
	if !q.Newest {
		es, err := s.straddle(ctx, id, after)
		if err != nil {
			return nil, err
		}
		take(es)
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    aws.String("#pk = :pk AND #sk BETWEEN :from AND :to"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#sk": attrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk(id)), ":from": str(skLedger(after + 1)), ":to": str(skLedger(before - 1))},
		ConsistentRead:            aws.Bool(true),
		ScanIndexForward:          aws.Bool(!q.Newest),
	}
	timed := !q.From.IsZero() || !q.To.IsZero()
	for len(out) < q.Limit {
		n := q.Limit - len(out)
		if timed {
			n = 1000
		}
		in.Limit = aws.Int32(int32(min(n, 1000)))
		page, err := s.api.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("dynamo: ledger of %s: %w", id, err)
		}
		for _, it := range page.Items {
			es, err := entriesOf(it)
			if err != nil {
				return nil, fmt.Errorf("dynamo: ledger of %s: %w", id, err)
			}
			take(es)
		}
		if len(page.LastEvaluatedKey) == 0 {
			if q.Newest && len(out) < q.Limit {
				es, err := s.straddle(ctx, id, after)
				if err != nil {
					return nil, err
				}
				take(es)
			}
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	return out, nil
}

// straddle is the entries of the ledger item at or before seq after (the
// last item whose sort key is at most skLedger(after)): a fold's item
// there may hold entries after it. Nothing when after is 0.
func (s *Store) straddle(ctx context.Context, id string, after int64) ([]jackpot.Entry, error) {
	if after <= 0 {
		return nil, nil
	}
	page, err := s.api.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    aws.String("#pk = :pk AND #sk BETWEEN :from AND :to"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#sk": attrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk(id)), ":from": str(skLedger(0)), ":to": str(skLedger(after))},
		ConsistentRead:            aws.Bool(true),
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(1),
	})
	if err != nil {
		return nil, fmt.Errorf("dynamo: ledger of %s: %w", id, err)
	}
	if len(page.Items) == 0 || intAttr(page.Items[0], attrRounds) == 0 {
		return nil, nil
	}
	es, err := entriesOf(page.Items[0])
	if err != nil {
		return nil, fmt.Errorf("dynamo: ledger of %s: %w", id, err)
	}
	return es, nil
}

// ledgerItem is the one item of a fold's entries (consecutive, oldest
// first): its sort key the first's seq, n their number and z the JSON
// array of them, gzip-compressed. One item rather than one per round: a
// fold of 80 rounds is then 19 items, not 98. Compressed, because a
// fold's entries repeat their names and most values: 80 entries of
// 37,273 B of JSON are 4,961 B gzipped (7.5x), so they cost DynamoDB
// about 0.13 write units a round instead of 0.93 (docs/scale.md). A fold
// holds at most MaxShards x MaxShardRounds = 120 rounds, each entry under
// 1 KB of JSON (ids of at most 64 characters): far from DynamoDB's 400 KB
// an item, compressed or not.
func ledgerItem(id string, es []jackpot.Entry) (map[string]types.AttributeValue, error) {
	if err := consecutive(es, es[0].Seq); err != nil {
		return nil, fmt.Errorf("dynamo: a fold's entries of %s: %w", id, err)
	}
	for _, e := range es {
		if e.Kind.AboutHit() { // it would have no HIT# copy (hits.go)
			return nil, fmt.Errorf("dynamo: a fold's entry %d of %s is about a hit (%s)", e.Seq, id, e.Kind)
		}
	}
	b, err := json.Marshal(es)
	if err != nil {
		return nil, err
	}
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	it := key(id, skLedger(es[0].Seq))
	it[attrPool], it[attrSeq], it[attrRounds] = str(id), num(es[0].Seq), num(int64(len(es)))
	it[attrZipped] = &types.AttributeValueMemberB{Value: z.Bytes()}
	return it, nil
}

// attrZipped is a fold's ledger item's entries, a gzip-compressed JSON
// array (ledgerItem).
const attrZipped = "z"

// maxZipped bounds what a fold's ledger item may decompress to: DynamoDB's
// 400 KB an item, uncompressed, is far more than 120 entries' JSON.
const maxZipped = 4 << 20

// entriesOf is the entries of a ledger item: the one entry, or a fold's
// n entries (ledgerItem), checked to be n consecutive from the item's seq.
func entriesOf(it map[string]types.AttributeValue) ([]jackpot.Entry, error) {
	n := intAttr(it, attrRounds)
	if n == 0 {
		e, err := decode[jackpot.Entry](it)
		return []jackpot.Entry{e}, err
	}
	first := intAttr(it, attrSeq)
	z, ok := it[attrZipped].(*types.AttributeValueMemberB)
	if !ok {
		return nil, fmt.Errorf("the fold item at %d has no entries (%s)", first, attrZipped)
	}
	r, err := gzip.NewReader(bytes.NewReader(z.Value))
	if err != nil {
		return nil, fmt.Errorf("the fold item at %d: %w", first, err)
	}
	b, err := io.ReadAll(io.LimitReader(r, maxZipped+1))
	if err == nil && len(b) > maxZipped {
		err = fmt.Errorf("its entries are over %d bytes", maxZipped)
	}
	if err != nil {
		return nil, fmt.Errorf("the fold item at %d: %w", first, err)
	}
	var es []jackpot.Entry
	if err := json.Unmarshal(b, &es); err != nil {
		return nil, fmt.Errorf("the fold item at %d: %w", first, err)
	}
	if int64(len(es)) != n {
		return nil, fmt.Errorf("the fold item at %d holds %d entries, not %d", first, len(es), n)
	}
	if err := consecutive(es, first); err != nil {
		return nil, fmt.Errorf("the fold item at %d: %w", first, err)
	}
	return es, nil
}

// consecutive fails unless es are the entries first, first+1, ... in
// order: what a fold's ledger item holds, checked as it is written and as
// it is read.
func consecutive(es []jackpot.Entry, first int64) error {
	for i, e := range es {
		if e.Seq != first+int64(i) {
			return fmt.Errorf("entry %d at place %d, not %d", e.Seq, i, first+int64(i))
		}
	}
	return nil
}
