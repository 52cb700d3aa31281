// Command sweep is the scheduled Lambda function of tablesettle that pays
// the held RWS hits whose settle window has closed (ruling R7) when no one
// reads their pool: an EventBridge rule invokes it every minute
// (infra/stack.go), and it makes the call the local server's ticker makes
// every second (pools.Service.SweepHeld), finding the pools through the
// table's held index. Built by `make build` into dist/sweep/bootstrap for
// provided.al2023 on arm64. TABLESETTLE_TABLE names the DynamoDB table.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/lambdaapp"
	"github.com/tablesettle/tablesettle/internal/pools"
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
	table := getenv("TABLESETTLE_TABLE")
	if table == "" {
		return nil, errors.New("TABLESETTLE_TABLE (the DynamoDB table of the pools) is not set")
	}
	cfg, err := config.LoadDefaultConfig(context.Background())
	if err != nil {
		return nil, fmt.Errorf("aws configuration: %w", err)
	}
	store := dynamo.New(dynamodb.NewFromConfig(cfg), table)
	svc := pools.NewService(store, time.Now, uint64(time.Now().UnixNano()))
	return lambdaapp.Sweep(svc, lambdaapp.Logger(logs, getenv("LOG_LEVEL"))), nil
}
