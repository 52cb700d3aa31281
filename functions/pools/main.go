// Command pools is the Lambda function serving the progressive jackpot pool
// operations of tablesettle (API Gateway HTTP API, payload 2.0). Built by
// `make build` into dist/pools/bootstrap for provided.al2023 on
// arm64. It is the only API function with table access (the scheduled
// sweep, functions/sweep, is the other function that has it):
// TABLESETTLE_TABLE names the DynamoDB table.
package main

import (
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/lambdaapp"
	"github.com/tablesettle/tablesettle/internal/lambdaapp/poolsenv"
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
	svc, err := poolsenv.Service(getenv)
	if err != nil {
		return nil, err
	}
	deps.Pools = svc
	return lambdaapp.New(deps, httpapi.GroupPools), nil
}
