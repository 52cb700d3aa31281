package dynamo_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tablesettle/tablesettle/internal/dynamo"
)

// ItemSize counts as DynamoDB bills: "pk" + "POOL#p" = 8; "n" + 12345
// (5 significant digits: 3 + 1) = 5; "ok" + true = 3; "keys" + a list of
// two 3-byte strings (3 + 2 x (1 + 3)) = 15; "z" + 10 bytes of binary
// (a fold's compressed entries) = 11. 42 in all.
func TestItemSize(t *testing.T) {
	it := map[string]types.AttributeValue{
		"pk":   &types.AttributeValueMemberS{Value: "POOL#p"},
		"n":    &types.AttributeValueMemberN{Value: "12345"},
		"ok":   &types.AttributeValueMemberBOOL{Value: true},
		"keys": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "abc"}, &types.AttributeValueMemberS{Value: "def"}}},
		"z":    &types.AttributeValueMemberB{Value: make([]byte, 10)},
	}
	if got := dynamo.ItemSize(it); got != 42 {
		t.Fatalf("ItemSize = %d, want 42", got)
	}
}
