package dynamo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/ledgerlog"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// The Merkle log (issue 34, docs/ledger.md). Every ledger item carries
// h, a binary attribute: the tlog stored hashes its entries add
// (ledgerlog.Append), 32 bytes each, entry after entry (an entry with
// 0-based index n adds StoredHashCount(n+1) - StoredHashCount(n) of them:
// its leaf hash, then one per subtree it completes). A commit computes them
// over the hashes of the earlier entries (LogHashes: O(log n) items, read
// strongly consistent; the pool's version condition guarantees that no
// entry was appended in between) and writes them in the same
// TransactWriteItems as the entries: a fold's item carries its entries'
// hashes together. Items written before carry none until backfillLog
// fills them in (resumable: LOGHASH notes how far it got).
const (
	attrHashes     = "h"
	skLogHash      = "LOGHASH"
	attrLogThrough = "through"
)

var _ pools.LogReader = (*Store)(nil)

// errUnlogged is an entry without its stored hashes: written before the
// log (backfillLog).
var errUnlogged = errors.New("dynamo: a ledger entry without its stored hashes (written before the Merkle log; backfill)")

// storedCount is how many stored hashes the entry with 1-based seq adds.
func storedCount(seq int64) int {
	return int(tlog.StoredHashCount(seq) - tlog.StoredHashCount(seq-1))
}

// packHashes is the h attribute of an item holding the entries from
// first on, whose stored hashes are hs (ledgerlog.Append's out, in order):
// an entry's own item (one entry), or a fold's item (fold, with n, however
// many entries it holds).
// An entry's own item keeps all of them. A fold's item keeps only those
// its entries cannot give again: the subtrees that reach back before its
// first entry (at most one a level: O(log n), under 1 KB); every other
// hash of its entries is a leaf hash of one of them or a node over two
// hashes of the item (itemHashes computes them when it is read). So the
// log adds under 1 KB to a fold, not 32 bytes or more an entry.
func packHashes(first int64, hs [][]tlog.Hash, fold bool) map[string]types.AttributeValue {
	if !fold {
		return map[string]types.AttributeValue{attrHashes: &types.AttributeValueMemberB{Value: ledgerlog.Pack(hs[0])}}
	}
	var b, leaves []byte
	for i, h := range hs {
		seq := first + int64(i)
		leaves = append(leaves, h[0][:leafPrefix]...)
		for level := 1; level < len(h); level++ {
			if straddles(first, seq, level) {
				b = append(b, h[level][:]...)
			}
		}
	}
	out := map[string]types.AttributeValue{attrLeaves: &types.AttributeValueMemberB{Value: leaves}}
	if len(b) > 0 {
		// None reach back before a fold of a few entries from an odd
		// seq: no h then (an empty binary value is no value to the SDK).
		out[attrHashes] = &types.AttributeValueMemberB{Value: b}
	}
	return out
}

// A fold's item also keeps the first leafPrefix bytes of each entry's
// leaf hash (attrLeaves, 320 B for 80 entries): an entry changed in it is
// then named by its seq when the item is read (errChanged), as an entry's
// own item names it by its stored leaf hash. The hashes themselves, not
// these bytes, are what a root and a proof rest on.
const (
	attrLeaves = "hl"
	leafPrefix = 4
)

// errChanged is an entry whose leaf is not the one logged when it was
// written: it was changed since.
var errChanged = errors.New("not the entry logged: its leaf hash differs from the one stored with it")

// straddles reports whether the subtree of the given level that entry seq
// completes (its leaves seq-2^level+1 ... seq) begins before first.
func straddles(first, seq int64, level int) bool {
	return seq-(int64(1)<<level)+1 < first
}

