package poolsenv

import (
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"golang.org/x/mod/sumdb/note"

	"github.com/tablesettle/tablesettle/internal/awsledger"
)

type kmsKey struct{ priv ed25519.PrivateKey }

func (k kmsKey) GetPublicKey(_ context.Context, in *kms.GetPublicKeyInput, _ ...func(*kms.Options)) (*kms.GetPublicKeyOutput, error) {
	der, err := x509.MarshalPKIXPublicKey(k.priv.Public())
	return &kms.GetPublicKeyOutput{PublicKey: der, KeySpec: kmstypes.KeySpecEccNistEdwards25519, KeyUsage: kmstypes.KeyUsageTypeSignVerify}, err
}

func (k kmsKey) Sign(_ context.Context, in *kms.SignInput, _ ...func(*kms.Options)) (*kms.SignOutput, error) {
	return &kms.SignOutput{Signature: ed25519.Sign(k.priv, in.Message)}, nil
}

type noS3 struct{}

func (noS3) PutObject(context.Context, *s3.PutObjectInput, ...func(*s3.Options)) (*s3.PutObjectOutput, error) {
	return &s3.PutObjectOutput{}, nil
}

// TestSigning: issue 34 items 2 and 5 on AWS. The Lambda environment
// configures the KMS signer (named by TABLESETTLE_DEPLOYMENT), the
// rotated keys that stay listed, and the S3 witness; without the KMS key
// nothing is signed, as before.
func TestSigning(t *testing.T) {
	ctx := context.Background()
	_, oldV, err := note.GenerateKey(strings.NewReader(strings.Repeat("x", 64)), "tablesettle-prod")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TABLESETTLE_LEDGER_KMS_KEY": "alias/ledger", "TABLESETTLE_DEPLOYMENT": "tablesettle-prod",
		"TABLESETTLE_LEDGER_OLD_KEYS": oldV, "TABLESETTLE_CHECKPOINT_BUCKET": "cps"}
	g, err := Signing(ctx, func(k string) string { return env[k] }, kmsKey{ed25519.NewKeyFromSeed(make([]byte, 32))}, noS3{})
	if err != nil || g == nil {
		t.Fatal(err)
	}
	w, ok := g.Witness.(*awsledger.Witness)
	if g.Deployment != "tablesettle-prod" || len(g.Keys) != 2 || g.Keys[1] != oldV || !ok || w.Bucket != "cps" || w.Key("p", 3) != "tablesettle-prod/checkpoints/p/00000000000000000003.json" {
		t.Fatalf("signing %+v", g)
	}
	msg, err := note.Sign(&note.Note{Text: "tablesettle-prod/tablesettle/pools/p\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n"}, g.Signer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := note.Open(msg, note.VerifierList(g.Verifiers...)); err != nil {
		t.Fatal(err)
	}
	delete(env, "TABLESETTLE_DEPLOYMENT")
	if _, err := Signing(ctx, func(k string) string { return env[k] }, nil, nil); err == nil {
		t.Fatal("a KMS key without a deployment name was accepted")
	}
	if g, err := Signing(ctx, func(string) string { return "" }, nil, nil); g != nil || err != nil {
		t.Fatalf("no key: %v %v", g, err)
	}
}

// The floor's shift boundaries come from TABLESETTLE_SHIFTS (issue 35
// item 5): unset, the default; a value that does not parse stops the
// function, naming the variable.
func TestServiceShifts(t *testing.T) {
	env := func(shifts string) func(string) string {
		return func(k string) string {
			switch k {
			case "TABLESETTLE_TABLE":
				return "pools"
			case ShiftsEnv:
				return shifts
			case "AWS_REGION":
				return "ap-southeast-1"
			}
			return ""
		}
	}
	for _, c := range []struct{ set, want string }{{"", "UTC 06:00 14:00 22:00"}, {"Asia/Singapore 22:00 07:00", "Asia/Singapore 07:00 22:00"}} {
		svc, err := Service(env(c.set))
		if err != nil || svc.Shifts.String() != c.want {
			t.Fatalf("%q: %v %v, want %s", c.set, svc, err, c.want)
		}
	}
	if _, err := Service(env("Nowhere/Land 06:00")); err == nil || !strings.Contains(err.Error(), ShiftsEnv) {
		t.Fatalf("a bad zone: %v", err)
	}
}
