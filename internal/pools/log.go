package pools

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/ledgerlog"
)

// The ledger as a Merkle log (issue 34, docs/ledger.md): tree heads,
// inclusion and consistency proofs through tlog over the store's stored
// hashes, and signed checkpoints, published by writers and the serve
// loop, kept by the store and a witness outside it.

// LogReader is a Store that keeps its pools' ledgers as Merkle logs
// (issue 34 item 1, docs/ledger.md): every Commit computes its new
// entries' tlog stored hashes with ledgerlog.Append over a HashReader
// bound to its own transaction and writes them with the entries, in the
// same row or item. LogHashes reads a pool's Merkle log: the tlog stored
// hashes at the storage indexes asked for (tlog.HashReader semantics, in
// order), from the entries that hold them (ledgerlog.Owner).
type LogReader interface {
	LogHashes(ctx context.Context, pool string, indexes []int64) ([]tlog.Hash, error)
}

// CheckpointStore is a Store that keeps each pool's signed checkpoints.
type CheckpointStore interface {
	// PutCheckpoint keeps pool's signed checkpoint at size; a second at
	// the same size is not kept (the first stands).
	PutCheckpoint(ctx context.Context, pool string, size int64, note []byte) error
	// Checkpoints returns up to limit of pool's checkpoints with a size
	// below before (0: no bound), largest first.
	Checkpoints(ctx context.Context, pool string, before int64, limit int) ([]StoredCheckpoint, error)
}

// StoredCheckpoint is a checkpoint as a store keeps it: its size and its
// signed note.
type StoredCheckpoint struct {
	Size int64
	Note []byte
}

// PoolLister is a Store that lists its pools (the serve loop publishes
// each one's checkpoint).
type PoolLister interface {
	Pools(ctx context.Context) ([]string, error)
}

// Witness keeps every checkpoint somewhere an insider cannot rewrite
// (issue 34 item 5): locally an append-only file beside the database.
type Witness interface {
	Witness(ctx context.Context, c Checkpoint) error
}

// Signing is how a service signs its pools' checkpoints.
type Signing struct {
	// Deployment begins every origin: <deployment>/tablesettle/pools/<id>.
	Deployment string
	Signer     note.Signer
	// Verifiers are every key the deployment has signed with, the
	// current one and those rotated out (GET /v1/ledger/keys).
	Verifiers []note.Verifier
	// Keys are the Verifiers' keys in the signed-note verifier key format.
	Keys []string
	// Witness receives every checkpoint published (nil: none).
	Witness Witness
	// Every is how old a pool's latest checkpoint may be before a writer
	// publishes a new one after its commit (0: one second).
	Every time.Duration

	mu        sync.Mutex
	published map[string]time.Time // by pool: when a writer last published
}

// Checkpoint is a pool's signed checkpoint as the API answers it.
type Checkpoint struct {
	Origin string `json:"origin" doc:"The log's origin, unique to the deployment and the pool: <deployment>/tablesettle/pools/<id>."`
	Pool   string `json:"-"`
	Size   int64  `json:"size" doc:"The number of ledger entries the checkpoint covers: seq 1 to size."`
	Root   string `json:"root" doc:"The RFC 6962 Merkle tree hash of the first size entries, base64."`
	Note   string `json:"note" doc:"The C2SP tlog-checkpoint (origin, size, base64 root, then the pool's meters and exact rate sums at size as extension lines) in a C2SP signed note, Ed25519 (docs/ledger.md)."`
}

// Proof is an RFC 9162 inclusion proof (Index is the leaf: seq - 1) or
// consistency proof (Index is the older tree's size) in a tree of Size.
type Proof struct {
	Index  int64    `json:"index" doc:"Inclusion: the leaf index (seq - 1). Consistency: the older tree's size."`
	Size   int64    `json:"size" doc:"The tree's size the proof is in."`
	Hashes []string `json:"hashes" doc:"The proof's hashes, base64, in RFC 9162 order."`
}

// Key is a verifier key of the deployment's checkpoints.
type Key struct {
	Origin      string `json:"origin" doc:"The origins the key signs: this prefix followed by the pool id."`
	VerifierKey string `json:"verifierKey" doc:"The signed-note verifier key (name+hash+base64 of 0x01 || Ed25519 public key)."`
}

// errNoLog is the refusal of a proof from a store that keeps no log.
var errNoLog = errors.New("this store keeps no Merkle log")

