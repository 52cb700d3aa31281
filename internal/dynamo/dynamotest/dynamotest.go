// Package dynamotest is what the tests that need DynamoDB Local share:
// its endpoint, and a fresh table that a Lambda function's own AWS
// configuration reaches as it would reach DynamoDB.
package dynamotest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/dynamo"
)

// Endpoint returns DynamoDB Local's endpoint (DYNAMODB_ENDPOINT, set by
// test/dynamodb-local.sh, which make test runs). Under make test
// (TABLESETTLE_REQUIRE_DDB=1) a missing endpoint fails the test; a plain
// go test without DynamoDB Local skips it.
func Endpoint(t testing.TB) string {
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

// FunctionTable creates a fresh table named prefix-<nanoseconds> on
// DynamoDB Local and points the AWS configuration a Lambda function loads
// (config.LoadDefaultConfig) at it, for the rest of the test: the
// endpoint, and the region and keys of dynamo.LocalClient, which created
// it (DynamoDB Local keeps a table per access key and region); no profile
// or shared file of the machine is read. It returns the table and the
// endpoint.
func FunctionTable(t *testing.T, prefix string) (table, endpoint string) {
	t.Helper()
	endpoint = Endpoint(t)
	table = fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := dynamo.CreateTable(ctx, dynamo.LocalClient(endpoint), table); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", endpoint)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_ACCESS_KEY_ID", "local")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", os.DevNull)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", os.DevNull)
	return table, endpoint
}
