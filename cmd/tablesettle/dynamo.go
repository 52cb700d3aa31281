package main

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/tablesettle/tablesettle/internal/dynamo"
)

// dynamoStore is serve's store on a DynamoDB endpoint (DynamoDB Local:
// -dynamodb http://127.0.0.1:8000): the production store on table,
// created when missing, with shards contribution shards per pool (serve's
// default: dynamo.DefaultShards, rounds without a hit committed beside the
// pool, docs/scale.md; 0: none, every round commits to the pool item). The endpoint must be on
// loopback: serve signs with fake local credentials and never talks to AWS.
func dynamoStore(endpoint, table string, shards int) (*dynamo.Store, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1") {
		return nil, fmt.Errorf("-dynamodb %q: want DynamoDB Local on loopback, e.g. http://127.0.0.1:8000", endpoint)
	}
	client := dynamo.LocalClient(endpoint)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		return nil, err
	}
	return dynamo.New(client, table).WithShards(shards).WithFoldAfter(dynamo.FoldAfter), nil
}
