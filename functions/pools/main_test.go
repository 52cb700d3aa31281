package main

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/dynamo/dynamotest"
	"github.com/tablesettle/tablesettle/internal/lambdaapp/eventtest"
)

// TestEvents feeds every sample event of events/pools, in file-name order
// (create the pool, apply a round, read the ledger...), to the handler main
// gives lambda.Start, on a fresh table of DynamoDB Local: the function's
// own AWS configuration reaches it through AWS_ENDPOINT_URL_DYNAMODB, as it
// would reach DynamoDB. make test runs DynamoDB Local
// (test/dynamodb-local.sh); a plain go test without it skips.
func TestEvents(t *testing.T) {
	table, _ := dynamotest.FunctionTable(t, "tablesettle-events")
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
