package awsledger

import (
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"golang.org/x/mod/sumdb/note"

	"github.com/tablesettle/tablesettle/internal/pools"
)

// fakeKMS signs with a real Ed25519 key, as KMS does with
// ECC_NIST_EDWARDS25519 and ED25519_SHA_512, and refuses what KMS would.
type fakeKMS struct {
	priv  ed25519.PrivateKey
	spec  kmstypes.KeySpec
	calls int
}

func (f *fakeKMS) GetPublicKey(_ context.Context, in *kms.GetPublicKeyInput, _ ...func(*kms.Options)) (*kms.GetPublicKeyOutput, error) {
	der, err := x509.MarshalPKIXPublicKey(f.priv.Public())
	if err != nil {
		return nil, err
	}
	return &kms.GetPublicKeyOutput{KeyId: in.KeyId, PublicKey: der, KeySpec: f.spec, KeyUsage: kmstypes.KeyUsageTypeSignVerify,
		SigningAlgorithms: []kmstypes.SigningAlgorithmSpec{kmstypes.SigningAlgorithmSpecEd25519Sha512, kmstypes.SigningAlgorithmSpecEd25519PhSha512}}, nil
}

func (f *fakeKMS) Sign(_ context.Context, in *kms.SignInput, _ ...func(*kms.Options)) (*kms.SignOutput, error) {
	f.calls++
	if in.SigningAlgorithm != kmstypes.SigningAlgorithmSpecEd25519Sha512 || in.MessageType != kmstypes.MessageTypeRaw {
		return nil, errors.New("ValidationException: ED25519_SHA_512 signs RAW messages only")
	}
	if len(in.Message) > 4096 {
		return nil, errors.New("ValidationException: a RAW message is at most 4096 bytes")
	}
	return &kms.SignOutput{Signature: ed25519.Sign(f.priv, in.Message), SigningAlgorithm: in.SigningAlgorithm}, nil
}

// TestKMSSigner: issue 34 item 2 on AWS. A checkpoint signed through KMS
// opens with note.Open under the verifier key derived from the KMS
// public key; another key does not verify it; a key that is not
// ECC_NIST_EDWARDS25519 is refused.
func TestKMSSigner(t *testing.T) {
	ctx := context.Background()
	f := &fakeKMS{priv: ed25519.NewKeyFromSeed(make([]byte, 32)), spec: kmstypes.KeySpecEccNistEdwards25519}
	s, vkey, err := NewSigner(ctx, f, "alias/tablesettle-ledger", "tablesettle-prod")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(vkey, "tablesettle-prod+") {
		t.Fatalf("verifier key %q", vkey)
	}
	text := "tablesettle-prod/tablesettle/pools/megalink\n3\nQBG1BDRpsfSyRSC2D3KvBr6LlTVfum2DZQUfSw8/E9Y=\ncurrency SGD\n"
	msg, err := note.Sign(&note.Note{Text: text}, s)
	if err != nil || f.calls != 1 {
		t.Fatalf("sign: %v (%d calls)", err, f.calls)
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil || n.Text != text || len(n.Sigs) != 1 || n.Sigs[0].Hash != s.KeyHash() {
		t.Fatalf("open: %+v %v", n, err)
	}
	otherSeed := make([]byte, 32)
	otherSeed[0] = 1
	other, _, _ := NewSigner(ctx, &fakeKMS{priv: ed25519.NewKeyFromSeed(otherSeed), spec: kmstypes.KeySpecEccNistEdwards25519}, "k", "tablesettle-prod")
	forged, _ := note.Sign(&note.Note{Text: text}, other)
	if _, err := note.Open(forged, note.VerifierList(v)); err == nil {
		t.Fatal("a note signed by another key verified")
	}
	if _, _, err := NewSigner(ctx, &fakeKMS{priv: f.priv, spec: kmstypes.KeySpecEccNistP256}, "k", "tablesettle-prod"); err == nil {
		t.Fatal("a P-256 key was accepted")
	}
}

// fakeS3 keeps objects by key and refuses an If-None-Match put of an
// existing one with 412, as S3's conditional writes do.
type fakeS3 struct{ objects map[string]string }

type apiError struct{ code string }

func (e apiError) Error() string                 { return e.code }
func (e apiError) ErrorCode() string             { return e.code }
func (e apiError) ErrorMessage() string          { return e.code }
func (e apiError) ErrorFault() smithy.ErrorFault { return smithy.FaultClient }

func (f *fakeS3) PutObject(_ context.Context, in *s3.PutObjectInput, _ ...func(*s3.Options)) (*s3.PutObjectOutput, error) {
	if in.ChecksumAlgorithm == "" {
		return nil, apiError{"InvalidRequest"} // Object Lock: a checksum is required
	}
	if _, ok := f.objects[*in.Key]; ok && in.IfNoneMatch != nil && *in.IfNoneMatch == "*" {
		return nil, apiError{"PreconditionFailed"}
	}
	b, _ := io.ReadAll(in.Body)
	f.objects[*in.Key] = string(b)
	return &s3.PutObjectOutput{}, nil
}

// TestS3Witness: issue 34 item 5 on AWS. Each checkpoint is one object
// per pool and size; a second checkpoint at the same size leaves the
// first object as it was.
func TestS3Witness(t *testing.T) {
	ctx := context.Background()
	f := &fakeS3{objects: map[string]string{}}
	w := &Witness{Client: f, Bucket: "b", Prefix: "prod/"}
	c := pools.Checkpoint{Origin: "o/tablesettle/pools/p 1", Pool: "p 1", Size: 12, Root: "r", Note: "n1"}
	if err := w.Witness(ctx, c); err != nil {
		t.Fatal(err)
	}
	key := "prod/checkpoints/p%201/00000000000000000012.json"
	var got pools.Checkpoint
	if err := json.Unmarshal([]byte(f.objects[key]), &got); err != nil || got.Note != "n1" || got.Size != 12 {
		t.Fatalf("object %s: %q %v", key, f.objects[key], err)
	}
	c.Note = "n2"
	if err := w.Witness(ctx, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.objects[key], `"note":"n1"`) || len(f.objects) != 1 {
		t.Fatalf("overwritten: %v", f.objects)
	}
	if err := w.Witness(ctx, pools.Checkpoint{Size: 1}); err == nil {
		t.Fatal("a checkpoint without its pool was written")
	}
}
