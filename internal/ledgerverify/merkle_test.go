package ledgerverify

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"
)

type vectors struct {
	Leaves    []string `json:"leaves"`
	Roots     []string `json:"roots"`
	Inclusion []struct {
		Leaf, Size int64
		Proof      []string
	} `json:"inclusion"`
	Consistency []struct {
		Size1, Size2 int64
		Proof        []string
	} `json:"consistency"`
}

func hexHash(t *testing.T, s string) Hash {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("hash %q", s)
	}
	var h Hash
	copy(h[:], b)
	return h
}

func loadVectors(t *testing.T) (vectors, []Hash) {
	t.Helper()
	b, err := os.ReadFile("testdata/rfc6962-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var leaves []Hash
	for _, l := range v.Leaves {
		b, _ := hex.DecodeString(l)
		leaves = append(leaves, LeafHash(b))
	}
	return v, leaves
}

func hashes(t *testing.T, in []string) []Hash {
	out := make([]Hash, len(in))
	for i, s := range in {
		out[i] = hexHash(t, s)
	}
	return out
}

// TestRootsRFC6962Vectors: the roots of 0 to 8 leaves, from the recursive
// MTH and from the incremental Tree, are the published vectors' (issue
// 34 item 7, "an independent verifier built from the RFCs alone").
func TestRootsRFC6962Vectors(t *testing.T) {
	v, leaves := loadVectors(t)
	var tree Tree
	for n := 0; n <= len(leaves); n++ {
		want := hexHash(t, v.Roots[n])
		if got := RootOf(leaves[:n]); got != want {
			t.Errorf("MTH of %d leaves = %x, want %x", n, got, want)
		}
		if got := tree.Root(); got != want {
			t.Errorf("Tree of %d leaves = %x, want %x", n, got, want)
		}
		if n < len(leaves) {
			tree.Append(leaves[n])
		}
	}
}

// TestTreeAgreesWithMTH: the incremental tree's root is the RFC's
// recursive MTH at every size up to 300.
func TestTreeAgreesWithMTH(t *testing.T) {
	var tree Tree
	var leaves []Hash
	for n := 0; n < 300; n++ {
		if got, want := tree.Root(), RootOf(leaves); got != want {
			t.Fatalf("size %d: %x, want %x", n, got, want)
		}
		h := LeafHash([]byte{byte(n), byte(n >> 8)})
		leaves = append(leaves, h)
		tree.Append(h)
	}
}

// TestInclusionRFC6962Vectors: the published inclusion proofs verify, and
// every one-bit change of them, a wrong index, size, leaf or root, or a
// hash added or removed, does not.
func TestInclusionRFC6962Vectors(t *testing.T) {
	v, leaves := loadVectors(t)
	for _, c := range v.Inclusion {
		root, path, leaf := hexHash(t, v.Roots[c.Size]), hashes(t, c.Proof), leaves[c.Leaf-1]
		if err := VerifyInclusion(c.Leaf-1, c.Size, leaf, path, root); err != nil {
			t.Errorf("leaf %d size %d: %v", c.Leaf, c.Size, err)
		}
		bad := map[string]func() error{
			"index-1": func() error { return VerifyInclusion(c.Leaf-2, c.Size, leaf, path, root) },
			"index+1": func() error { return VerifyInclusion(c.Leaf, c.Size, leaf, path, root) },
			"size*2":  func() error { return VerifyInclusion(c.Leaf-1, c.Size*2, leaf, path, root) },
			"size/2":  func() error { return VerifyInclusion(c.Leaf-1, c.Size/2, leaf, path, root) },
			"leaf":    func() error { return VerifyInclusion(c.Leaf-1, c.Size, LeafHash([]byte("x")), path, root) },
			"root":    func() error { return VerifyInclusion(c.Leaf-1, c.Size, leaf, path, RootOf(nil)) },
			"trailing": func() error {
				return VerifyInclusion(c.Leaf-1, c.Size, leaf, append(append([]Hash{}, path...), root), root)
			},
			"leading": func() error { return VerifyInclusion(c.Leaf-1, c.Size, leaf, append([]Hash{root}, path...), root) },
			"short":   func() error { return VerifyInclusion(c.Leaf-1, c.Size, leaf, path[:len(path)-1], root) },
		}
		for i := range path {
			bad["bit of hash "+string(rune('0'+i))] = func() error {
				p := append([]Hash{}, path...)
				p[i][0] ^= 8
				return VerifyInclusion(c.Leaf-1, c.Size, leaf, p, root)
			}
		}
		for name, f := range bad {
			if f() == nil {
				t.Errorf("leaf %d size %d: %s verified", c.Leaf, c.Size, name)
			}
		}
	}
}

// TestConsistencyRFC6962Vectors: the published consistency proofs verify;
// changed ones, swapped roots and wrong sizes do not.
func TestConsistencyRFC6962Vectors(t *testing.T) {
	v, _ := loadVectors(t)
	for _, c := range v.Consistency {
		r1, r2, path := hexHash(t, v.Roots[c.Size1]), hexHash(t, v.Roots[c.Size2]), hashes(t, c.Proof)
		if err := VerifyConsistency(c.Size1, c.Size2, r1, r2, path); err != nil {
			t.Errorf("%d to %d: %v", c.Size1, c.Size2, err)
		}
		bad := map[string]func() error{
			"size1-1": func() error { return VerifyConsistency(c.Size1-1, c.Size2, r1, r2, path) },
			"size1+1": func() error { return VerifyConsistency(c.Size1+1, c.Size2, r1, r2, path) },
			"size2*2": func() error { return VerifyConsistency(c.Size1, c.Size2*2, r1, r2, path) },
			"swapped": func() error { return VerifyConsistency(c.Size1, c.Size2, r2, r1, path) },
			"empty":   func() error { return VerifyConsistency(c.Size1, c.Size2, r1, r2, nil) },
			"trailing": func() error {
				return VerifyConsistency(c.Size1, c.Size2, r1, r2, append(append([]Hash{}, path...), r1))
			},
			"short": func() error { return VerifyConsistency(c.Size1, c.Size2, r1, r2, path[:len(path)-1]) },
		}
		for i := range path {
			bad["bit of hash "+string(rune('0'+i))] = func() error {
				p := append([]Hash{}, path...)
				p[i][0] ^= 16
				return VerifyConsistency(c.Size1, c.Size2, r1, r2, p)
			}
		}
		for name, f := range bad {
			if f() == nil {
				t.Errorf("%d to %d: %s verified", c.Size1, c.Size2, name)
			}
		}
	}
	if VerifyConsistency(3, 3, hexHash(t, v.Roots[3]), hexHash(t, v.Roots[3]), nil) != nil {
		t.Error("equal sizes and roots with an empty proof did not verify")
	}
}
