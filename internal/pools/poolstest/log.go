package poolstest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"

	"errors"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"

	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// suitePools are the pools the suite's cases open, checked in a store
// that cannot list its pools (pools.PoolLister).
var suitePools = []string{"p", "rws", "pool-1", "wide", "short", "linked", "q", "mbs"}

// withLogCheck wraps open: after the case, CheckLog checks every pool of
// each store it opened (issue 34, must hold: the independent verifier's
// root equals the store's, after every scenario of the suite).
func withLogCheck(open Opener) Opener {
	return func(t *testing.T) pools.Store {
		st := open(t)
		t.Cleanup(func() {
			if !t.Failed() {
				CheckLog(t, st)
			}
		})
		return st
	}
}

// CheckLog checks st's Merkle log of every pool against an independent
// RFC 6962 / RFC 9162 verifier (rfc6962.go) that reads the ledger as the
// API serves it (JSON bytes, internal/apijson): the store's root equals
// the root recomputed from the served entries; every entry's inclusion
// proof and the consistency proof of every smaller tree verify; a
// checkpoint the service signs names that root, and its Ed25519
// signature verifies under the listed key. A store that keeps no log
// (pools.LogReader) is only logged.
func CheckLog(t *testing.T, st pools.Store) {
	t.Helper()
	if _, ok := st.(pools.LogReader); !ok {
		t.Logf("%T keeps no Merkle log (pools.LogReader): not checked", st)
		return
	}
	ctx := context.Background()
	ids := suitePools
	if pl, ok := st.(pools.PoolLister); ok {
		var err error
		if ids, err = pl.Pools(ctx); err != nil {
			t.Fatal(err)
		}
	}
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	signing := testSigning(t)
	svc.Signing = signing
	for _, id := range ids {
		if _, err := svc.Get(ctx, id); err != nil {
			continue // not a pool of this case
		}
		// The rounds a store committed beside the pool are in its log
		// once folded (a writer or the scheduled fold does, issue 34).
		p0, err := foldThen(t, svc, id).Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var leaves []rfcHash
		for after := int64(0); ; {
			page, err := svc.FloorLedger(ctx, id, "asc", after, 0, 500)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range page.Entries {
				var buf bytes.Buffer
				if err := apijson.Format.Marshal(&buf, e); err != nil {
					t.Fatal(err)
				}
				leaf, err := rfcLeaf(buf.Bytes())
				if err != nil {
					t.Fatalf("pool %s entry %d: %v", id, e.Seq, err)
				}
				leaves = append(leaves, rfcLeafHash(leaf))
			}
			if page.Next == nil {
				break
			}
			after = *page.Next
		}
		leaves = leaves[:min(int64(len(leaves)), p0.Seq)]
		if int64(len(leaves)) != p0.Seq {
			t.Fatalf("pool %s: %d entries served, the pool counts %d", id, len(leaves), p0.Seq)
		}
		q, root, err := svc.TreeHead(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if q.Seq != p0.Seq || root != rfcRoot(leaves) {
			t.Fatalf("pool %s: the store's root at %d is %x, the independent verifier's %x", id, q.Seq, root, rfcRoot(leaves))
		}
		n := int64(len(leaves))
		for i := int64(0); i < n; i++ {
			pr, err := svc.InclusionProof(ctx, id, i+1, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := rfcVerifyInclusion(pr.Index, pr.Size, leaves[i], decodeAll(t, pr.Hashes), rfcRoot(leaves)); err != nil || pr.Index != i || pr.Size != n {
				t.Fatalf("pool %s: inclusion proof of entry %d in %d: %v (index %d size %d)", id, i+1, n, err, pr.Index, pr.Size)
			}
		}
		for m := int64(1); m < n; m++ {
			pr, err := svc.ConsistencyProof(ctx, id, m, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := rfcVerifyConsistency(m, n, decodeAll(t, pr.Hashes), rfcRoot(leaves[:m]), rfcRoot(leaves)); err != nil {
				t.Fatalf("pool %s: consistency proof %d to %d: %v", id, m, n, err)
			}
		}
		if _, ok := st.(pools.CheckpointStore); !ok {
			continue
		}
		if _, err := svc.PublishCheckpoint(ctx, id); err != nil {
			t.Fatal(err)
		}
		c, err := svc.LatestCheckpoint(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if err := rfcCheckpoint(c.Note, signing.Keys[0], "tablesettle-test/tablesettle/pools/"+id, n, rfcRoot(leaves)); err != nil {
			t.Fatalf("pool %s: checkpoint %q: %v", id, c.Note, err)
		}
	}
}

func decodeAll(t *testing.T, hs []string) []rfcHash {
	out := make([]rfcHash, len(hs))
	for i, h := range hs {
		b, err := base64.StdEncoding.DecodeString(h)
		if err != nil || len(b) != 32 {
			t.Fatalf("proof hash %q", h)
		}
		copy(out[i][:], b)
	}
	return out
}

// testSigning is a Signing with a new key named tablesettle-test.
func testSigning(t *testing.T) *pools.Signing {
	skey, vkey, err := note.GenerateKey(rand.Reader, "tablesettle-test")
	if err != nil {
		t.Fatal(err)
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
		t.Fatal(err)
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		t.Fatal(err)
	}
	return &pools.Signing{Deployment: "tablesettle-test", Signer: signer, Verifiers: []note.Verifier{v}, Keys: []string{vkey}}
}

// rfcCheckpoint checks a signed checkpoint by C2SP signed-note and
// tlog-checkpoint alone: the text before the blank line is signed by the
// Ed25519 key of vkey (name+hash+base64(0x01 || public key)) in a line
// "— name base64(key hash || signature)", and its first three lines are
// origin, size and the base64 root.
func rfcCheckpoint(msg, vkey, origin string, size int64, root rfcHash) error {
	text, sigs, ok := strings.Cut(msg, "\n\n")
	if !ok {
		return errors.New("no blank line before the signatures")
	}
	text += "\n"
	f := strings.SplitN(vkey, "+", 3)
	pub, err := base64.StdEncoding.DecodeString(f[2])
	if err != nil || len(pub) != 33 || pub[0] != 1 {
		return errors.New("not an Ed25519 verifier key")
	}
	hash, _ := strconv.ParseUint(f[1], 16, 32)
	verified := false
	for _, line := range strings.Split(strings.TrimSuffix(sigs, "\n"), "\n") {
		name, b64, ok := strings.Cut(strings.TrimPrefix(line, "— "), " ")
		sig, err := base64.StdEncoding.DecodeString(b64)
		if !ok || err != nil || name != f[0] || len(sig) != 68 || binary.BigEndian.Uint32(sig) != uint32(hash) {
			continue
		}
		verified = verified || ed25519.Verify(ed25519.PublicKey(pub[1:]), []byte(text), sig[4:])
	}
	if !verified {
		return errors.New("no signature verifies")
	}
	lines := strings.Split(text, "\n")
	if lines[0] != origin || lines[1] != strconv.FormatInt(size, 10) || lines[2] != base64.StdEncoding.EncodeToString(root[:]) {
		return errors.New("origin, size or root is not the ledger's")
	}
	return nil
}