// itemHashes is the stored hashes of a ledger item's entries, the item's
// first seq on (packHashes): an entry's own item's as written; a fold's
// from its entries and the hashes it keeps. errUnlogged without h.
func itemHashes(it map[string]types.AttributeValue) (first int64, out [][]tlog.Hash, err error) {
	sk, _ := it[attrSK].(*types.AttributeValueMemberS)
	if sk == nil || !strings.HasPrefix(sk.Value, "LEDGER#") {
		return 0, nil, errors.New("dynamo: not a ledger item")
	}
	if first, err = strconv.ParseInt(strings.TrimPrefix(sk.Value, "LEDGER#"), 10, 64); err != nil {
		return 0, nil, fmt.Errorf("dynamo: ledger item %s: %w", sk.Value, err)
	}
	b, ok := it[attrHashes].(*types.AttributeValueMemberB)
	_, fold := it[attrLeaves] // a fold's item keeps hl always, h when some hash reaches back before it
	if !ok && !fold {
		return first, nil, fmt.Errorf("entry %d: %w", first, errUnlogged)
	}
	if !ok {
		b = &types.AttributeValueMemberB{}
	}
	kept, err := ledgerlog.Unpack(b.Value)
	if err != nil {
		return first, nil, fmt.Errorf("dynamo: ledger item %d: %w", first, err)
	}
	if intAttr(it, attrRounds) == 0 {
		if len(kept) != storedCount(first) {
			return first, nil, fmt.Errorf("dynamo: ledger item %d holds %d stored hashes, not %d", first, len(kept), storedCount(first))
		}
		return first, [][]tlog.Hash{kept}, nil
	}
	es, err := entriesOf(it)
	if err != nil {
		return first, nil, fmt.Errorf("dynamo: ledger item %d: %w", first, err)
	}
	leaves, _ := it[attrLeaves].(*types.AttributeValueMemberB)
	if leaves == nil || len(leaves.Value) != leafPrefix*len(es) {
		return first, nil, fmt.Errorf("dynamo: ledger item %d: its leaf hashes' prefixes are missing", first)
	}
	for i, e := range es {
		seq := first + int64(i)
		leaf, err := ledgerlog.LeafHash(e)
		if err != nil {
			return first, nil, err
		}
		if !bytes.Equal(leaf[:leafPrefix], leaves.Value[i*leafPrefix:(i+1)*leafPrefix]) {
			return first, nil, fmt.Errorf("dynamo: entry %d is %w", seq, errChanged)
		}
		h := []tlog.Hash{leaf}
		for level := 1; level < storedCount(seq); level++ {
			if straddles(first, seq, level) {
				if len(kept) == 0 {
					return first, nil, fmt.Errorf("dynamo: ledger item %d holds too few stored hashes", first)
				}
				h, kept = append(h, kept[0]), kept[1:]
				continue
			}
			left := out[seq-(int64(1)<<(level-1))-first][level-1]
			h = append(h, tlog.NodeHash(left, h[level-1]))
		}
		out = append(out, h)
	}
	if len(kept) != 0 {
		return first, nil, fmt.Errorf("dynamo: ledger item %d holds %d stored hashes too many", first, len(kept))
	}
	return first, out, nil
}

// maxLogCache bounds the stored hashes a store keeps in memory per pool
// (those its commits wrote and its reads read: they never change).
const maxLogCache = 1 << 15

func (s *Store) cacheHashes(id string, first int64, hs [][]tlog.Hash) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.logCache[id]
	if m == nil || len(m) > maxLogCache {
		m = map[int64]tlog.Hash{}
		s.logCache[id] = m
	}
	for i, h := range hs {
		at := tlog.StoredHashIndex(0, first-1+int64(i))
		for j, x := range h {
			m[at+int64(j)] = x
		}
	}
}

// logProjection reads what LogHashes needs of a ledger item.
var logProjection = struct {
	expr  string
	names map[string]string
}{"#sk, #seq, #n, #h, #hl, #z", map[string]string{"#sk": attrSK, "#seq": attrSeq, "#n": attrRounds, "#h": attrHashes, "#hl": attrLeaves, "#z": attrZipped}}

