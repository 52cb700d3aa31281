package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/dynamo/dynamotest"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// serve -dynamodb talks to DynamoDB Local on loopback only (it signs with
// fake credentials): any other endpoint is refused before a request.
func TestDynamoStoreLoopbackOnly(t *testing.T) {
	for _, ep := range []string{"https://dynamodb.us-east-1.amazonaws.com", "http://10.0.0.1:8000", "::not a url"} {
		if _, err := dynamoStore(ep, "t", 0); err == nil {
			t.Errorf("-dynamodb %s accepted", ep)
		}
	}
}

// serve -dynamodb -shards 16 keeps pools in DynamoDB Local: the table is
// created, and a round without a hit is committed beside the pool (issue 25).
func TestDynamoStoreServesPools(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	st, err := dynamoStore(ep, fmt.Sprintf("serve-%d", time.Now().UnixNano()), dynamo.DefaultShards)
	if err != nil {
		t.Fatal(err)
	}
	var _ pools.ContributionStore = st
	svc := pools.NewService(st, time.Now, 1)
	ctx := context.Background()
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r1", time.Now(), 500, []int{1, 2})
	if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
		t.Fatal(err)
	}
	if p, err := svc.Get(ctx, "p"); err != nil || p.Meters.Displayed != 10_000_173 {
		t.Fatalf("displayed %d (%v), want 10,000,173 (two 500 wagers at 17.33%%)", p.Meters.Displayed, err)
	}
}

// serve -shards N sets the contribution shards (issue 25; DefaultShards
// unless set, 0 turns them off, docs/scale.md): only with -dynamodb, and 0
// to dynamo.MaxShards (serve without either, as the other serve tests run
// it, keeps the default without complaint).
func TestServeShardsFlag(t *testing.T) {
	for _, args := range [][]string{{"-shards", "3"}, {"-dynamodb", "http://127.0.0.1:1", "-shards", "25"}, {"-dynamodb", "http://127.0.0.1:1", "-shards", "-1"}} {
		if err := serve(args); err == nil || !strings.Contains(err.Error(), "-shards") {
			t.Errorf("serve %v: %v, want the -shards flag refused", args, err)
		}
	}
}
