package dynamo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// The held index (the scheduled sweep, functions/sweep). A pool item that
// holds an RWS hit inside its settle window (ruling R7) carries two more
// attributes: heldKey, always "HELD", and heldDue, the earliest time one
// of its windows closes (Unix milliseconds). The global secondary index
// HeldIndex has them as its keys, so it is sparse: it holds the pools
// holding a hit and nothing else, and one Query (heldKey = HELD AND
// heldDue <= now) lists the pools with a hit due, however large the ledger
// behind them. A commit puts the whole pool item, so the attributes go
// when the last held hit is paid. The index projects the keys only (the
// pool id is in pk): it costs one small index write per pool write while a
// hit is held.
//
// The index is eventually consistent: a pool may appear there a moment
// after its commit (the sweep finds it on its next run), and may still be
// listed a moment after its hit was paid (the sweep then reads the pool,
// strongly, finds nothing due and writes nothing).
const (
	// HeldIndex is the name of the global secondary index.
	HeldIndex = "held"
	// AttrHeldKey and AttrHeldDue are its partition key (S) and sort key
	// (N) attributes.
	AttrHeldKey = "heldKey"
	AttrHeldDue = "heldDue"
	heldValue   = "HELD"
)

var (
	_ pools.HeldIndex = (*Store)(nil)
	_ pools.HitLedger = (*Store)(nil) // hits.go
)

// poolAttrs are the attributes of a pool item besides its doc: its
// version, and the held index's keys while it holds a hit.
func poolAttrs(p jackpot.Pool) map[string]types.AttributeValue {
	out := map[string]types.AttributeValue{attrVersion: num(p.Version)}
	due, ok := jackpot.HeldDueAt(p)
	if !ok {
		return out
	}
	out[AttrHeldKey] = str(heldValue)
	out[AttrHeldDue] = num(due.UnixMilli())
	return out
}

// HeldDue implements pools.HeldIndex: the pools whose earliest held hit's
// window closes at or before at, from the held index (one Query, paged).
func (s *Store) HeldDue(ctx context.Context, at time.Time) ([]string, error) {
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		IndexName:                 aws.String(HeldIndex),
		KeyConditionExpression:    aws.String("#k = :held AND #due <= :at"),
		ExpressionAttributeNames:  map[string]string{"#k": AttrHeldKey, "#due": AttrHeldDue},
		ExpressionAttributeValues: map[string]types.AttributeValue{":held": str(heldValue), ":at": num(at.UnixMilli())},
	}
	var ids []string
	for {
		page, err := s.api.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("dynamo: pools with a held hit due: %w", err)
		}
		for _, it := range page.Items {
			v, ok := it[attrPK].(*types.AttributeValueMemberS)
			if !ok || !strings.HasPrefix(v.Value, "POOL#") {
				return nil, fmt.Errorf("dynamo: held index item without a pool key: %v", it[attrPK])
			}
			ids = append(ids, strings.TrimPrefix(v.Value, "POOL#"))
		}
		if len(page.LastEvaluatedKey) == 0 {
			return ids, nil
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
}

// heldIndexSpec is the index as CreateTable creates it (the stack,
// infra/stack.go, defines the same one).
func heldIndexSpec() types.GlobalSecondaryIndex {
	return types.GlobalSecondaryIndex{
		IndexName: aws.String(HeldIndex),
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(AttrHeldKey), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(AttrHeldDue), KeyType: types.KeyTypeRange},
		},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
	}
}
