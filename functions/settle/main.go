// Command settle is the Lambda function serving the round settlement
// operations of tablesettle (API Gateway HTTP API, payload 2.0). Built by
// `make build` into dist/settle/bootstrap for provided.al2023 on arm64.
package main

import (
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/lambdaapp"
)

func main() {
	lambda.Start(handler(os.Getenv))
}

// handler is built once, before the first event, and serves every event.
func handler(getenv func(string) string) lambdaapp.Handler {
	return lambdaapp.New(lambdaapp.Deps(getenv), httpapi.GroupSettle)
}
