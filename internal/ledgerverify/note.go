package ledgerverify

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Key is a verifier key as GET /v1/ledger/keys lists it: the origins it
// signs (this prefix followed by a pool id) and the C2SP signed-note
// verifier key, name+hash+base64(0x01 || Ed25519 public key).
type Key struct {
	Origin      string `json:"origin"`
	VerifierKey string `json:"verifierKey"`
}

// verifier is a parsed Ed25519 signed-note verifier key.
type verifier struct {
	origin string
	name   string
	id     uint32
	pub    ed25519.PublicKey
}

// algEd25519 is the C2SP signed-note signature type of Ed25519.
const algEd25519 = 0x01

// parseKey reads a verifier key (C2SP signed-note, "Verifier keys"): the
// key name, the key ID (8 hex digits: the first four bytes of
// SHA-256(name || "\n" || 0x01 || public key), big-endian) and the
// base64 of 0x01 || the 32-byte public key. The ID is recomputed and
// must match.
func parseKey(k Key) (verifier, error) {
	f := strings.SplitN(k.VerifierKey, "+", 3)
	if len(f) != 3 || f[0] == "" || strings.ContainsAny(f[0], " \n") || len(f[1]) != 8 {
		return verifier{}, fmt.Errorf("verifier key %q: not name+hash+key", k.VerifierKey)
	}
	id, err := hex.DecodeString(f[1])
	if err != nil {
		return verifier{}, fmt.Errorf("verifier key %q: hash %q is not 8 hex digits", k.VerifierKey, f[1])
	}
	raw, err := base64.StdEncoding.DecodeString(f[2])
	if err != nil || len(raw) != 1+ed25519.PublicKeySize || raw[0] != algEd25519 {
		return verifier{}, fmt.Errorf("verifier key %q: not an Ed25519 key", k.VerifierKey)
	}
	v := verifier{origin: k.Origin, name: f[0], id: binary.BigEndian.Uint32(id), pub: ed25519.PublicKey(raw[1:])}
	if keyID(v.name, raw) != v.id {
		return verifier{}, fmt.Errorf("verifier key %q: its hash is not its key's", k.VerifierKey)
	}
	return v, nil
}

func keyID(name string, key []byte) uint32 {
	h := sha256.New()
	h.Write([]byte(name + "\n"))
	h.Write(key)
	return binary.BigEndian.Uint32(h.Sum(nil))
}

// openNote verifies a C2SP signed note: the text (UTF-8, newline
// terminated, no blank line of its own), a blank line, then signature
// lines "— <name> <base64(key ID || signature)>". It returns the text
// and the key that verified it. A signature by an unknown key is
// skipped; a known key's signature that does not verify fails the note,
// as does a note no known key signs.
func openNote(msg []byte, keys []verifier) (string, verifier, error) {
	if !utf8.Valid(msg) {
		return "", verifier{}, errors.New("the note is not UTF-8")
	}
	split := bytes.LastIndex(msg, []byte("\n\n"))
	if split < 0 {
		return "", verifier{}, errors.New("the note has no signature block")
	}
	text, sigs := msg[:split+1], msg[split+2:]
	if len(sigs) == 0 || sigs[len(sigs)-1] != '\n' {
		return "", verifier{}, errors.New("the note's signatures do not end in a newline")
	}
	var good *verifier
	for _, line := range strings.Split(strings.TrimSuffix(string(sigs), "\n"), "\n") {
		rest, ok := strings.CutPrefix(line, "\u2014 ")
		if !ok {
			return "", verifier{}, fmt.Errorf("signature line %q does not begin with an em dash", line)
		}
		name, b64, ok := strings.Cut(rest, " ")
		sig, err := base64.StdEncoding.DecodeString(b64)
		if !ok || err != nil || len(sig) < 5 {
			return "", verifier{}, fmt.Errorf("signature line %q is malformed", line)
		}
		id := binary.BigEndian.Uint32(sig)
		for i := range keys {
			k := &keys[i]
			if k.name != name || k.id != id {
				continue
			}
			if !ed25519.Verify(k.pub, text, sig[4:]) {
				return "", verifier{}, fmt.Errorf("the signature by %s does not verify", name)
			}
			good = k
		}
	}
	if good == nil {
		return "", verifier{}, errors.New("no listed key signed it")
	}
	return string(text), *good, nil
}

// checkpoint is a C2SP tlog-checkpoint's body as tablesettle writes it
// (docs/ledger.md): origin, size, base64 root, then extension lines
// "<name> <integer>" for the meters, "currency <code>", "hit <category>
// <count> <paid> <fromPool>" and the rate sums.
type checkpoint struct {
	origin string
	size   int64
	root   Hash
	// meters are the named integers of the extension lines, hit lines as
	// "hit <category> count|paid|fromPool".
	meters   map[string]*big.Int
	currency string
}

// parseCheckpoint reads a checkpoint body.
func parseCheckpoint(text string) (checkpoint, error) {
	var c checkpoint
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if !strings.HasSuffix(text, "\n") || len(lines) < 3 {
		return c, errors.New("the checkpoint has fewer than three lines")
	}
	c.origin = lines[0]
	n, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != lines[1] {
		return c, fmt.Errorf("size %q is not a decimal count", lines[1])
	}
	c.size = n
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != len(c.root) {
		return c, fmt.Errorf("root %q is not a base64 SHA-256 hash", lines[2])
	}
	copy(c.root[:], root)
	c.meters = map[string]*big.Int{}
	for _, line := range lines[3:] {
		f := strings.Split(line, " ")
		switch {
		case len(f) == 2 && f[0] == "currency":
			c.currency = f[1]
		case len(f) == 2:
			x, ok := new(big.Int).SetString(f[1], 10)
			if !ok {
				return c, fmt.Errorf("extension line %q", line)
			}
			c.meters[f[0]] = x
		case len(f) == 5 && f[0] == "hit":
			for i, part := range []string{"count", "paid", "fromPool"} {
				x, ok := new(big.Int).SetString(f[2+i], 10)
				if !ok {
					return c, fmt.Errorf("extension line %q", line)
				}
				c.meters["hit "+f[1]+" "+part] = x
			}
		default:
			return c, fmt.Errorf("extension line %q", line)
		}
	}
	return c, nil
}
