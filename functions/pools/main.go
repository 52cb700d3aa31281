// Command pools is the Lambda function serving the progressive jackpot pool
// operations of tablesettle (API Gateway HTTP API, payload 2.0). Built by
// `make build` into dist/pools.zip as bootstrap for provided.al2023 on
// arm64. It is the only function with table access: TABLESETTLE_TABLE names
// the DynamoDB table.
package main

import (
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/lambdaapp"
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
	// SEAM(pools): build the DynamoDB store of internal/dynamo here, once,
	// on the table named by getenv("TABLESETTLE_TABLE"), and put it in deps
	// (the field httpapi.Deps gets for the pools operations). Return its
	// configuration error rather than exiting.
	return lambdaapp.New(deps, httpapi.GroupPools), nil
}
