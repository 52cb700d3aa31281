package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tablesettle/tablesettle/internal/pools"
)

// A pool's signed checkpoints (issue 34): one item each in its
// partition, sk "CKPT#<size, 19 digits>", with the signed note (note,
// binary) and size. The first at a size stands (written on the condition
// that none exists); the newest is read by one Query, newest first.
const (
	prefCheckpoint = "CKPT#"
	attrNote       = "note"
	attrSize       = "size"
)

var (
	_ pools.CheckpointStore = (*Store)(nil)
	_ pools.PoolLister      = (*Store)(nil)
)

func skCheckpoint(size int64) string { return fmt.Sprintf("%s%019d", prefCheckpoint, size) }

// PutCheckpoint implements pools.CheckpointStore: one conditional Put.
func (s *Store) PutCheckpoint(ctx context.Context, pool string, size int64, note []byte) error {
	it := key(pool, skCheckpoint(size))
	it[attrPool], it[attrSize], it[attrNote] = str(pool), num(size), &types.AttributeValueMemberB{Value: note}
	_, err := s.api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{notExists(it, s.table)}})
	if conflict(err) {
		return nil // the first at this size stands
	}
	if err != nil {
		return fmt.Errorf("dynamo: checkpoint %d of %s: %w", size, pool, err)
	}
	return nil
}

// Checkpoints implements pools.CheckpointStore: one strongly consistent
// Query of the pool's checkpoints below before (0: all), largest first.
func (s *Store) Checkpoints(ctx context.Context, pool string, before int64, limit int) ([]pools.StoredCheckpoint, error) {
	out := []pools.StoredCheckpoint{}
	if limit <= 0 {
		return out, nil
	}
	to := skCheckpoint(1<<62 - 1)
	if before > 0 {
		if before <= 1 {
			return out, nil
		}
		to = skCheckpoint(before - 1)
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    aws.String("#pk = :pk AND #sk BETWEEN :from AND :to"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#sk": attrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk(pool)), ":from": str(skCheckpoint(0)), ":to": str(to)},
		ConsistentRead:            aws.Bool(true),
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(int32(min(limit, 1000))),
	}
	for len(out) < limit {
		page, err := s.api.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("dynamo: checkpoints of %s: %w", pool, err)
		}
		for _, it := range page.Items {
			note, _ := it[attrNote].(*types.AttributeValueMemberB)
			if note == nil {
				return nil, fmt.Errorf("dynamo: a checkpoint of %s without its note", pool)
			}
			if len(out) < limit {
				out = append(out, pools.StoredCheckpoint{Size: intAttr(it, attrSize), Note: note.Value})
			}
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	return out, nil
}

// Pools implements pools.PoolLister: the pools in the registry (every
// pool created since it, and those a commit of this process registered)
// and those this process has read.
func (s *Store) Pools(ctx context.Context) ([]string, error) {
	return s.shardedPools(ctx)
}
