// Package ledgerverify checks a pool's ledger against its signed
// checkpoints from the outside (issue 34 item 7, docs/ledger.md): it
// recomputes every leaf and tree head, verifies every checkpoint's
// signature, the consistency between checkpoints and the inclusion of
// entries, and re-derives the meters from the entries' deltas.
//
// It is written from RFC 6962 / RFC 9162, RFC 8785 and the C2SP
// tlog-checkpoint and signed-note specifications alone, and shares no
// code with the service that writes the ledger (no ledgerlog, tlog, note,
// jackpot or pools): a bug of the writer cannot hide in a function both
// use. It imports the standard library and go-json-experiment's jsontext
// (RFC 8785 canonicalization) only.
package ledgerverify

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"sort"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Export is what the verifier checks: one pool's ledger as served, its
// signed checkpoints, the deployment's keys, and what proofs the service
// gave.
type Export struct {
	// Entries are the ledger's entries in seq order, each the JSON of one
	// element of GET /v1/pools/{id}/ledger's "entries" (the floor's
	// derived members "amount" and "proposed" are not part of the leaf
	// and are dropped).
	Entries [][]byte
	// Checkpoints are signed notes (C2SP tlog-checkpoint in a C2SP signed
	// note), in any order.
	Checkpoints []string
	Keys        []Key
	// LeafHashes, when given, are the leaf hashes the store recorded
	// beside each entry, in seq order. They are trusted only as far as
	// they reproduce a signed root: then they say which entry a root
	// mismatch comes from.
	LeafHashes []Hash
	// Consistency are RFC 9162 consistency proofs (Index the older size,
	// Size the newer) and Inclusion inclusion proofs (Index the leaf,
	// seq - 1) as the service answered them; each is checked against the
	// roots the verifier computed itself.
	Consistency, Inclusion []Proof
}

// Proof is an inclusion or consistency proof as the API answers it.
type Proof struct {
	Index  int64    `json:"index"`
	Size   int64    `json:"size"`
	Hashes []string `json:"hashes"`
}

// Mismatch is a failed verification: the first entry (seq) it is about
// and why. A checkpoint's failure names its size, the last seq it signs.
type Mismatch struct {
	Seq    int64
	Reason string
}

func (m *Mismatch) Error() string { return fmt.Sprintf("seq %d: %s", m.Seq, m.Reason) }

// Result is a verified export.
type Result struct {
	Pool        string
	Entries     int64
	Checkpoints int
	// Size and Root are the latest checkpoint's; Unsigned the entries
	// after it (verified for their sequence and meters only).
	Size, Unsigned    int64
	Root              Hash
	Consistency       int
	Inclusion         int
	KeyName, Currency string
}

// Summary is the result on one line.
func (r Result) Summary() string {
	return fmt.Sprintf("ok: pool %s: %d entries, %d checkpoints verified (latest size %d root %s, signed by %s), meters re-derived, %d consistency and %d inclusion proofs verified, %d entries after the latest checkpoint",
		r.Pool, r.Entries, r.Checkpoints, r.Size, base64.StdEncoding.EncodeToString(r.Root[:]), r.KeyName, r.Consistency, r.Inclusion, r.Unsigned)
}

// Leaf returns an entry's leaf bytes: the RFC 8785 canonical JSON of the
// entry as served, without the derived members "amount" and "proposed".
// Integers keep every digit (docs/ledger.md; for integers up to 2^53
// these are RFC 8785's bytes).
func Leaf(served []byte) ([]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(served))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	tok, err := dec.ReadToken()
	if err != nil || tok.Kind() != '{' {
		return nil, errors.New("the entry is not a JSON object")
	}
	if err := enc.WriteToken(jsontext.BeginObject); err != nil {
		return nil, err
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String() // copied: the token is valid until the next read only
		v, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		if name == "amount" || name == "proposed" {
			continue
		}
		if err := enc.WriteToken(jsontext.String(name)); err != nil {
			return nil, err
		}
		if err := enc.WriteValue(v); err != nil {
			return nil, err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, errors.New("the entry has trailing data")
	}
	if err := enc.WriteToken(jsontext.EndObject); err != nil {
		return nil, err
	}
	v := jsontext.Value(bytes.TrimSpace(out.Bytes()))
	if err := v.Canonicalize(jsontext.CanonicalizeRawInts(false)); err != nil {
		return nil, err
	}
	return v, nil
}

