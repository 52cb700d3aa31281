// Package ledgerlog makes a pool's ledger a Merkle log (issue 34 item 1):
// the tamper-evident log of RFC 6962 / RFC 9162 that the Go checksum
// database keeps with golang.org/x/mod/sumdb/tlog. Leaf i (0-based) is
// the entry with seq i+1; its bytes are the entry's canonical JSON
// (Leaf); leaf and node hashes are RFC 6962 §2.1's (tlog.RecordHash,
// tlog.NodeHash). The package writes no tree code: it says which bytes a
// leaf is, which tlog stored hashes each entry adds (Append) and which
// entry keeps a given stored hash (Owner). The stores keep each entry's
// stored hashes with the entry, written in the same transaction, so that
// appending reads O(log n) hashes and never the history. docs/ledger.md
// specifies the format.
package ledgerlog

import (
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// encodeOptions are the API's answer options (internal/apijson's
// EncodeOptions: the entry's fields as GET /v1/pools/{id}/ledger serves
// them, absent ones omitted); the leaf is their output canonicalized.
// They are repeated here rather than imported because apijson is an HTTP
// package (huma) and this one is pure; TestLeafIsServedEntry checks that
// the two agree.
var encodeOptions = json.JoinOptions(
	jsonv1.OmitEmptyWithLegacySemantics(true),
	json.FormatNilSliceAsNull(true),
	json.FormatNilMapAsNull(true),
	json.Deterministic(true),
	jsontext.EscapeForHTML(false),
	jsontext.EscapeForJS(false),
)

// Leaf returns entry e's leaf bytes: the RFC 8785 (JCS) canonical JSON of
// e as the ledger serves it (the entry's own fields; the floor page's
// derived annotations "amount" and "proposed" are not part of it). One
// deviation from RFC 8785, which reads every number as an IEEE 754
// double: an integer keeps all its digits (jsontext.CanonicalizeRawInts
// false), so that two amounts beyond 2^53 minor units never share a leaf.
// For every integer of magnitude up to 2^53 the bytes are RFC 8785's.
func Leaf(e jackpot.Entry) ([]byte, error) {
	b, err := json.Marshal(e, encodeOptions)
	if err != nil {
		return nil, fmt.Errorf("leaf of entry %d: %w", e.Seq, err)
	}
	v := jsontext.Value(b)
	if err := v.Canonicalize(jsontext.CanonicalizeRawInts(false)); err != nil {
		return nil, fmt.Errorf("leaf of entry %d: %w", e.Seq, err)
	}
	return v, nil
}

// LeafHash returns the RFC 6962 leaf hash of entry e:
// SHA-256(0x00 || Leaf(e)).
func LeafHash(e jackpot.Entry) (tlog.Hash, error) {
	b, err := Leaf(e)
	if err != nil {
		return tlog.Hash{}, err
	}
	return tlog.RecordHash(b), nil
}

// Append returns, for entries with seq size+1 ... size+len(entries)
// (consecutive: checked, an error otherwise), the tlog stored hashes each
// entry adds: out[i] = tlog.StoredHashes(size+i, Leaf(entries[i]), r')
// where r' reads the hashes added by earlier entries of the same call
// from out and the rest through r. It reads O(log n) hashes through r,
// never the history.
func Append(r tlog.HashReader, size int64, entries []jackpot.Entry) ([][]tlog.Hash, error) {
	if size < 0 {
		return nil, fmt.Errorf("ledger log: size %d is negative", size)
	}
	out := make([][]tlog.Hash, 0, len(entries))
	first := tlog.StoredHashIndex(0, size) // the first index this call adds
	rr := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		hs := make([]tlog.Hash, len(indexes))
		var older []int64
		var at []int
		for k, i := range indexes {
			if i < first {
				older, at = append(older, i), append(at, k)
				continue
			}
			seq, pos := Owner(i)
			j := seq - 1 - size
			if j < 0 || j >= int64(len(out)) || pos >= len(out[j]) {
				return nil, fmt.Errorf("ledger log: stored hash %d is not written yet", i)
			}
			hs[k] = out[j][pos]
		}
		if len(older) > 0 {
			got, err := r.ReadHashes(older)
			if err != nil {
				return nil, err
			}
			if len(got) != len(older) {
				return nil, fmt.Errorf("ledger log: read %d stored hashes for %d indexes", len(got), len(older))
			}
			for k, h := range got {
				hs[at[k]] = h
			}
		}
		return hs, nil
	})
	for i, e := range entries {
		n := size + int64(i)
		if e.Seq != n+1 {
			return nil, fmt.Errorf("ledger log: entry %d of the append has seq %d, want %d (entries are consecutive after size %d)", i, e.Seq, n+1, size)
		}
		b, err := Leaf(e)
		if err != nil {
			return nil, err
		}
		hs, err := tlog.StoredHashes(n, b, rr)
		if err != nil {
			return nil, fmt.Errorf("ledger log: stored hashes of entry %d: %w", e.Seq, err)
		}
		out = append(out, hs)
	}
	return out, nil
}

// Owner returns, for a tlog storage index, the 1-based seq of the entry
// that stores it and its position in that entry's list:
// level, n := tlog.SplitStoredHashIndex(index); seq = (n+1)<<level;
// position = level.
func Owner(index int64) (seq int64, position int) {
	level, n := tlog.SplitStoredHashIndex(index)
	return (n + 1) << level, level
}

// Pack returns hashes concatenated, 32 bytes each: how a store keeps an
// entry's stored hashes in one column or attribute.
func Pack(hashes []tlog.Hash) []byte {
	b := make([]byte, 0, len(hashes)*tlog.HashSize)
	for _, h := range hashes {
		b = append(b, h[:]...)
	}
	return b
}

// Unpack splits what Pack wrote back into hashes.
func Unpack(b []byte) ([]tlog.Hash, error) {
	if len(b)%tlog.HashSize != 0 {
		return nil, fmt.Errorf("ledger log: %d bytes of stored hashes are not a whole number of %d-byte hashes", len(b), tlog.HashSize)
	}
	hs := make([]tlog.Hash, len(b)/tlog.HashSize)
	for i := range hs {
		copy(hs[i][:], b[i*tlog.HashSize:])
	}
	return hs, nil
}