// LogHashes implements pools.LogReader: the stored hashes at indexes,
// from the items of the entries that own them (ledgerlog.Owner): one
// BatchGetItem of their own items (strongly consistent, projected on the
// hashes), and for an entry inside a fold's item, one Query of the item at
// or before it. O(log n) items for a proof or an append.
func (s *Store) LogHashes(ctx context.Context, id string, indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	need := map[int64][]int{} // by seq: the places of indexes it owns
	s.mu.Lock()
	cached := s.logCache[id]
	for k, i := range indexes {
		if h, ok := cached[i]; ok {
			out[k] = h
			continue
		}
		seq, _ := ledgerlog.Owner(i)
		need[seq] = append(need[seq], k)
	}
	s.mu.Unlock()
	if len(need) == 0 {
		return out, nil
	}
	got := map[int64][]tlog.Hash{} // by seq: the entry's stored hashes
	keep := func(it map[string]types.AttributeValue) error {
		first, hs, err := itemHashes(it)
		if err != nil {
			return err
		}
		for i, h := range hs {
			got[first+int64(i)] = h
		}
		s.cacheHashes(id, first, hs)
		return nil
	}
	var keys []map[string]types.AttributeValue
	for seq := range need {
		keys = append(keys, key(id, skLedger(seq)))
	}
	for n := 0; len(keys) > 0; n++ {
		batch := keys[:min(len(keys), 100)]
		keys = keys[len(batch):]
		res, err := s.api.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			s.table: {Keys: batch, ConsistentRead: aws.Bool(true), ProjectionExpression: aws.String(logProjection.expr), ExpressionAttributeNames: logProjection.names}}})
		if err != nil {
			return nil, fmt.Errorf("dynamo: the log of %s: %w", id, err)
		}
		for _, it := range res.Responses[s.table] {
			if err := keep(it); err != nil {
				return nil, fmt.Errorf("dynamo: the log of %s: %w", id, err)
			}
		}
		if left := res.UnprocessedKeys[s.table].Keys; len(left) > 0 {
			if n >= 20 {
				return nil, fmt.Errorf("dynamo: the log of %s: %d keys left unprocessed", id, len(left))
			}
			keys = append(keys, left...)
		}
	}
	for seq := range need {
		if _, ok := got[seq]; ok {
			continue
		}
		// Inside a fold's item: the item at or before it.
		page, err := s.api.Query(ctx, &dynamodb.QueryInput{
			TableName:                 aws.String(s.table),
			KeyConditionExpression:    aws.String("#pk = :pk AND #sk BETWEEN :from AND :to"),
			ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#sk": attrSK, "#seq": attrSeq, "#n": attrRounds, "#h": attrHashes, "#hl": attrLeaves, "#z": attrZipped},
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk(id)), ":from": str(skLedger(0)), ":to": str(skLedger(seq))},
			ProjectionExpression:      aws.String(logProjection.expr),
			ConsistentRead:            aws.Bool(true),
			ScanIndexForward:          aws.Bool(false),
			Limit:                     aws.Int32(1),
		})
		if err != nil {
			return nil, fmt.Errorf("dynamo: the log of %s: %w", id, err)
		}
		for _, it := range page.Items {
			if err := keep(it); err != nil {
				return nil, fmt.Errorf("dynamo: the log of %s: %w", id, err)
			}
		}
		if _, ok := got[seq]; !ok {
			return nil, fmt.Errorf("dynamo: the log of %s: no ledger entry %d", id, seq)
		}
	}
	for seq, at := range need {
		hs := got[seq]
		for _, k := range at {
			_, pos := ledgerlog.Owner(indexes[k])
			if pos >= len(hs) {
				return nil, fmt.Errorf("dynamo: the log of %s: entry %d holds no stored hash %d", id, seq, indexes[k])
			}
			out[k] = hs[pos]
		}
	}
	return out, nil
}

// logReader is LogHashes bound to a pool and a context.
func (s *Store) logReader(ctx context.Context, id string) tlog.HashReader {
	return tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) { return s.LogHashes(ctx, id, indexes) })
}

// appendHashes are the stored hashes of the entries es a commit appends
// (consecutive from the pool's last seq): ledgerlog.Append over the
// hashes of the earlier entries. A ledger with entries not yet logged is
// backfilled first, a bounded part at a time; while it is not complete
// the commit writes no hashes (nil, nil), which a later backfill fills in.
func (s *Store) appendHashes(ctx context.Context, id string, es []jackpot.Entry) ([][]tlog.Hash, error) {
	if len(es) == 0 {
		return nil, nil
	}
	size := es[0].Seq - 1
	hs, err := ledgerlog.Append(s.logReader(ctx, id), size, es)
	if !errors.Is(err, errUnlogged) {
		return hs, err
	}
	done, err := s.backfillLog(ctx, id, backfillLogPages)
	if err != nil || !done {
		return nil, err
	}
	return ledgerlog.Append(s.logReader(ctx, id), size, es)
}

