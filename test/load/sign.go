package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"
)

// Signer signs requests for API Gateway's IAM authorization (SigV4, service
// execute-api) with credentials from the default chain (environment, shared
// config/SSO profile, container or instance role).
type Signer struct {
	creds  aws.CredentialsProvider
	region string
	signer *v4.Signer
	now    func() time.Time
}

// NewSigner loads the default credential chain for region.
func NewSigner(ctx context.Context, region string) (*Signer, error) {
	if region == "" {
		return nil, fmt.Errorf("-sigv4 needs -region (the stage's AWS region)")
	}
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRegion(region))
	if err != nil {
		return nil, fmt.Errorf("loading AWS credentials: %w", err)
	}
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		return nil, fmt.Errorf("no AWS credentials in the default chain: %w", err)
	}
	return NewSignerWith(cfg.Credentials, region, time.Now), nil
}

// NewSignerWith signs with the given credentials and clock (tests).
func NewSignerWith(creds aws.CredentialsProvider, region string, now func() time.Time) *Signer {
	return &Signer{creds: creds, region: region, signer: v4.NewSigner(), now: now}
}

// Sign adds the SigV4 headers to req, whose body is body.
func (s *Signer) Sign(ctx context.Context, req *http.Request, body []byte) error {
	creds, err := s.creds.Retrieve(ctx)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	return s.signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "execute-api", s.region, s.now())
}