func (s *Service) hashReader(ctx context.Context, id string) (tlog.HashReader, error) {
	lr, ok := s.Store.(LogReader)
	if !ok {
		return nil, unavailable(errNoLog)
	}
	return tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		return lr.LogHashes(ctx, id, indexes)
	}), nil
}

// TreeHead returns the pool's size and the root of its ledger's Merkle
// tree. It writes nothing.
func (s *Service) TreeHead(ctx context.Context, id string) (jackpot.Pool, tlog.Hash, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return jackpot.Pool{}, tlog.Hash{}, err
	}
	r, err := s.hashReader(ctx, id)
	if err != nil {
		return jackpot.Pool{}, tlog.Hash{}, err
	}
	h, err := tlog.TreeHash(p.Seq, r)
	if err != nil {
		return jackpot.Pool{}, tlog.Hash{}, unavailable(err)
	}
	return p, h, nil
}

// sizeOf checks a tree size asked for (0: the pool's) against the pool.
func sizeOf(p jackpot.Pool, size int64, field string) (int64, error) {
	switch {
	case size < 0:
		return 0, invalid(field, "a tree size is 1 or more")
	case size == 0:
		return p.Seq, nil
	case size > p.Seq:
		return 0, invalid(field, "size %d is past the ledger's end: pool %s has %d entries", size, p.ID, p.Seq)
	}
	return size, nil
}

func encodeHashes(hs []tlog.Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = base64.StdEncoding.EncodeToString(h[:])
	}
	return out
}

// InclusionProof proves entry seq in the pool's tree of size (0: its
// current size), RFC 9162 §2.1.3. It writes nothing.
func (s *Service) InclusionProof(ctx context.Context, id string, seq, size int64) (Proof, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return Proof{}, err
	}
	if size, err = sizeOf(p, size, "query.size"); err != nil {
		return Proof{}, err
	}
	if seq < 1 || seq > size {
		return Proof{}, invalid("path.seq", "entry %d is not in the tree of size %d: a seq is 1 to the size", seq, size)
	}
	r, err := s.hashReader(ctx, id)
	if err != nil {
		return Proof{}, err
	}
	pr, err := tlog.ProveRecord(size, seq-1, r)
	if err != nil {
		return Proof{}, unavailable(err)
	}
	return Proof{Index: seq - 1, Size: size, Hashes: encodeHashes(pr)}, nil
}

// ConsistencyProof proves the pool's tree of size from a prefix of its
// tree of size to (0: its current size), RFC 9162 §2.1.4. It writes
// nothing.
func (s *Service) ConsistencyProof(ctx context.Context, id string, from, to int64) (Proof, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return Proof{}, err
	}
	if to, err = sizeOf(p, to, "query.to"); err != nil {
		return Proof{}, err
	}
	if from < 1 || from > to {
		return Proof{}, invalid("query.from", "from %d is not a tree size from 1 to %d (to)", from, to)
	}
	r, err := s.hashReader(ctx, id)
	if err != nil {
		return Proof{}, err
	}
	pr, err := tlog.ProveTree(to, from, r)
	if err != nil {
		return Proof{}, unavailable(err)
	}
	return Proof{Index: from, Size: to, Hashes: encodeHashes(pr)}, nil
}

// Keys lists the deployment's checkpoint verifier keys (none without
// Signing).
func (s *Service) Keys() []Key {
	out := []Key{}
	if s.Signing == nil {
		return out
	}
	for _, k := range s.Signing.Keys {
		out = append(out, Key{Origin: ledgerlog.Origin(s.Signing.Deployment, ""), VerifierKey: k})
	}
	return out
}

func (g *Signing) verifiers() note.Verifiers { return note.VerifierList(g.Verifiers...) }

