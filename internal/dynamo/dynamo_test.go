package dynamo_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
)

// endpoint returns DynamoDB Local's endpoint. Under make test
// (TABLESETTLE_REQUIRE_DDB=1) a missing endpoint fails the test; a plain
// go test without DynamoDB Local skips it.
func endpoint(t testing.TB) string {
	t.Helper()
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		if os.Getenv("TABLESETTLE_REQUIRE_DDB") != "" {
			t.Fatal("DYNAMODB_ENDPOINT is not set: run through test/dynamodb-local.sh (make test does)")
		}
		t.Skip("DynamoDB Local not running: make test starts it (test/dynamodb-local.sh)")
	}
	return ep
}

var tables atomic.Int64

// newTable creates a fresh table on DynamoDB Local.
func newTable(t testing.TB, ep string) string {
	t.Helper()
	name := fmt.Sprintf("tablesettle-test-%d-%d", time.Now().UnixNano(), tables.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := dynamo.CreateTable(ctx, dynamo.LocalClient(ep), name); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestContract(t *testing.T) {
	ep := endpoint(t)
	client := dynamo.LocalClient(ep)
	jackpottest.Run(t, func(t *testing.T) jackpot.Store {
		return dynamo.New(client, newTable(t, ep))
	}, jackpottest.Scale{Writers: 8, Rounds: 400})
}
