// Package localledger is the local deployment's checkpoint signing (issue
// 34 items 2 and 5): an Ed25519 signed-note key in a file the service
// creates at its first start, mode 0600, beside the database, and the
// witness, an append-only file of every checkpoint published, beside it
// too. On AWS a KMS key and an S3 bucket with Object Lock take their
// places (docs/ledger.md).
package localledger

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/sumdb/note"

	"github.com/tablesettle/tablesettle/internal/pools"
)

// KeyFile is the signing key's file in the data directory; WitnessFile
// the witness's.
const (
	KeyFile     = "ledger.key"
	WitnessFile = "checkpoints.jsonl"
)

// Open returns the Signing of the deployment whose data directory is
// dir: the key in dir/ledger.key, created at the first start with a new
// deployment name (tablesettle-local-<8 hex digits>, the origins' first
// part), and the witness dir/checkpoints.jsonl. Older keys kept in the
// file's later lines (a rotation: the first line signs) stay verifiers.
// A key file that others than its owner may read is refused.
func Open(dir string) (*pools.Signing, error) {
	path := filepath.Join(dir, KeyFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if b, err = create(path); err != nil {
			return nil, fmt.Errorf("ledger key %s: %w", path, err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("ledger key %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("ledger key %s: mode %04o lets others read it: chmod 600 it", path, fi.Mode().Perm())
	}
	g, err := FromKeys(strings.Split(strings.TrimSpace(string(b)), "\n")...)
	if err != nil {
		return nil, fmt.Errorf("ledger key %s: %w", path, err)
	}
	g.Witness = &File{Path: filepath.Join(dir, WitnessFile)}
	return g, nil
}

// FromKeys returns the Signing of signed-note Ed25519 signer keys: the
// first signs, and names the deployment; all of them verify. It has no
// witness.
func FromKeys(skeys ...string) (*pools.Signing, error) {
	var g pools.Signing
	for i, line := range skeys {
		skey := strings.TrimSpace(line)
		signer, err := note.NewSigner(skey)
		if err != nil {
			return nil, fmt.Errorf("key %d: %w", i+1, err)
		}
		_, vkey, err := keysOf(skey)
		if err != nil {
			return nil, fmt.Errorf("key %d: %w", i+1, err)
		}
		v, err := note.NewVerifier(vkey)
		if err != nil {
			return nil, fmt.Errorf("key %d: %w", i+1, err)
		}
		if i == 0 {
			g.Signer, g.Deployment = signer, signer.Name()
		}
		g.Verifiers = append(g.Verifiers, v)
		g.Keys = append(g.Keys, vkey)
	}
	if g.Signer == nil {
		return nil, errors.New("no key")
	}
	return &g, nil
}

// create writes a new key to path, mode 0600, refusing to replace one.
func create(path string) ([]byte, error) {
	var id [4]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, err
	}
	skey, _, err := note.GenerateKey(rand.Reader, "tablesettle-local-"+hex.EncodeToString(id[:]))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	b := []byte(skey + "\n")
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	return b, f.Close()
}

// File is the local witness: every checkpoint appended to one file, one
// JSON object a line ({"origin","size","root","note"}), synced before the
// checkpoint is stored. It is opened for appending only and never
// rewritten.
type File struct {
	Path string
	mu   sync.Mutex
}

// Witness implements pools.Witness.
func (w *File) Witness(_ context.Context, c pools.Checkpoint) error {
	line, err := json.Marshal(c)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	f, err := os.OpenFile(w.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("witness %s: %w", w.Path, err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("witness %s: %w", w.Path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("witness %s: %w", w.Path, err)
	}
	return f.Close()
}

// keysOf parses a signer key and returns its name and verifier key.
func keysOf(skey string) (name, vkey string, err error) {
	f := strings.SplitN(skey, "+", 5)
	if len(f) != 5 || f[0] != "PRIVATE" || f[1] != "KEY" {
		return "", "", errors.New("not a signed-note signer key")
	}
	b, err := base64.StdEncoding.DecodeString(f[4])
	if err != nil || len(b) != 1+ed25519.SeedSize || b[0] != 1 {
		return "", "", errors.New("not an Ed25519 signed-note signer key")
	}
	pub := ed25519.NewKeyFromSeed(b[1:]).Public().(ed25519.PublicKey)
	vkey, err = note.NewEd25519VerifierKey(f[2], pub)
	return f[2], vkey, err
}