// LatestCheckpoint answers the pool's latest stored checkpoint. It
// writes nothing: checkpoints are published by writers and the serve
// loop (PublishCheckpoints).
func (s *Service) LatestCheckpoint(ctx context.Context, id string) (Checkpoint, error) {
	if _, err := s.Get(ctx, id); err != nil {
		return Checkpoint{}, err
	}
	cs, ok := s.Store.(CheckpointStore)
	if !ok || s.Signing == nil {
		// Not a failure to retry: this deployment has no signer (or its
		// store keeps no checkpoints).
		return Checkpoint{}, &fault.Error{Kind: fault.NotFound, Detail: "pool " + id + " has no checkpoint: this deployment signs none",
			Fields: []fault.Problem{{Field: "id", Message: "no checkpoint", Value: id}}}
	}
	got, err := cs.Checkpoints(ctx, id, 0, 1)
	if err != nil {
		return Checkpoint{}, unavailable(err)
	}
	if len(got) == 0 {
		return Checkpoint{}, &fault.Error{Kind: fault.NotFound, Detail: "pool " + id + " has no checkpoint yet: one is published within seconds of its first entry",
			Fields: []fault.Problem{{Field: "id", Message: "no checkpoint yet", Value: id}}}
	}
	c, err := ledgerlog.Open(got[0].Note, s.Signing.verifiers())
	if err != nil {
		return Checkpoint{}, fault.Wrap(fault.Internal, err, "the latest checkpoint does not verify")
	}
	return Checkpoint{Origin: c.Origin, Pool: id, Size: c.Size, Root: base64.StdEncoding.EncodeToString(c.Root[:]), Note: string(got[0].Note)}, nil
}

// PublishCheckpoint signs the pool's checkpoint at its current size, and
// keeps it in the store and the witness, unless the latest one is at
// that size already. It writes nothing to the pool or its ledger.
func (s *Service) PublishCheckpoint(ctx context.Context, id string) (Checkpoint, error) {
	g := s.Signing
	cs, ok := s.Store.(CheckpointStore)
	if !ok || g == nil {
		return Checkpoint{}, nil
	}
	p, root, err := s.TreeHead(ctx, id)
	if err != nil {
		return Checkpoint{}, err
	}
	latest, err := cs.Checkpoints(ctx, id, 0, 1)
	if err != nil {
		return Checkpoint{}, unavailable(err)
	}
	if len(latest) == 1 && latest[0].Size >= p.Seq {
		return Checkpoint{Pool: id, Size: latest[0].Size, Note: string(latest[0].Note)}, nil
	}
	c := ledgerlog.CheckpointOf(g.Deployment, p, root)
	msg, err := ledgerlog.Sign(c, g.Signer)
	if err != nil {
		return Checkpoint{}, fault.Wrap(fault.Internal, err, "the checkpoint could not be signed")
	}
	out := Checkpoint{Origin: c.Origin, Pool: id, Size: c.Size, Root: base64.StdEncoding.EncodeToString(root[:]), Note: string(msg)}
	// The witness first: a checkpoint in the store is always outside it too.
	if g.Witness != nil {
		if err := g.Witness.Witness(ctx, out); err != nil {
			return Checkpoint{}, unavailable(err)
		}
	}
	if err := cs.PutCheckpoint(ctx, id, c.Size, msg); err != nil {
		return Checkpoint{}, unavailable(err)
	}
	return out, nil
}

