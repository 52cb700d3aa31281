// Command pools is the Lambda function serving the progressive jackpot pool
// operations of tablesettle (API Gateway HTTP API, payload 2.0). Built by
// `make build` into dist/pools/bootstrap for provided.al2023 on
// arm64. It is the only API function with table access (the scheduled
// sweep, functions/sweep, is the other function that has it):
// TABLESETTLE_TABLE names the DynamoDB table.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/lambdaapp"
	"github.com/tablesettle/tablesettle/internal/pools"
)

func main() {
	h, err := handler(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pools:", err)
		os.Exit(1)
	}
	lambda.Start(h)
}

// handler is built once, before the first event, and serves every event.
func handler(getenv func(string) string) (lambdaapp.Handler, error) {
	deps := lambdaapp.Deps(getenv)
	table := getenv("TABLESETTLE_TABLE")
	if table == "" {
		return nil, errors.New("TABLESETTLE_TABLE (the DynamoDB table of the pools) is not set")
	}
	cfg, err := config.LoadDefaultConfig(context.Background())
	if err != nil {
		return nil, fmt.Errorf("aws configuration: %w", err)
	}
	// dynamo.New's default contribution shards: rounds without a hit are
	// committed beside the pool (docs/scale.md).
	store := dynamo.New(dynamodb.NewFromConfig(cfg), table)
	deps.Pools = pools.NewService(store, time.Now, uint64(time.Now().UnixNano()))
	return lambdaapp.New(deps, httpapi.GroupPools), nil
}