// entry is what the verifier reads of an entry besides its bytes: its
// place and its meter deltas (docs/ledger.md, "Meters").
type entry struct {
	Pool     string `json:"pool"`
	Seq      int64  `json:"seq"`
	Kind     string `json:"kind"`
	Category string `json:"category"`
	Paid     int64  `json:"paid"`
	// The deltas summed into the meter of the same name.
	Displayed          int64 `json:"displayed"`
	Reserve            int64 `json:"reserve"`
	Overflow           int64 `json:"overflow"`
	CarryDisplayed     int64 `json:"carryDisplayed"`
	CarryReserve       int64 `json:"carryReserve"`
	Wagers             int64 `json:"wagers"`
	WagerAmount        int64 `json:"wagerAmount"`
	RateSum            int64 `json:"rateSum"`
	RateSumReserve     int64 `json:"rateSumReserve"`
	Contributed        int64 `json:"contributed"`
	ContributedReserve int64 `json:"contributedReserve"`
	HouseFunded        int64 `json:"houseFunded"`
}

// meters are the sums the checkpoints' extension lines record, exact.
type meters map[string]*big.Int

func (m meters) add(name string, v int64) {
	if v == 0 {
		return
	}
	x, ok := m[name]
	if !ok {
		x = new(big.Int)
		m[name] = x
	}
	x.Add(x, big.NewInt(v))
}

// apply adds one entry's deltas: every meter field to the meter of its
// name; a hit counts one in its category with its paid and its pool part
// (-displayed); a hit_void or house_recovery takes one back; a reset
// counts one, a reset_void takes it back.
func (m meters) apply(e entry) {
	for name, v := range map[string]int64{
		"displayed": e.Displayed, "reserve": e.Reserve, "overflow": e.Overflow,
		"carryDisplayed": e.CarryDisplayed, "carryReserve": e.CarryReserve,
		"wagers": e.Wagers, "wagerAmount": e.WagerAmount,
		"contributed": e.Contributed, "contributedReserve": e.ContributedReserve,
		"houseFunded": e.HouseFunded, "rateSum": e.RateSum, "rateSumReserve": e.RateSumReserve,
	} {
		m.add(name, v)
	}
	hit := "hit " + e.Category + " "
	switch e.Kind {
	case "hit":
		m.add(hit+"count", 1)
		m.add(hit+"paid", e.Paid)
		m.add(hit+"fromPool", -e.Displayed)
	case "hit_void", "house_recovery":
		m.add(hit+"count", -1)
		m.add(hit+"paid", -e.Paid)
		m.add(hit+"fromPool", -e.Displayed)
	case "reset":
		m.add("resets", 1)
	case "reset_void":
		m.add("resets", -1)
	}
}

