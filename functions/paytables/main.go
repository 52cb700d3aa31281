// Command paytables is the Lambda function serving the rulesets, paytables and hand evaluation
// operations of tablesettle (API Gateway HTTP API, payload 2.0). Built by
// `make build` into dist/paytables/bootstrap for provided.al2023 on arm64.
package main

import (
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/tablesettle/tablesettle/internal/analysis"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/lambdaapp"
)

func main() {
	lambda.Start(handler(os.Getenv))
}

// handler is built once, before the first event, and serves every event.
func handler(getenv func(string) string) lambdaapp.Handler {
	deps := lambdaapp.Deps(getenv)
	// Custom analyses repeat (a manager trying the same table again, a
	// console refreshing): a warm instance answers a repeat from memory.
	deps.AnalysisCache = analysis.NewCache(256, 16<<20)
	return lambdaapp.New(deps, httpapi.GroupPaytables)
}