// backfillLogPages is how many pages of ledger items one backfill call
// logs when a commit meets entries written before the log.
const backfillLogPages = 10

// BackfillLog writes the stored hashes of the entries of pool id written
// before the Merkle log (issue 34), all of them: a migration, resumable
// (LOGHASH notes how far it got). Commits meanwhile log their own entries
// once the ledger before them is logged.
func (s *Store) BackfillLog(ctx context.Context, id string) error {
	for {
		done, err := s.backfillLog(ctx, id, backfillLogPages)
		if err != nil || done {
			return err
		}
	}
}

// backfillLog logs up to pages pages of ledger items after LOGHASH's
// through, in order, each item's h computed over the earlier ones' and
// written (TransactWriteItems of up to MaxItems updates; the value is
// the same whoever writes it), then LOGHASH; done when it reached the end.
func (s *Store) backfillLog(ctx context.Context, id string, pages int) (done bool, err error) {
	got, err := s.api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(id, skLogHash), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return false, fmt.Errorf("dynamo: log backfill of %s: %w", id, err)
	}
	through := intAttr(got.Item, attrLogThrough)
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    aws.String("#pk = :pk AND #sk BETWEEN :from AND :to"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#sk": attrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk(id)), ":from": str(skLedger(through + 1)), ":to": str(skLedger(1 << 62))},
		ConsistentRead:            aws.Bool(true),
		Limit:                     aws.Int32(int32(s.backfillPage())),
	}
	for p := 0; p < pages; p++ {
		page, err := s.api.Query(ctx, in)
		if err != nil {
			return false, fmt.Errorf("dynamo: log backfill of %s: %w", id, err)
		}
		var updates []types.TransactWriteItem
		var lasts []int64 // the last seq of each update's item
		for _, it := range page.Items {
			if _, ok := it[attrHashes]; ok {
				first, hs, err := itemHashes(it)
				if err != nil {
					return false, err
				}
				s.cacheHashes(id, first, hs)
				through = first + int64(len(hs)) - 1
				continue
			}
			es, err := entriesOf(it)
			if err != nil {
				return false, fmt.Errorf("dynamo: log backfill of %s: %w", id, err)
			}
			hs, err := ledgerlog.Append(s.logReader(ctx, id), es[0].Seq-1, es)
			if err != nil {
				return false, fmt.Errorf("dynamo: log backfill of %s: %w", id, err)
			}
			s.cacheHashes(id, es[0].Seq, hs)
			sk := it[attrSK].(*types.AttributeValueMemberS).Value
			u := &types.Update{TableName: aws.String(s.table), Key: key(id, sk),
				ConditionExpression:       aws.String("attribute_exists(#pk)"),
				ExpressionAttributeNames:  map[string]string{"#pk": attrPK},
				ExpressionAttributeValues: map[string]types.AttributeValue{}}
			var set []string
			for name, v := range packHashes(es[0].Seq, hs, intAttr(it, attrRounds) > 0) {
				set = append(set, "#"+name+" = :"+name)
				u.ExpressionAttributeNames["#"+name] = name
				u.ExpressionAttributeValues[":"+name] = v
			}
			slices.Sort(set)
			u.UpdateExpression = aws.String("SET " + strings.Join(set, ", "))
			updates = append(updates, types.TransactWriteItem{Update: u})
			through = es[len(es)-1].Seq
			lasts = append(lasts, through)
		}
		for len(updates) > 0 {
			n := min(len(updates), MaxItems-1)
			tx := append(updates[:n:n], types.TransactWriteItem{Put: &types.Put{TableName: aws.String(s.table), Item: logHashItem(id, lasts[n-1])}})
			if _, err := s.api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx}); err != nil {
				return false, fmt.Errorf("dynamo: log backfill of %s: %w", id, err)
			}
			updates, lasts = updates[n:], lasts[n:]
		}
		if len(page.LastEvaluatedKey) == 0 {
			return true, nil
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	return false, nil
}

// logHashItem is the pool's LOGHASH item: its ledger items are logged
// through seq through (backfillLog).
func logHashItem(id string, through int64) map[string]types.AttributeValue {
	it := key(id, skLogHash)
	it[attrPool], it[attrLogThrough] = str(id), num(through)
	return it
}
