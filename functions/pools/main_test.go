package main

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/lambdaapp/eventtest"
)

// TestEvents feeds every sample event of events/pools, in file-name order
// (create the pool, apply a round, read the ledger...), to the handler main
// gives lambda.Start, on a fresh table of DynamoDB Local: the function's
// own AWS configuration reaches it through AWS_ENDPOINT_URL_DYNAMODB, as it
// would reach DynamoDB. make test runs DynamoDB Local
// (test/dynamodb-local.sh); a plain go test without it skips.
func TestEvents(t *testing.T) {
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		if os.Getenv("TABLESETTLE_REQUIRE_DDB") != "" {
			t.Fatal("DYNAMODB_ENDPOINT is not set: run through test/dynamodb-local.sh (make test does)")
		}
		t.Skip("DynamoDB Local not running: make test starts it (test/dynamodb-local.sh)")
	}
	table := fmt.Sprintf("tablesettle-events-%d", time.Now().UnixNano())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := dynamo.CreateTable(ctx, dynamo.LocalClient(ep), table); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", ep)
	// DynamoDB Local keeps a table per access key and region: those of
	// dynamo.LocalClient, which created it.
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_ACCESS_KEY_ID", "local")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", os.DevNull)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", os.DevNull)
	// The IAM identities of the events map to roles as the stack maps its
	// roles (issue 16): events/iam-principals.json.
	principals := eventtest.IAMPrincipals(t, "../../events")
	getenv := func(k string) string {
		return map[string]string{"LOG_LEVEL": "error", "TABLESETTLE_TABLE": table, "TABLESETTLE_IAM_PRINCIPALS": principals}[k]
	}
	h, err := handler(getenv)
	if err != nil {
		t.Fatal(err)
	}
	eventtest.Run(t, h, "../../events/pools")
}

// TestNeedsTable: without TABLESETTLE_TABLE the function reports a
// configuration error instead of serving pools it cannot store.
func TestNeedsTable(t *testing.T) {
	if _, err := handler(func(string) string { return "" }); err == nil {
		t.Fatal("no error without TABLESETTLE_TABLE")
	}
}
