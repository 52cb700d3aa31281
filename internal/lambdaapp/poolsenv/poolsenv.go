// Package poolsenv builds the pool service of a Lambda function with table
// access (functions/pools, functions/sweep) from its environment:
// TABLESETTLE_TABLE names the DynamoDB table, and the AWS configuration is
// the function's own (its role, its region).
package poolsenv

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// ShiftsEnv names the floor's shift boundaries, "ZONE HH:MM ..." (e.g.
// "Asia/Singapore 06:00 14:00 22:00"; unset: jackpot.DefaultShifts): a
// shift report asked for no range covers the current shift.
const ShiftsEnv = "TABLESETTLE_SHIFTS"

// Service returns the pool service over the DynamoDB table that
// TABLESETTLE_TABLE names (with the store's default contribution shards),
// on the wall clock; an error when the variable is unset or the AWS
// configuration cannot be loaded.
func Service(getenv func(string) string) (*pools.Service, error) {
	table := getenv("TABLESETTLE_TABLE")
	if table == "" {
		return nil, errors.New("TABLESETTLE_TABLE (the DynamoDB table of the pools) is not set")
	}
	cfg, err := config.LoadDefaultConfig(context.Background())
	if err != nil {
		return nil, fmt.Errorf("aws configuration: %w", err)
	}
	shifts, err := jackpot.ParseShifts(getenv(ShiftsEnv))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ShiftsEnv, err)
	}
	store := dynamo.New(dynamodb.NewFromConfig(cfg), table).WithFoldAfter(dynamo.FoldAfter)
	svc := pools.NewService(store, time.Now, uint64(time.Now().UnixNano()))
	svc.Shifts = shifts
	return svc, nil
}
