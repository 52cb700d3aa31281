package ledgerverify

import (
	"crypto/sha256"
	"errors"
	"fmt"
)

// Hash is a SHA-256 hash: a leaf, a node or a tree head.
type Hash [sha256.Size]byte

// LeafHash is RFC 6962 §2.1's leaf hash: SHA-256(0x00 || leaf).
func LeafHash(leaf []byte) Hash {
	h := sha256.New()
	h.Write([]byte{0x00})
	h.Write(leaf)
	var out Hash
	h.Sum(out[:0])
	return out
}

// NodeHash is RFC 6962 §2.1's interior node hash:
// SHA-256(0x01 || left || right).
func NodeHash(left, right Hash) Hash {
	var b [1 + 2*sha256.Size]byte
	b[0] = 0x01
	copy(b[1:], left[:])
	copy(b[1+sha256.Size:], right[:])
	return sha256.Sum256(b[:])
}

// RootOf is RFC 6962 §2.1's Merkle Tree Hash of the leaf hashes, written
// as the RFC states it: the empty tree's is SHA-256 of nothing; one leaf's
// is its leaf hash; n > 1 leaves split at k, the largest power of two
// smaller than n, into MTH(D[0:k]) and MTH(D[k:n]). It is the reference
// the incremental Tree is tested against.
func RootOf(leaves []Hash) Hash {
	switch n := len(leaves); n {
	case 0:
		return sha256.Sum256(nil)
	case 1:
		return leaves[0]
	default:
		k := 1
		for k<<1 < n {
			k <<= 1
		}
		return NodeHash(RootOf(leaves[:k]), RootOf(leaves[k:]))
	}
}

// Tree is a Merkle tree grown one leaf at a time, keeping only the roots
// of its perfect subtrees, largest (leftmost) first: the binary
// decomposition of its size. Its root is those subtrees folded from the
// right, which is RFC 6962's MTH because MTH splits at the largest power
// of two below the size. Appending costs O(log n) hashes and the root
// O(log n): the verifier reads n entries in O(n log n).
type Tree struct {
	size  int64
	peaks []Hash
	// heights[i] is the height of peaks[i] (2^height leaves).
	heights []int
}

// Size is the number of leaves appended.
func (t *Tree) Size() int64 { return t.size }

// Append adds a leaf hash.
func (t *Tree) Append(leaf Hash) {
	t.peaks = append(t.peaks, leaf)
	t.heights = append(t.heights, 0)
	for n := len(t.peaks); n >= 2 && t.heights[n-1] == t.heights[n-2]; n = len(t.peaks) {
		merged := NodeHash(t.peaks[n-2], t.peaks[n-1])
		t.peaks = append(t.peaks[:n-2], merged)
		h := t.heights[n-2] + 1
		t.heights = append(t.heights[:n-2], h)
	}
	t.size++
}

// Root is the tree's Merkle Tree Hash.
func (t *Tree) Root() Hash {
	if len(t.peaks) == 0 {
		return sha256.Sum256(nil)
	}
	r := t.peaks[len(t.peaks)-1]
	for i := len(t.peaks) - 2; i >= 0; i-- {
		r = NodeHash(t.peaks[i], r)
	}
	return r
}

// VerifyInclusion checks an RFC 9162 §2.1.3.2 inclusion proof: that the
// leaf hash at index is in the tree of size whose root is root.
func VerifyInclusion(index, size int64, leaf Hash, path []Hash, root Hash) error {
	if index < 0 || index >= size {
		return fmt.Errorf("inclusion: leaf index %d is not below the tree size %d", index, size)
	}
	fn, sn, r := index, size-1, leaf
	for _, p := range path {
		if sn == 0 {
			return errors.New("inclusion: the proof is longer than the tree is deep")
		}
		if fn&1 == 1 || fn == sn {
			r = NodeHash(p, r)
			if fn&1 == 0 {
				for fn&1 == 0 && fn != 0 {
					fn >>= 1
					sn >>= 1
				}
			}
		} else {
			r = NodeHash(r, p)
		}
		fn >>= 1
		sn >>= 1
	}
	if sn != 0 {
		return errors.New("inclusion: the proof is shorter than the tree is deep")
	}
	if r != root {
		return errors.New("inclusion: the proof does not lead to the root")
	}
	return nil
}

// VerifyConsistency checks an RFC 9162 §2.1.4.2 consistency proof: that
// the tree of size first with root firstRoot is a prefix of the tree of
// size second with root secondRoot. Equal sizes need an empty proof and
// equal roots; an empty first tree is a prefix of every tree.
func VerifyConsistency(first, second int64, firstRoot, secondRoot Hash, path []Hash) error {
	switch {
	case first < 0 || second < first:
		return fmt.Errorf("consistency: sizes %d and %d are not in order", first, second)
	case first == second:
		if len(path) != 0 {
			return errors.New("consistency: a proof between equal sizes must be empty")
		}
		if firstRoot != secondRoot {
			return errors.New("consistency: two roots at the same size differ")
		}
		return nil
	case first == 0:
		if len(path) != 0 {
			return errors.New("consistency: a proof from the empty tree must be empty")
		}
		return nil
	case len(path) == 0:
		return errors.New("consistency: the proof is empty")
	}
	// Step 2: a first tree of a power-of-two size is itself a node of the
	// second; its root begins the path.
	if first&(first-1) == 0 {
		path = append([]Hash{firstRoot}, path...)
	}
	fn, sn := first-1, second-1
	for fn&1 == 1 {
		fn >>= 1
		sn >>= 1
	}
	fr, sr := path[0], path[0]
	for _, c := range path[1:] {
		if sn == 0 {
			return errors.New("consistency: the proof is longer than the tree is deep")
		}
		if fn&1 == 1 || fn == sn {
			fr = NodeHash(c, fr)
			sr = NodeHash(c, sr)
			if fn&1 == 0 {
				for fn&1 == 0 && fn != 0 {
					fn >>= 1
					sn >>= 1
				}
			}
		} else {
			sr = NodeHash(sr, c)
		}
		fn >>= 1
		sn >>= 1
	}
	if sn != 0 {
		return errors.New("consistency: the proof is shorter than the tree is deep")
	}
	if fr != firstRoot {
		return errors.New("consistency: the proof does not lead to the older root")
	}
	if sr != secondRoot {
		return errors.New("consistency: the proof does not lead to the newer root")
	}
	return nil
}
