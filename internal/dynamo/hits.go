package dynamo

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// The hit log (pools.HitLedger). Every ledger entry about a hit
// (jackpot.Kind.AboutHit: the hits themselves and what became of them) is
// written twice in the transaction that commits it: as LEDGER#<seq> and
// as HIT#<seq>, in the pool's partition. The floor's hit history and a
// slip then read the pool's hits by a Query of HIT# items, newest first,
// and cost what those hold, not the whole ledger (a contribution a
// round). Hits are rare (a Straight Flush is about one hand in 72,000), so
// the copies cost little; an entry folded from the shards is never one of
// them (a round with a hit is committed to the pool itself).
//
// The item HITLOG says that a pool's HIT# items are complete. CreatePool
// writes it with the pool. A pool created before the hit log gets its
// copies from its whole ledger the first time its hits are read, once;
// commits meanwhile write their own copies. That backfill notes how far it
// got in HITLOG (through, with complete false) after each page of the
// ledger, so a long ledger that one request cannot get through in its time
// is finished by the next ones, each from where the last stopped, and
// only then is HITLOG complete.

const (
	skHitLog        = "HITLOG"
	attrHitThrough  = "through"
	attrHitComplete = "complete"
)

// defaultBackfillPage is how many ledger entries a backfill reads at a
// time.
const defaultBackfillPage = 1000

func skHit(seq int64) string { return fmt.Sprintf("HIT#%019d", seq) }

// hitCopies are the HIT# items of the entries about a hit among es.
func hitCopies(id string, es []jackpot.Entry) ([]map[string]types.AttributeValue, error) {
	var out []map[string]types.AttributeValue
	for _, e := range es {
		if !e.Kind.AboutHit() {
			continue
		}
		it, err := item(id, skHit(e.Seq), e, map[string]types.AttributeValue{attrSeq: num(e.Seq)})
		if err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, nil
}

// hitLogItem is the pool's HITLOG item: its copies are complete, or with
// complete false, made through seq through.
func hitLogItem(id string, through int64, complete bool) map[string]types.AttributeValue {
	it := key(id, skHitLog)
	it[attrPool] = str(id)
	it[attrHitComplete] = &types.AttributeValueMemberBOOL{Value: complete}
	if !complete {
		it[attrHitThrough] = num(through)
	}
	return it
}

// HitEntries implements pools.HitLedger: one strongly consistent Query of
// the pool's HIT# items below before, newest first.
func (s *Store) HitEntries(ctx context.Context, id string, before int64, limit int) ([]jackpot.Entry, error) {
	out := []jackpot.Entry{}
	if limit <= 0 || before <= 1 {
		return out, nil
	}
	if err := s.hitLogComplete(ctx, id); err != nil {
		return nil, err
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    aws.String("#pk = :pk AND #sk BETWEEN :from AND :to"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#sk": attrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk(id)), ":from": str(skHit(0)), ":to": str(skHit(before - 1))},
		ScanIndexForward:          aws.Bool(false),
		ConsistentRead:            aws.Bool(true),
	}
	for len(out) < limit {
		in.Limit = aws.Int32(int32(min(limit-len(out), 1000)))
		page, err := s.api.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("dynamo: hits of %s: %w", id, err)
		}
		for _, it := range page.Items {
			e, err := decode[jackpot.Entry](it)
			if err != nil {
				return nil, fmt.Errorf("dynamo: hits of %s: %w", id, err)
			}
			out = append(out, e)
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	return out, nil
}

// hitLogComplete makes sure the pool's HIT# items hold every entry about
// a hit (see the top of this file): a pool known complete costs nothing,
// one whose HITLOG item is complete one GetItem; any other has its
// copies written from its ledger, from where the HITLOG item says the last
// backfill stopped (backfillHitLog).
func (s *Store) hitLogComplete(ctx context.Context, id string) error {
	s.mu.Lock()
	done := s.hitLogged[id]
	s.mu.Unlock()
	if done {
		return nil
	}
	got, err := s.api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(id, skHitLog), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return fmt.Errorf("dynamo: hit log of %s: %w", id, err)
	}
	if complete, ok := got.Item[attrHitComplete].(*types.AttributeValueMemberBOOL); !ok || !complete.Value {
		var through int64
		if t, ok := got.Item[attrHitThrough].(*types.AttributeValueMemberN); ok {
			if through, err = strconv.ParseInt(t.Value, 10, 64); err != nil {
				return fmt.Errorf("dynamo: hit log of %s: through %q: %w", id, t.Value, err)
			}
		}
		if err := s.backfillHitLog(ctx, id, through); err != nil {
			return err
		}
	}
	s.mu.Lock()
	if s.hitLogged == nil {
		s.hitLogged = map[string]bool{}
	}
	s.hitLogged[id] = true
	s.mu.Unlock()
	return nil
}

// backfillHitLog writes the HIT# copy of every entry about a hit in the
// pool's ledger after seq through, a page of the ledger at a time: its
// copies (each the same item a commit writes, so one written twice is the
// same), in transactions of up to MaxItems puts, then HITLOG with how far
// it got, complete after the last page. A HITLOG already complete (another
// backfill finished first) is never set back: the backfill stops there.
func (s *Store) backfillHitLog(ctx context.Context, id string, through int64) error {
	for after := through; ; {
		es, err := s.Ledger(ctx, id, after, s.backfillPage())
		if err != nil {
			return err
		}
		copies, err := hitCopies(id, es)
		if err != nil {
			return err
		}
		for len(copies) > 0 {
			n := min(len(copies), MaxItems)
			puts := make([]types.TransactWriteItem, n)
			for i, it := range copies[:n] {
				puts[i] = types.TransactWriteItem{Put: &types.Put{TableName: aws.String(s.table), Item: it}}
			}
			if _, err := s.api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: puts}); err != nil {
				return fmt.Errorf("dynamo: hit log of %s: %w", id, err)
			}
			copies = copies[n:]
		}
		if len(es) > 0 {
			after = es[len(es)-1].Seq
		}
		complete := len(es) < s.backfillPage()
		_, err = s.api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Put: &types.Put{
			TableName: aws.String(s.table), Item: hitLogItem(id, after, complete),
			ConditionExpression:       aws.String("attribute_not_exists(#c) OR #c = :f"),
			ExpressionAttributeNames:  map[string]string{"#c": attrHitComplete},
			ExpressionAttributeValues: map[string]types.AttributeValue{":f": &types.AttributeValueMemberBOOL{Value: false}},
		}}}})
		if conflict(err) {
			return nil // complete already
		}
		if err != nil {
			return fmt.Errorf("dynamo: hit log of %s: %w", id, err)
		}
		if complete {
			return nil
		}
	}
}

// backfillPage is how many ledger entries a backfill reads at a time
// (a test's store sets fewer).
func (s *Store) backfillPage() int {
	if s.hitLogPage > 0 {
		return s.hitLogPage
	}
	return defaultBackfillPage
}
