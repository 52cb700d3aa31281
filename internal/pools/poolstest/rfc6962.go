package poolstest

// An independent verifier of the ledger's Merkle log, written from RFC
// 8785 (JCS), RFC 6962 §2.1 and RFC 9162 §2.1.3-2.1.4 alone: it imports
// neither golang.org/x/mod/sumdb/tlog nor internal/ledgerlog and shares
// no code with the writer (issue 34, must hold: "an independent verifier
// built from the RFCs alone accepts every checkpoint and proof, and its
// root equals the checkpoint's"). It reads the ledger as the API serves
// it: JSON bytes.

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf16"
)

// rfcLeaf is the leaf bytes of one served ledger element (a JSON object):
// the object without the floor page's annotations "amount" and
// "proposed" (docs/ledger.md), in RFC 8785 canonical form.
func rfcLeaf(served []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(served))
	d.UseNumber()
	var v map[string]any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	delete(v, "amount")
	delete(v, "proposed")
	var b bytes.Buffer
	if err := jcs(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// jcs writes v in RFC 8785 form: no whitespace, object members sorted by
// their names' UTF-16 code units, strings with the minimal escapes of
// RFC 8785 §3.2.2.2, integers as their decimal digits (the ledger holds
// no fractions; docs/ledger.md: integers keep every digit).
func jcs(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case json.Number:
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return fmt.Errorf("number %s is not an integer", v)
		}
		b.WriteString(strconv.FormatInt(n, 10))
	case string:
		jcsString(b, v)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := jcs(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		names := make([]string, 0, len(v))
		for k := range v {
			names = append(names, k)
		}
		sort.Slice(names, func(i, j int) bool {
			a, c := utf16.Encode([]rune(names[i])), utf16.Encode([]rune(names[j]))
			for k := 0; k < len(a) && k < len(c); k++ {
				if a[k] != c[k] {
					return a[k] < c[k]
				}
			}
			return len(a) < len(c)
		})
		b.WriteByte('{')
		for i, k := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			jcsString(b, k)
			b.WriteByte(':')
			if err := jcs(b, v[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("unexpected JSON value %T", v)
	}
	return nil
}

func jcsString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

type rfcHash = [32]byte

// rfcLeafHash is RFC 6962 §2.1's leaf hash: SHA-256(0x00 || leaf).
func rfcLeafHash(leaf []byte) rfcHash {
	return sha256.Sum256(append([]byte{0}, leaf...))
}

// rfcNode is RFC 6962 §2.1's interior node: SHA-256(0x01 || l || r).
func rfcNode(l, r rfcHash) rfcHash {
	return sha256.Sum256(append(append([]byte{1}, l[:]...), r[:]...))
}

// rfcRoot is MTH(D[n]) of leaf hashes, by RFC 6962 §2.1's recursion:
// split at the largest power of two smaller than n.
func rfcRoot(leaves []rfcHash) rfcHash {
	switch n := len(leaves); n {
	case 0:
		return sha256.Sum256(nil)
	case 1:
		return leaves[0]
	default:
		k := 1
		for k*2 < n {
			k *= 2
		}
		return rfcNode(rfcRoot(leaves[:k]), rfcRoot(leaves[k:]))
	}
}

// rfcVerifyInclusion checks an inclusion proof of the leaf at index (0-based)
// in a tree of size against root, by RFC 9162 §2.1.3.2.
func rfcVerifyInclusion(index, size int64, leaf rfcHash, proof []rfcHash, root rfcHash) error {
	if index >= size {
		return errors.New("index past the tree")
	}
	fn, sn := index, size-1
	r := leaf
	for _, p := range proof {
		if sn == 0 {
			return errors.New("proof too long")
		}
		if fn&1 == 1 || fn == sn {
			r = rfcNode(p, r)
			for fn&1 == 0 && fn != 0 {
				fn >>= 1
				sn >>= 1
			}
		} else {
			r = rfcNode(r, p)
		}
		fn >>= 1
		sn >>= 1
	}
	if sn != 0 {
		return errors.New("proof too short")
	}
	if r != root {
		return errors.New("the proof does not lead to the root")
	}
	return nil
}

// rfcVerifyConsistency checks a consistency proof between a tree of size
// first with root firstRoot and one of size second with root secondRoot,
// by RFC 9162 §2.1.4.2.
func rfcVerifyConsistency(first, second int64, proof []rfcHash, firstRoot, secondRoot rfcHash) error {
	if first > second {
		return errors.New("first after second")
	}
	if first == second {
		if len(proof) != 0 || firstRoot != secondRoot {
			return errors.New("equal sizes need an empty proof and equal roots")
		}
		return nil
	}
	if first == 0 {
		return errors.New("a tree of size 0 proves nothing")
	}
	if len(proof) == 0 {
		return errors.New("empty proof")
	}
	if first&(first-1) == 0 { // a power of two: prepend first_hash
		proof = append([]rfcHash{firstRoot}, proof...)
	}
	fn, sn := first-1, second-1
	for fn&1 == 1 {
		fn >>= 1
		sn >>= 1
	}
	fr, sr := proof[0], proof[0]
	for _, c := range proof[1:] {
		if sn == 0 {
			return errors.New("proof too long")
		}
		if fn&1 == 1 || fn == sn {
			fr = rfcNode(c, fr)
			sr = rfcNode(c, sr)
			for fn&1 == 0 && fn != 0 {
				fn >>= 1
				sn >>= 1
			}
		} else {
			sr = rfcNode(sr, c)
		}
		fn >>= 1
		sn >>= 1
	}
	if sn != 0 {
		return errors.New("proof too short")
	}
	if fr != firstRoot || sr != secondRoot {
		return errors.New("the proof does not lead to both roots")
	}
	return nil
}
