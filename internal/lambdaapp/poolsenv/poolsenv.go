// Package poolsenv builds the pool service of a Lambda function with table
// access (functions/pools, functions/sweep) from its environment:
// TABLESETTLE_TABLE names the DynamoDB table, and the AWS configuration is
// the function's own (its role, its region). With
// TABLESETTLE_LEDGER_KMS_KEY (a KMS key id, ARN or alias of an
// ECC_NIST_EDWARDS25519 key) the service signs checkpoints with it, named
// TABLESETTLE_DEPLOYMENT (the origins' first part, required with it);
// TABLESETTLE_LEDGER_OLD_KEYS lists rotated verifier keys (comma
// separated) that stay listed; TABLESETTLE_CHECKPOINT_BUCKET names the S3
// bucket with Object Lock every checkpoint is written to (issue 34 items
// 2 and 5, docs/ledger.md).
package poolsenv

import (
	"context"
	"errors"
	"fmt"
	"time"

	"strings"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"golang.org/x/mod/sumdb/note"

	"github.com/tablesettle/tablesettle/internal/awsledger"

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
	if svc.Signing, err = Signing(context.Background(), getenv, kms.NewFromConfig(cfg), s3.NewFromConfig(cfg)); err != nil {
		return nil, err
	}
	return svc, nil
}

// Signing is the checkpoint signing the environment configures (nil
// without TABLESETTLE_LEDGER_KMS_KEY): the KMS signer, its verifier key
// and the rotated ones, and the S3 witness.
func Signing(ctx context.Context, getenv func(string) string, k awsledger.KMS, b awsledger.S3) (*pools.Signing, error) {
	keyID := getenv("TABLESETTLE_LEDGER_KMS_KEY")
	if keyID == "" {
		return nil, nil
	}
	deployment := getenv("TABLESETTLE_DEPLOYMENT")
	if deployment == "" {
		return nil, errors.New("TABLESETTLE_DEPLOYMENT (the checkpoints' origin prefix) is not set, and TABLESETTLE_LEDGER_KMS_KEY is")
	}
	signer, vkey, err := awsledger.NewSigner(ctx, k, keyID, deployment)
	if err != nil {
		return nil, err
	}
	g := &pools.Signing{Deployment: deployment, Signer: signer}
	keys := []string{vkey}
	for _, old := range strings.Split(getenv("TABLESETTLE_LEDGER_OLD_KEYS"), ",") {
		if old = strings.TrimSpace(old); old != "" {
			keys = append(keys, old)
		}
	}
	for _, vk := range keys {
		v, err := note.NewVerifier(vk)
		if err != nil {
			return nil, fmt.Errorf("TABLESETTLE_LEDGER_OLD_KEYS: %q: %w", vk, err)
		}
		g.Verifiers, g.Keys = append(g.Verifiers, v), append(g.Keys, vk)
	}
	if bucket := getenv("TABLESETTLE_CHECKPOINT_BUCKET"); bucket != "" {
		g.Witness = &awsledger.Witness{Client: b, Bucket: bucket, Prefix: deployment + "/"}
	}
	return g, nil
}
