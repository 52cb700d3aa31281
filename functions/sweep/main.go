// Command sweep is the scheduled Lambda function of tablesettle that pays
// the held RWS hits whose settle window has closed (ruling R7) when no one
// reads their pool: an EventBridge rule invokes it every minute
// (infra/stack.go), and it makes the call the local server's ticker makes
// every second (pools.Service.SweepHeld), finding the pools through the
// table's held index. Built by `make build` into dist/sweep/bootstrap for
// provided.al2023 on arm64. TABLESETTLE_TABLE names the DynamoDB table.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/tablesettle/tablesettle/internal/lambdaapp"
	"github.com/tablesettle/tablesettle/internal/lambdaapp/poolsenv"
)

func main() {
	h, err := handler(os.Getenv, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sweep:", err)
		os.Exit(1)
	}
	lambda.Start(h)
}

// handler is built once, before the first event, and serves every event;
// it logs JSON lines to logs (standard output: CloudWatch Logs).
func handler(getenv func(string) string, logs io.Writer) (lambdaapp.SweepHandler, error) {
	svc, err := poolsenv.Service(getenv)
	if err != nil {
		return nil, err
	}
	return lambdaapp.Sweep(svc, lambdaapp.Logger(logs, getenv("LOG_LEVEL"))), nil
}