// PublishCheckpoints publishes the checkpoint of every pool with entries
// its latest checkpoint does not cover: the serve loop's step, run at
// least every CheckpointEvery so that the latest checkpoint covers every
// entry committed more than 5 s before a read.
func (s *Service) PublishCheckpoints(ctx context.Context) error {
	pl, ok := s.Store.(PoolLister)
	if !ok || s.Signing == nil {
		return nil
	}
	ids, err := pl.Pools(ctx)
	if err != nil {
		return unavailable(err)
	}
	var errs []error
	for _, id := range ids {
		if _, err := s.PublishCheckpoint(ctx, id); err != nil {
			errs = append(errs, fmt.Errorf("pool %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// CheckpointEvery is how often the serve loop publishes checkpoints: well
// inside the 5 s within which the latest covers every committed entry.
const CheckpointEvery = time.Second

// published notes a writer's commit to pool id: it publishes the pool's
// checkpoint when the last it published is Every old or more. A failure
// is not the commit's: the serve loop publishes it on its next step.
func (s *Service) published(ctx context.Context, id string) {
	g := s.Signing
	if g == nil {
		return
	}
	every := g.Every
	if every <= 0 {
		every = time.Second
	}
	now := s.Now()
	g.mu.Lock()
	last, ok := g.published[id]
	due := !ok || now.Sub(last) >= every
	if due {
		if g.published == nil {
			g.published = map[string]time.Time{}
		}
		g.published[id] = now
	}
	g.mu.Unlock()
	if due {
		s.PublishCheckpoint(context.WithoutCancel(ctx), id)
	}
}

// LogCheck is what the verification of a pool's log found: the
// checkpoint the reconciliation started from, and every problem.
type LogCheck struct {
	From     int64    // the size of the verified checkpoint started from
	Problems []string // each naming the seq (or seqs) at fault
}

// checkLog verifies pool p's log from the latest checkpoint whose
// signature and root verify (all of it when full, or without one): it
// re-derives the stored hashes of every entry after it from the entries
// themselves and names the first entry whose stored hashes differ, and
// names every later checkpoint that does not match the ledger. It
// returns the entries after the base and the base's meters.
func (s *Service) checkLog(ctx context.Context, p jackpot.Pool, full bool) (jackpot.Base, []jackpot.Entry, []string, error) {
	var problems []string
	problem := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	lr, isLog := s.Store.(LogReader)
	var base jackpot.Base
	var bad []ledgerlog.Checkpoint // later checkpoints whose root the stored hashes do not give
	cs, ok := s.Store.(CheckpointStore)
	if ok && s.Signing != nil && isLog {
		r, _ := s.hashReader(ctx, p.ID)
		for before := int64(0); ; {
			got, err := cs.Checkpoints(ctx, p.ID, before, 16)
			if err != nil {
				return base, nil, nil, unavailable(err)
			}
			found := false
			for _, sc := range got {
				before = sc.Size
				c, err := ledgerlog.Open(sc.Note, s.Signing.verifiers())
				if err != nil || c.Origin != ledgerlog.Origin(s.Signing.Deployment, p.ID) || c.Size != sc.Size {
					problem("the checkpoint at size %d does not verify: %v", sc.Size, errOr(err, "its origin or size is not the pool's"))
					continue
				}
				if c.Size > p.Seq {
					problem("entry %d is missing: a signed checkpoint covers %d entries, the pool counts %d", p.Seq+1, c.Size, p.Seq)
					continue
				}
				if h, err := tlog.TreeHash(c.Size, r); err != nil || h != c.Root {
					bad = append(bad, c)
					continue
				}
				if !full {
					base = baseOf(c)
					found = true
					break
				}
				bad = append(bad, c) // checked again below, against the entries
			}
			if found || len(got) < 16 {
				break
			}
		}
	}
	entries, err := s.entriesFrom(ctx, p, base.Size)
	if err != nil {
		return base, nil, nil, err
	}
	if !isLog {
		return base, entries, problems, nil
	}
	// Re-derive the stored hashes of the entries after the base from the
	// entries, and compare them with the store's.
	stored := tlog.HashReaderFunc(func(ix []int64) ([]tlog.Hash, error) { return lr.LogHashes(ctx, p.ID, ix) })
	// derived holds the hashes re-derived from the entries after the
	// base, and the base's frontier (the roots of the complete subtrees
	// its size splits into, the only older hashes appending reads), read
	// once.
	derived := map[int64]tlog.Hash{}
	frontier := frontierOf(base.Size)
	if got, err := stored.ReadHashes(frontier); err != nil {
		return base, nil, nil, unavailable(err)
	} else {
		for k, i := range frontier {
			derived[i] = got[k]
		}
	}
	both := tlog.HashReaderFunc(func(ix []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(ix))
		var old []int64
		for _, i := range ix {
			if _, ok := derived[i]; !ok {
				old = append(old, i)
			}
		}
		got, err := stored.ReadHashes(old)
		if err != nil {
			return nil, err
		}
		k := 0
		for j, i := range ix {
			if h, ok := derived[i]; ok {
				out[j] = h
			} else {
				out[j] = got[k]
				k++
			}
		}
		return out, nil
	})
	named := false
	for lo := 0; lo < len(entries); lo += 1000 {
		chunk := entries[lo:min(lo+1000, len(entries))]
		size := chunk[0].Seq - 1
		if size != base.Size+int64(lo) {
			break // a gap: ReconcileFrom names it
		}
		hs, err := ledgerlog.Append(both, size, chunk)
		if err != nil {
			problem("entry %d: its hashes cannot be derived: %v", chunk[0].Seq, err)
			break
		}
		var ix []int64
		for i, h := range hs {
			at := tlog.StoredHashIndex(0, size+int64(i))
			for j := range h {
				derived[at+int64(j)] = h[j]
				ix = append(ix, at+int64(j))
			}
		}
		if named {
			continue
		}
		got, err := stored.ReadHashes(ix)
		if err != nil {
			problem("entry %d: its stored hashes cannot be read: %v", chunk[0].Seq, err)
			named = true
			continue
		}
		for k, i := range ix {
			if got[k] != derived[i] {
				seq, _ := ledgerlog.Owner(i)
				problem("entry %d is not the entry logged: its hashes differ from the ones stored with it", seq)
				named = true
				break
			}
		}
	}
	// The first checkpoint past the base whose root the entries do not
	// give: an entry it covers changed after it was signed (those after
	// it then differ too).
	prev := base.Size
	for i := len(bad) - 1; i >= 0; i-- {
		c := bad[i]
		if c.Size > base.Size && c.Size <= base.Size+int64(len(entries)) {
			if h, err := tlog.TreeHash(c.Size, both); err == nil && h == c.Root {
				prev = c.Size
				continue
			}
		}
		what := fmt.Sprintf("entry %d is", c.Size)
		if prev+1 < c.Size {
			what = fmt.Sprintf("an entry from %d to %d is", prev+1, c.Size)
		}
		problem("%s not the entry logged: the checkpoint signed at size %d does not match the ledger (nor do the %d signed after it)", what, c.Size, i)
		break
	}
	return base, entries, problems, nil
}

func errOr(err error, s string) string {
	if err != nil {
		return err.Error()
	}
	return s
}

// baseOf is the reconciliation's start at a verified checkpoint.
func baseOf(c ledgerlog.Checkpoint) jackpot.Base {
	return jackpot.Base{Size: c.Size, Meters: c.Meters, RateSum: new(big.Int).Set(c.RateSum), RateSumReserve: new(big.Int).Set(c.RateSumReserve)}
}

// ratesAt are the settings in force after the base: the pool's, unless
// an entry after the base made new ones effective (the first one's old).
func ratesAt(p jackpot.Pool, after []jackpot.Entry) *jackpot.Settings {
	for _, e := range after {
		if e.Kind == jackpot.KindSettingsEffective && e.Old != nil {
			old := *e.Old
			return &old
		}
	}
	set := p.Settings
	return &set
}

// frontierOf are the storage indexes of the roots of the complete
// subtrees a tree of size n splits into, largest first: every hash of
// the tree of n that appending after it reads.
func frontierOf(n int64) []int64 {
	var out []int64
	var start int64
	for level := 62; level >= 0; level-- {
		if n&(1<<level) != 0 {
			out = append(out, tlog.StoredHashIndex(level, start>>level))
			start += 1 << level
		}
	}
	return out
}

// Entry reads entry seq of pool id, as its ledger serves it; it writes
// nothing (a proof's reader checks the table the entry names).
func (s *Service) Entry(ctx context.Context, id string, seq int64) (jackpot.Entry, error) {
	es, err := s.Store.Ledger(ctx, id, seq-1, 1)
	if err != nil {
		return jackpot.Entry{}, unavailable(err)
	}
	if len(es) != 1 || es[0].Seq != seq {
		return jackpot.Entry{}, &fault.Error{Kind: fault.NotFound, Detail: fmt.Sprintf("pool %s has no entry %d", id, seq),
			Fields: []fault.Problem{{Field: "path.seq", Message: "no such entry", Value: seq}}}
	}
	return es[0], nil
}

// VerifyPools reconciles every pool from its latest verified checkpoint
// (Reconcile): the serve loop's scheduled verifier (issue 34 item 6). The
// error names each pool that does not reconcile and its first problem
// (the seq at fault) or differing meter.
func (s *Service) VerifyPools(ctx context.Context) error {
	pl, ok := s.Store.(PoolLister)
	if !ok {
		return nil
	}
	ids, err := pl.Pools(ctx)
	if err != nil {
		return unavailable(err)
	}
	var errs []error
	for _, id := range ids {
		r, err := s.Reconcile(ctx, id)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("pool %s: %w", id, err))
		case len(r.Problems) > 0:
			errs = append(errs, fmt.Errorf("pool %s does not verify: %s", id, r.Problems[0]))
		case !r.OK:
			d := r.Differences[0]
			errs = append(errs, fmt.Errorf("pool %s does not verify: meter %s is %d, the ledger sums to %d", id, d.Meter, d.Meters, d.Ledger))
		}
	}
	return errors.Join(errs...)
}

// VerifyEvery is how often the serve loop verifies every pool.
const VerifyEvery = 10 * time.Second
