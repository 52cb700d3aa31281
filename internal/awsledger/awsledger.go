// Package awsledger is the AWS deployment's checkpoint signing and
// witness (issue 34 items 2 and 5, docs/ledger.md): a note.Signer whose
// Ed25519 key is a KMS key (key spec ECC_NIST_EDWARDS25519) no person can
// read or use, and a witness that writes every checkpoint to an S3
// bucket with Object Lock in compliance mode, never overwriting one.
// Locally internal/localledger takes their places.
package awsledger

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"golang.org/x/mod/sumdb/note"

	"github.com/tablesettle/tablesettle/internal/pools"
)

// KMS is the part of the KMS client the signer uses.
type KMS interface {
	GetPublicKey(ctx context.Context, in *kms.GetPublicKeyInput, opts ...func(*kms.Options)) (*kms.GetPublicKeyOutput, error)
	Sign(ctx context.Context, in *kms.SignInput, opts ...func(*kms.Options)) (*kms.SignOutput, error)
}

// Signer is a signed-note signer over a KMS Ed25519 key: KMS signs the
// note's text with ED25519_SHA_512 (pure Ed25519 over the raw message,
// RFC 8032), which is what a signed note's Ed25519 signature is.
type Signer struct {
	client  KMS
	keyID   string
	name    string
	hash    uint32
	timeout time.Duration
}

// SignTimeout bounds one KMS Sign call (note.Signer's Sign has no context).
const SignTimeout = 10 * time.Second

// NewSigner reads KMS key keyID's public key (it must be an
// ECC_NIST_EDWARDS25519 signing key) and returns its signer named name
// (the deployment: the origins' first part) and its signed-note verifier
// key.
func NewSigner(ctx context.Context, client KMS, keyID, name string) (*Signer, string, error) {
	if err := verifierName(name); err != nil {
		return nil, "", err
	}
	out, err := client.GetPublicKey(ctx, &kms.GetPublicKeyInput{KeyId: aws.String(keyID)})
	if err != nil {
		return nil, "", fmt.Errorf("kms key %s: %w", keyID, err)
	}
	if out.KeySpec != kmstypes.KeySpecEccNistEdwards25519 || out.KeyUsage != kmstypes.KeyUsageTypeSignVerify {
		return nil, "", fmt.Errorf("kms key %s is %s for %s, want %s for %s", keyID, out.KeySpec, out.KeyUsage, kmstypes.KeySpecEccNistEdwards25519, kmstypes.KeyUsageTypeSignVerify)
	}
	pk, err := x509.ParsePKIXPublicKey(out.PublicKey)
	if err != nil {
		return nil, "", fmt.Errorf("kms key %s: public key: %w", keyID, err)
	}
	pub, ok := pk.(ed25519.PublicKey)
	if !ok {
		return nil, "", fmt.Errorf("kms key %s: public key is %T, not Ed25519", keyID, pk)
	}
	vkey, err := note.NewEd25519VerifierKey(name, pub)
	if err != nil {
		return nil, "", err
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return nil, "", err
	}
	return &Signer{client: client, keyID: keyID, name: name, hash: v.KeyHash(), timeout: SignTimeout}, vkey, nil
}

// Name implements note.Signer.
func (s *Signer) Name() string { return s.name }

// KeyHash implements note.Signer.
func (s *Signer) KeyHash() uint32 { return s.hash }

// Sign implements note.Signer: KMS signs msg, the note's text.
func (s *Signer) Sign(msg []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	out, err := s.client.Sign(ctx, &kms.SignInput{
		KeyId:            aws.String(s.keyID),
		Message:          msg,
		MessageType:      kmstypes.MessageTypeRaw,
		SigningAlgorithm: kmstypes.SigningAlgorithmSpecEd25519Sha512,
	})
	if err != nil {
		return nil, fmt.Errorf("kms sign with %s: %w", s.keyID, err)
	}
	if len(out.Signature) != ed25519.SignatureSize {
		return nil, fmt.Errorf("kms sign with %s: a %d-byte signature, want %d", s.keyID, len(out.Signature), ed25519.SignatureSize)
	}
	return out.Signature, nil
}

// S3 is the part of the S3 client the witness uses.
type S3 interface {
	PutObject(ctx context.Context, in *s3.PutObjectInput, opts ...func(*s3.Options)) (*s3.PutObjectOutput, error)
}

// Witness writes every checkpoint to an S3 bucket with Object Lock in
// compliance mode (the bucket's default retention, set in CDK, locks
// each object): one object a pool and size,
// <prefix>checkpoints/<pool>/<size, 20 digits>.json, holding the
// checkpoint as GET .../checkpoint answers it. It never overwrites: the
// put is conditional (If-None-Match: *), and a checkpoint already there
// at that size is left as it is.
type Witness struct {
	Client S3
	Bucket string
	Prefix string
}

// Key is the object key of pool's checkpoint at size.
func (w *Witness) Key(pool string, size int64) string {
	return fmt.Sprintf("%scheckpoints/%s/%020d.json", w.Prefix, url.PathEscape(pool), size)
}

// Witness implements pools.Witness.
func (w *Witness) Witness(ctx context.Context, c pools.Checkpoint) error {
	if c.Pool == "" {
		return errors.New("s3 witness: a checkpoint without its pool")
	}
	body, err := json.Marshal(c)
	if err != nil {
		return err
	}
	key := w.Key(c.Pool, c.Size)
	_, err = w.Client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:            aws.String(w.Bucket),
		Key:               aws.String(key),
		Body:              bytes.NewReader(append(body, '\n')),
		ContentType:       aws.String("application/json"),
		IfNoneMatch:       aws.String("*"),
		ChecksumAlgorithm: s3types.ChecksumAlgorithmSha256, // Object Lock requires an integrity checksum
	})
	var ae smithy.APIError
	if errors.As(err, &ae) && (ae.ErrorCode() == "PreconditionFailed" || ae.ErrorCode() == "ConditionalRequestConflict") {
		return nil // witnessed already: an object is never overwritten
	}
	if err != nil {
		return fmt.Errorf("s3 witness s3://%s/%s: %w", w.Bucket, key, err)
	}
	return nil
}

// verifierName checks a deployment name fits a signed-note key name.
func verifierName(name string) error {
	if name == "" || strings.ContainsAny(name, "+ \t\n") {
		return fmt.Errorf("deployment name %q: want a non-empty name without '+' or spaces", name)
	}
	return nil
}