// differ names the first meter (in name order) on which m and the
// checkpoint's lines differ, a missing one counting as zero.
func (m meters) differ(c meters) string {
	names := map[string]bool{}
	for k := range m {
		names[k] = true
	}
	for k := range c {
		names[k] = true
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	zero := new(big.Int)
	for _, k := range sorted {
		a, b := m[k], c[k]
		if a == nil {
			a = zero
		}
		if b == nil {
			b = zero
		}
		if a.Cmp(b) != 0 {
			return fmt.Sprintf("%s: the entries sum to %s, the checkpoint records %s", k, a, b)
		}
	}
	return ""
}

// signed is a verified checkpoint.
type signed struct {
	checkpoint
	key string
}

// Verify checks x and returns its summary, or the first Mismatch (the
// lowest seq) it finds, or an error about the export itself (no entries,
// no checkpoint, an unreadable key).
func Verify(x Export) (Result, error) {
	var res Result
	keys := make([]verifier, 0, len(x.Keys))
	for _, k := range x.Keys {
		v, err := parseKey(k)
		if err != nil {
			return res, err
		}
		keys = append(keys, v)
	}
	if len(keys) == 0 {
		return res, errors.New("no verifier key: nothing can be verified")
	}
	if len(x.Checkpoints) == 0 {
		return res, errors.New("no checkpoint: nothing signs the entries")
	}
	var cps []signed
	var first *Mismatch
	fail := func(seq int64, format string, args ...any) {
		if first == nil || seq < first.Seq {
			first = &Mismatch{Seq: seq, Reason: fmt.Sprintf(format, args...)}
		}
	}
	for _, n := range x.Checkpoints {
		// A checkpoint that does not open is named by the size its text
		// claims, when it can be read.
		size := int64(0)
		if lines := strings.SplitN(n, "\n", 3); len(lines) == 3 {
			fmt.Sscan(lines[1], &size)
		}
		text, k, err := openNote([]byte(n), keys)
		if err != nil {
			fail(size, "the checkpoint of size %d: %v", size, err)
			continue
		}
		c, err := parseCheckpoint(text)
		if err != nil {
			fail(size, "the checkpoint of size %d: %v", size, err)
			continue
		}
		if !strings.HasPrefix(c.origin, k.origin) || c.origin == k.origin {
			fail(c.size, "the checkpoint of size %d has origin %q, which key %s does not sign (it signs %q followed by a pool id)", c.size, c.origin, k.name, k.origin)
			continue
		}
		cps = append(cps, signed{checkpoint: c, key: k.name})
	}
	sort.Slice(cps, func(i, j int) bool { return cps[i].size < cps[j].size })
	for i := 1; i < len(cps); i++ {
		if cps[i].origin != cps[0].origin {
			fail(cps[i].size, "the checkpoint of size %d is of origin %q, not %q: two logs in one export", cps[i].size, cps[i].origin, cps[0].origin)
		}
		if cps[i].size == cps[i-1].size && cps[i].root != cps[i-1].root {
			fail(cps[i].size, "two checkpoints of size %d sign different roots: the log forked", cps[i].size)
		}
	}
	if len(cps) > 0 {
		o := cps[0].origin
		res.Pool = o[strings.LastIndex(o, "/")+1:]
		res.Currency = cps[len(cps)-1].currency
	}

	// The entries, in order, against each checkpoint as its size is reached.
	var tree, recorded Tree
	leaves := make([]Hash, 0, len(x.Entries))
	m := meters{}
	// roots are the signed roots by size, of the checkpoints that verify:
	// the service's proofs are checked against them.
	roots := map[int64]Hash{0: RootOf(nil)}
	for _, c := range cps {
		roots[c.size] = c.root
	}
	next, prev := 0, int64(0) // the next checkpoint; the size of the last verified
	for i, line := range x.Entries {
		seq := int64(i + 1)
		leaf, err := Leaf(line)
		if err != nil {
			fail(seq, "line %d is not a JSON object: %v", seq, err)
			break
		}
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			fail(seq, "line %d: %v", seq, err)
			break
		}
		if e.Seq != seq {
			fail(seq, "line %d holds the entry of seq %d: entries are missing, repeated or out of order", seq, e.Seq)
		}
		if res.Pool != "" && e.Pool != res.Pool {
			fail(seq, "the entry is of pool %q, the checkpoints of pool %q", e.Pool, res.Pool)
		}
		m.apply(e)
		lh := LeafHash(leaf)
		leaves = append(leaves, lh)
		tree.Append(lh)
		if len(x.LeafHashes) == len(x.Entries) {
			recorded.Append(x.LeafHashes[i])
		}
		for ; next < len(cps) && cps[next].size == seq; next++ {
			c := cps[next]
			if tree.Root() != c.root {
				seq, why := locate(prev, c, leaves, x.LeafHashes, recorded)
				fail(seq, "%s", why)
				continue
			}
			if d := m.differ(c.meters); d != "" {
				fail(prev+1, "the meters the checkpoint of size %d signs are not the sum of entries 1 to %d (%s); the entries %d to %d are signed as they are, so the writer summed them wrong", c.size, c.size, d, prev+1, c.size)
			}
			prev = c.size
		}
	}
	for ; next < len(cps); next++ {
		if c := cps[next]; c.size == 0 {
			if c.root != RootOf(nil) {
				fail(0, "the checkpoint of size 0 signs a root that is not the empty tree's")
			}
		} else if int64(len(x.Entries)) < c.size {
			fail(int64(len(x.Entries))+1, "entry missing: the checkpoint of size %d signs %d entries, the ledger has %d", c.size, c.size, len(x.Entries))
		}
	}
	// The service's proofs: each leads from the leaves hashed here to the
	// signed roots.
	for _, p := range x.Consistency {
		r1, ok1 := roots[p.Index]
		r2, ok2 := roots[p.Size]
		if !ok1 || !ok2 {
			fail(p.Index+1, "a consistency proof from %d to %d is not between two checkpoints' sizes", p.Index, p.Size)
			continue
		}
		hs, err := decodeHashes(p.Hashes)
		if err == nil {
			err = VerifyConsistency(p.Index, p.Size, r1, r2, hs)
		}
		if err != nil {
			fail(p.Index+1, "the checkpoints of sizes %d and %d: %v", p.Index, p.Size, err)
			continue
		}
		res.Consistency++
	}
	for _, p := range x.Inclusion {
		root, ok := roots[p.Size]
		if !ok || p.Index < 0 || p.Index >= int64(len(leaves)) {
			fail(p.Index+1, "an inclusion proof of leaf %d in size %d is not in a checkpoint's tree", p.Index, p.Size)
			continue
		}
		hs, err := decodeHashes(p.Hashes)
		if err == nil {
			err = VerifyInclusion(p.Index, p.Size, leaves[p.Index], hs, root)
		}
		if err != nil {
			fail(p.Index+1, "its inclusion proof in the checkpoint of size %d: %v", p.Size, err)
			continue
		}
		res.Inclusion++
	}
	if first != nil {
		return res, first
	}
	latest := cps[len(cps)-1]
	res.Entries, res.Checkpoints, res.Size, res.Root, res.KeyName = int64(len(x.Entries)), len(cps), latest.size, latest.root, latest.key
	res.Unsigned = res.Entries - latest.size
	return res, nil
}

// locate names the entry a root mismatch at checkpoint c comes from: the
// first leaf after prev (the last verified size) whose hash is not the
// store's recorded one, when the recorded ones reproduce c's signed root
// (so they are the ones signed); otherwise the range after prev.
func locate(prev int64, c signed, leaves, recorded []Hash, rt Tree) (int64, string) {
	if rt.Size() == c.size && rt.Root() == c.root {
		for i := prev; i < c.size; i++ {
			if leaves[i] != recorded[i] {
				return i + 1, fmt.Sprintf("the entry is not the one the checkpoint of size %d signed (its leaf hash is %x, the signed tree's is %x): it was changed after it was written", c.size, leaves[i], recorded[i])
			}
		}
	}
	return prev + 1, fmt.Sprintf("the root of entries 1 to %d is not the one the checkpoint of size %d signed: an entry from %d to %d was changed, removed or reordered after it was written", c.size, c.size, prev+1, c.size)
}

func decodeHashes(in []string) ([]Hash, error) {
	out := make([]Hash, len(in))
	for i, s := range in {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(b) != len(out[i]) {
			return nil, fmt.Errorf("proof hash %d is not a base64 SHA-256 hash", i)
		}
		copy(out[i][:], b)
	}
	return out, nil
}
