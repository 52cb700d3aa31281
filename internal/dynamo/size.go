package dynamo

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ItemSize is an item's size as DynamoDB bills it: each attribute's name
// plus its value: a string's bytes, a number's (significant digits + 1)/2
// + 1 bytes, a binary's bytes, a Boolean 1 byte, a list 3 bytes and 1 per element besides
// the elements' (any other type counted as 8). Group commit bounds a
// batch by it (4 MB a transaction); make bench-pools and the load driver
// report write units from it.
func ItemSize(it map[string]types.AttributeValue) int {
	n := 0
	for name, v := range it {
		n += len(name) + valueSize(v)
	}
	return n
}

func valueSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		d := strings.TrimLeft(strings.TrimPrefix(v.Value, "-"), "0")
		return (len(d)+1)/2 + 1
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL:
		return 1
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + valueSize(e)
		}
		return n
	default:
		return 8
	}
}
