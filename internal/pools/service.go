package pools

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Store keeps pools, their ledgers and round records. Implementations:
// internal/dynamo (production) and internal/sqlite (make run); one
// contract suite (poolstest) runs against both. Optional: Serializer,
// LedgerPager (optional.go).
type Store interface {
	// CreatePool writes a new pool and its opening entries (jackpot.ErrExists).
	CreatePool(ctx context.Context, p jackpot.Pool, entries []jackpot.Entry) error
	// Pool returns the pool (jackpot.ErrNotFound).
	Pool(ctx context.Context, id string) (jackpot.Pool, error)
	// Ledger returns up to limit entries with Seq > after, oldest first.
	Ledger(ctx context.Context, id string, after int64, limit int) ([]jackpot.Entry, error)
	// Record returns a round record (jackpot.ErrNotFound).
	Record(ctx context.Context, pool, key string) (jackpot.RoundRecord, error)
	// Commit writes one change atomically (jackpot.ErrConflict when it lost a race).
	Commit(ctx context.Context, c jackpot.Commit) error
}

// Service applies rounds and changes to pools through a Store, each
// exactly once. Time and randomness are passed in.
type Service struct {
	Store Store
	Now   func() time.Time
	// Sleep waits between attempts after a conflict (time.Sleep-like,
	// honouring ctx); Rand jitters the backoff.
	Sleep       func(ctx context.Context, d time.Duration) error
	Rand        *rand.Rand
	MaxAttempts int
	// Rulesets is the catalogue the pools are kept and their rounds
	// settled under; nil is the five documents (ruleset.Standard()).
	Rulesets *ruleset.Catalogue

	// Signing signs the pools' checkpoints (issue 34 item 2; nil: none
	// are published, and reconcile re-derives the whole ledger).
	Signing *Signing

	// HitPage is how many entries about hits one read of a HitLedger
	// store asks for (0: 64); a test sets it small to read by many pages.
	HitPage int

	mu sync.Mutex // guards Rand: one Service serves concurrent requests

	held holding // the pools seen holding a hit (floor.go)
}

// NewService returns a Service on the wall clock with a seeded jitter.
func NewService(st Store, now func() time.Time, seed uint64) *Service {
	return &Service{Store: st, Now: now, Sleep: SleepContext, Rand: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), MaxAttempts: 60}
}

// NewServiceIn is NewService for pools under the rulesets of cat (a
// catalogue with a new document version, or a test's ruleset).
func NewServiceIn(cat ruleset.Catalogue, st Store, now func() time.Time, seed uint64) *Service {
	s := NewService(st, now, seed)
	s.Rulesets = &cat
	return s
}

// Rules is the pools' rulesets: s.Rulesets, or the five documents.
func (s *Service) Rules() jackpot.Rules {
	if s == nil || s.Rulesets == nil {
		return jackpot.Standard()
	}
	return jackpot.Rules{Rulesets: *s.Rulesets}
}

// SleepContext sleeps for d or until ctx is done.
func SleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Refusal is err as the pools' refusal: a store failure the pools did not
// classify is Unavailable (the write may not be confirmed, and nothing is
// half-applied: one transaction), with err as its cause; an Unavailable
// without detail says to retry.
func Refusal(err error) *fault.Error {
	e, ok := fault.As(err)
	if !ok {
		return unavailable(err).(*fault.Error)
	}
	if e.Kind == fault.Unavailable && e.Detail == "" {
		c := *e
		c.Detail = "progressive unavailable: retry the request"
		return &c
	}
	return e
}

func unavailable(err error) error {
	return fault.Wrap(fault.Unavailable, err, "progressive unavailable: the store could not confirm the write; nothing was half-applied, retry the request")
}

func notFound(id string) error {
	return &fault.Error{Kind: fault.NotFound, Detail: "no pool " + id, Fields: []fault.Problem{{Field: "id", Message: "no pool " + id, Value: id}}}
}

// backoff waits before attempt n+1: full jitter over 5ms x 2^n, at most 250ms.
func (s *Service) backoff(ctx context.Context, n int) error {
	if ctx.Value(serializedKey{}) != nil {
		return ctx.Err()
	}
	d := 5 * time.Millisecond << min(n, 6)
	d = min(d, 250*time.Millisecond)
	if s.Rand != nil {
		s.mu.Lock()
		d = time.Duration(s.Rand.Int64N(int64(d)) + 1)
		s.mu.Unlock()
	}
	if s.Sleep == nil {
		return SleepContext(ctx, d)
	}
	return s.Sleep(ctx, d)
}

func (s *Service) attempts() int {
	if s.MaxAttempts <= 0 {
		return 60
	}
	return s.MaxAttempts
}

// Create opens a pool; created is true when this call opened it. Creating
// is idempotent: when the pool exists with the very settings asked for (a
// retry whose first answer was lost, or the SDK's own retry meeting its own
// write), the existing pool is returned (created false); with other
// settings it is a Conflict.
func (s *Service) Create(ctx context.Context, id string, set jackpot.Settings, by jackpot.Actor) (p jackpot.Pool, created bool, err error) {
	p, entries, err := s.Rules().New(id, set, by, s.Now())
	if err != nil {
		return jackpot.Pool{}, false, err
	}
	switch err := s.Store.CreatePool(ctx, p, entries); {
	case errors.Is(err, jackpot.ErrExists):
		cur, gerr := s.Store.Pool(ctx, id)
		if gerr != nil {
			// The pool exists but cannot be read: whether it has these
			// settings is unknown, so the answer is "retry" (503), never
			// "exists with other settings" (issue 13, defect 2).
			return jackpot.Pool{}, false, unavailable(gerr)
		}
		if jackpot.FingerprintOf(cur.Settings) == jackpot.FingerprintOf(p.Settings) {
			return cur, false, nil
		}
		return jackpot.Pool{}, false, conflict("id", "a pool "+id+" exists with other settings")
	case err != nil:
		return jackpot.Pool{}, false, unavailable(err)
	}
	s.published(ctx, id)
	return p, true, nil
}

// Get returns a pool.
func (s *Service) Get(ctx context.Context, id string) (jackpot.Pool, error) {
	p, err := s.Store.Pool(ctx, id)
	switch {
	case errors.Is(err, jackpot.ErrNotFound):
		return jackpot.Pool{}, notFound(id)
	case err != nil:
		return jackpot.Pool{}, unavailable(err)
	}
	return p, nil
}

// Ledger returns up to limit entries after seq, oldest first; past the end
// an empty page. after must be >= 0.
func (s *Service) Ledger(ctx context.Context, id string, after int64, limit int) ([]jackpot.Entry, error) {
	if after < 0 {
		return nil, invalid("query.after", "after is a ledger sequence number, 0 or more")
	}
	if err := s.Fold(ctx, id); err != nil {
		return nil, err
	}
	if _, err := s.Get(ctx, id); err != nil {
		return nil, err
	}
	es, err := s.Store.Ledger(ctx, id, after, limit)
	if err != nil {
		return nil, unavailable(err)
	}
	return es, nil
}

// allEntries reads the pool's whole ledger up to p's Seq (entries past it
// belong to commits after p was read).
func (s *Service) allEntries(ctx context.Context, p jackpot.Pool) ([]jackpot.Entry, error) {
	return s.entriesFrom(ctx, p, 0)
}

// entriesFrom reads the pool's ledger after seq after, up to p's Seq.
func (s *Service) entriesFrom(ctx context.Context, p jackpot.Pool, after int64) ([]jackpot.Entry, error) {
	var all []jackpot.Entry
	from := after
	for {
		es, err := s.Store.Ledger(ctx, p.ID, after, 1000)
		if err != nil {
			return nil, unavailable(err)
		}
		all = append(all, es...)
		if len(es) < 1000 {
			break
		}
		after = es[len(es)-1].Seq
	}
	if int64(len(all)) > p.Seq-from {
		all = all[:max(p.Seq-from, 0)]
	}
	return all, nil
}

// MetersAt returns the pool's meters as they stood at an instant: the sum
// of every ledger entry committed at or before it.
//
// With a ContributionStore the contributions committed beside the pool
// are folded into it first, so that the ledger holds every round
// committed before the call; a contribution counts from the time it was
// folded (the fold entry's).
func (s *Service) MetersAt(ctx context.Context, id string, at time.Time) (jackpot.AsOf, error) {
	if err := s.Fold(ctx, id); err != nil {
		return jackpot.AsOf{}, err
	}
	p, err := s.Get(ctx, id)
	if err != nil {
		return jackpot.AsOf{}, err
	}
	l, err := s.ledgerFor(ctx, p, at, false)
	if err != nil {
		return jackpot.AsOf{}, err
	}
	out, err := l.MetersAt(id, at)
	if err != nil {
		return jackpot.AsOf{}, fault.Wrap(fault.Internal, err, "the ledger does not add up")
	}
	return out, nil
}

// Reconcile rebuilds the pool's meters from the latest checkpoint whose
// signature and root verify (issue 34 item 6): it re-derives only the
// entries after it, their stored hashes and the meters, so its cost
// follows the entries since. Without a verified checkpoint it replays the
// whole ledger; ReconcileAll always does, and checks every checkpoint
// against the entries.
// With a ContributionStore it reconciles the pool as last committed: the
// contributions committed beside it since are in no meter and no ledger
// entry of the pool until its next commit folds them in.
func (s *Service) Reconcile(ctx context.Context, id string) (jackpot.Reconciliation, error) {
	return s.reconcile(ctx, id, false)
}

// ReconcileAll rebuilds the pool's meters from its whole ledger and
// checks every stored checkpoint against the entries.
func (s *Service) ReconcileAll(ctx context.Context, id string) (jackpot.Reconciliation, error) {
	return s.reconcile(ctx, id, true)
}

func (s *Service) reconcile(ctx context.Context, id string, full bool) (jackpot.Reconciliation, error) {
	if err := s.Fold(ctx, id); err != nil {
		return jackpot.Reconciliation{}, err
	}
	p, err := s.Get(ctx, id)
	if err != nil {
		return jackpot.Reconciliation{}, err
	}
	if cs, ok := s.Store.(ContributionStore); ok {
		switch snap, err := cs.Snapshot(ctx, id, true); {
		case err == nil:
			p = snap
		case !errors.Is(err, ErrSerial):
			return jackpot.Reconciliation{}, unavailable(err)
		}
	}
	base, entries, problems, err := s.checkLog(ctx, p, full)
	if err != nil {
		return jackpot.Reconciliation{}, err
	}
	if base.Size > 0 {
		base.Rates = ratesAt(p, entries)
		base.Entry = func(seq int64) (jackpot.Entry, bool) {
			es, err := s.Store.Ledger(ctx, id, seq-1, 1)
			if err != nil || len(es) != 1 || es[0].Seq != seq {
				return jackpot.Entry{}, false
			}
			return es[0], true
		}
	}
	r := jackpot.ReconcileFrom(base, p, entries)
	if len(problems) > 0 {
		r.Problems = append(problems, r.Problems...)
		r.OK = false
	}
	return r, nil
}

// newCommitID returns a fresh id for one commit attempt: 128 bits from
// crypto/rand. It is an identifier, not a behaviour: it must be unique
// across every writer of a pool (two services seeded alike must never
// share one, or one could take another's commit for its own), so it does
// not come from the service's seeded Rand, which only jitters backoff.
func (s *Service) newCommitID() string {
	var b [16]byte
	if _, err := crand.Read(b[:]); err != nil {
		// crypto/rand does not fail on supported platforms; should it,
		// fall back to the clock and the seeded source.
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.Rand == nil {
			return fmt.Sprintf("%x", s.Now().UnixNano())
		}
		return fmt.Sprintf("%x-%x", s.Now().UnixNano(), s.Rand.Uint64())
	}
	return hex.EncodeToString(b[:])
}

// stamp marks a commit's entries and records with its attempt id.
func stamp(c *jackpot.Commit, id string) {
	for i := range c.Entries {
		c.Entries[i].Commit = id
	}
	for i := range c.Records {
		c.Records[i].Commit = id
	}
}

// landed reports whether the commit attempt id, made on pool p, is in the
// store: its first ledger entry is there with the attempt's id. It is how
// a writer whose answer was lost (a timeout, or the SDK's own retry of a
// transaction that had committed, which then fails its condition) tells its
// own commit from a lost race.
// An error means it cannot tell.
func (s *Service) landed(ctx context.Context, p jackpot.Pool, entries []jackpot.Entry, id string) (bool, error) {
	if len(entries) == 0 {
		return false, nil
	}
	es, err := s.Store.Ledger(context.WithoutCancel(ctx), p.ID, p.Seq, 1)
	if err != nil {
		return false, err
	}
	return len(es) == 1 && es[0].Seq == p.Seq+1 && es[0].Commit == id, nil
}

// once is an operation applied exactly once under an Idempotency-Key.
type once struct {
	op, key, fingerprint string
	// hit is the lock operations' answer besides the pool: set by the
	// transition, or by a replay from the record.
	hit        *jackpot.LockedHit
	correction *jackpot.CorrectionResult
	proposal   *jackpot.Proposal
	// extra are records the transition writes besides the key's (a
	// closed proposal's): set by the transition on every attempt.
	extra []jackpot.RoundRecord
}

// recordKey is the record of o's key: keys are scoped to their operation
// (an adjustment's key and a round's or a settings change's are distinct).
func (o once) recordKey() string { return o.op + "/" + jackpot.IdempotencyRecordKey(o.key) }

// replay returns the committed answer to o, if there is one: (pool, true,
// replayed, nil). A record of the key with another fingerprint is a
// Mismatch. mine are this request's own attempt ids: finding one of them
// is not a replay.
func (s *Service) replayOnce(ctx context.Context, pool string, o *once, mine []string) (jackpot.Pool, bool, bool, error) {
	rec, err := s.Store.Record(ctx, pool, o.recordKey())
	switch {
	case errors.Is(err, jackpot.ErrNotFound):
		return jackpot.Pool{}, false, false, nil
	case err != nil:
		return jackpot.Pool{}, false, false, unavailable(err)
	}
	if rec.Fingerprint != o.fingerprint || rec.Op != o.op || rec.PoolAfter == nil {
		return jackpot.Pool{}, false, false, conflict("header.Idempotency-Key", "this Idempotency-Key was already used with a different request")
	}
	o.hit, o.correction, o.proposal = rec.Hit, rec.Correction, rec.Proposal
	return *rec.PoolAfter, true, !contains(mine, rec.Commit), nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// update applies fn to the pool and commits it, retrying with backoff
// while another writer wins the race. With an operation o (a key), the
// commit writes o's record too, and the record is looked for before every
// attempt: a retry of a committed request returns the first answer
// (replayed true), never applies it again. Without one, a commit whose
// answer was lost is still recognised by its attempt id (landed).
func (s *Service) update(ctx context.Context, id string, o *once, fn func(jackpot.Pool, time.Time) (jackpot.Pool, []jackpot.Entry, bool, error)) (q jackpot.Pool, replayed bool, err error) {
	err = s.serialized(ctx, id, func(ctx context.Context) error {
		q, replayed, err = s.updateIn(ctx, id, o, fn)
		return err
	})
	if err != nil {
		return jackpot.Pool{}, false, err
	}
	return q, replayed, nil
}

// updateIn is update, in the store's transaction when it has one.
func (s *Service) updateIn(ctx context.Context, id string, o *once, fn func(jackpot.Pool, time.Time) (jackpot.Pool, []jackpot.Entry, bool, error)) (jackpot.Pool, bool, error) {
	var mine []string
	for n := 0; ; n++ {
		if o != nil {
			if q, ok, replayed, err := s.replayOnce(ctx, id, o, mine); err != nil || ok {
				return q, replayed, err
			}
		}
		p, err := s.Get(ctx, id)
		if err != nil {
			return jackpot.Pool{}, false, err
		}
		q, entries, write, err := fn(p, s.Now())
		if errors.Is(err, errReread) && n+1 < s.attempts() {
			continue // the transition moved the pool first: read it again
		}
		if err != nil || !write {
			return q, false, err
		}
		jackpot.NoteSettled(&q, entries)
		cid := s.newCommitID()
		mine = append(mine, cid)
		stampActor(ctx, entries)
		c := jackpot.Commit{PrevVersion: p.Version, Pool: q, Entries: entries}
		if o != nil {
			after := q
			c.Records = append([]jackpot.RoundRecord{{Pool: id, Key: o.recordKey(), IdempotencyKey: o.key, Fingerprint: o.fingerprint, Op: o.op, PoolAfter: &after,
				Hit: o.hit, Correction: o.correction, Proposal: o.proposal}}, o.extra...)
		}
		stamp(&c, cid)
		err = s.Store.Commit(ctx, c)
		if err == nil {
			return q, false, nil
		}
		mineLanded, lerr := s.landed(ctx, p, c.Entries, cid)
		switch {
		case mineLanded:
			// Committed; the answer was lost (or the SDK's retry of it
			// met its own write).
			return q, false, nil
		case lerr != nil:
			// It cannot tell whether the commit landed: retrying could
			// answer as if nothing happened (a release: nothing paid).
			return jackpot.Pool{}, false, unavailable(err)
		case errors.Is(err, jackpot.ErrConflict) && n+1 < s.attempts():
			if err := s.backoff(ctx, n); err != nil {
				return jackpot.Pool{}, false, unavailable(err)
			}
		default:
			return jackpot.Pool{}, false, unavailable(err)
		}
	}
}

func requireKey(key string) error {
	if key == "" {
		return invalid("header.Idempotency-Key", "an Idempotency-Key is required: a retried change is then applied exactly once")
	}
	return nil
}

// ChangeSettings records a settings change, effective after the next
// reset, exactly once under its Idempotency-Key (required): the same key
// again returns the first answer (replayed true); with another change, a
// Mismatch. The patch applies to the pool as it is read for the commit.
//
// by proposes the change and approvedBy approves it, both signing at once
// (dual control): the API instead proposes it (Propose) and applies it on
// the second principal's approval (Approve), through the same transition.
// Adjust, Void and Correct are alike.
func (s *Service) ChangeSettings(ctx context.Context, id string, patch jackpot.SettingsPatch, by, approvedBy jackpot.Actor, reason, key string) (jackpot.Pool, bool, error) {
	if err := cosigned(by, approvedBy); err != nil {
		return jackpot.Pool{}, false, err
	}
	if err := requireKey(key); err != nil {
		return jackpot.Pool{}, false, err
	}
	o := &once{op: jackpot.OpSettings, key: key, fingerprint: jackpot.FingerprintOf(struct {
		Op         string                `json:"op"`
		Patch      jackpot.SettingsPatch `json:"patch"`
		By         jackpot.Actor         `json:"by"`
		ApprovedBy jackpot.Actor         `json:"approvedBy"`
		Reason     string                `json:"reason"`
	}{jackpot.OpSettings, patch, by, approvedBy, reason})}
	return s.update(ctx, id, o, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
		q, es, err := s.Rules().ChangeSettings(p, patch.On(p), by, reason, now)
		if err == nil {
			countersign(es, approvedBy)
			q.Pending.ApprovedBy = &approvedBy
		}
		return q, es, err == nil, err
	})
}

// Adjust applies a recorded adjustment, signed by by and approved by
// approvedBy, exactly once under its Idempotency-Key (required), as
// ChangeSettings.
func (s *Service) Adjust(ctx context.Context, id string, a jackpot.Adjustment, by, approvedBy jackpot.Actor, key string) (jackpot.Pool, bool, error) {
	if err := cosigned(by, approvedBy); err != nil {
		return jackpot.Pool{}, false, err
	}
	if err := requireKey(key); err != nil {
		return jackpot.Pool{}, false, err
	}
	o := &once{op: jackpot.OpAdjustment, key: key, fingerprint: jackpot.FingerprintOf(struct {
		Op         string             `json:"op"`
		Adjustment jackpot.Adjustment `json:"adjustment"`
		By         jackpot.Actor      `json:"by"`
		ApprovedBy jackpot.Actor      `json:"approvedBy"`
	}{jackpot.OpAdjustment, a, by, approvedBy})}
	return s.update(ctx, id, o, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
		q, es, err := jackpot.Adjust(p, a, by, now)
		countersign(es, approvedBy)
		return q, es, err == nil, err
	})
}

// Release pays every held RWS hit that is due (R7), in dealt order, each
// from the pool as it stands (R21): at most MaxReleasedPerCommit per
// commit, commit after commit until none is due. A commit whose answer
// was lost is recognised as its own (landed), and answers what it paid.
// It is the floor's Release button: the entries name the principal in
// ctx who pressed it, in the role it acted in (the service's clock when
// ctx names none).
func (s *Service) Release(ctx context.Context, id string) (jackpot.Pool, []jackpot.Payout, error) {
	by := Clock
	if p, ok := principal.FromContext(ctx); ok {
		by = jackpot.Actor{ID: p.ID, Role: string(p.Acting)}
	}
	return s.release(ctx, id, by)
}

// release is Release with every entry it writes recorded as by (issue 33
// item 5: not the principal of the request that found the hits due).
func (s *Service) release(ctx context.Context, id string, by jackpot.Actor) (jackpot.Pool, []jackpot.Payout, error) {
	var all []jackpot.Payout
	for {
		var paid []jackpot.Payout
		q, _, err := s.update(ctx, id, nil, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
			q, es, out, write, err := s.Rules().ReleaseBy(p, now, by)
			paid = out
			return q, es, write, err
		})
		if err != nil {
			return jackpot.Pool{}, all, err
		}
		all = append(all, paid...)
		// Nothing paid: another reader paid it first, and q is the pool
		// as update read it, without a write.
		if len(paid) == 0 || jackpot.DueHeld(q, s.Now()) == 0 {
			return q, all, nil
		}
	}
}

func invalid(field, format string, args ...any) error {
	return fault.InvalidField(field, nil, format, args...)
}

// conflict is a refusal of a request that contradicts what is recorded
// (a pool with other settings, a key or round sent with another body).
func conflict(field, msg string) *fault.Error {
	return &fault.Error{Kind: fault.Conflict, Detail: msg, Fields: []fault.Problem{{Field: field, Message: msg}}}
}

// errReread is a transition's request to read the pool again: it moved
// the pool itself first (a fold), so the pool it was given is stale.
var errReread = errors.New("pools: read the pool again")

// Fold commits what a ContributionStore's shards hold into the pool (a
// commit of the pool with no change of its own: the store folds the
// shards into every commit), so that the pool's ledger then holds every
// round committed before the call, each with its own entry; nothing when
// they hold nothing, or with any other store.
func (s *Service) Fold(ctx context.Context, id string) error {
	cs, ok := s.Store.(ContributionStore)
	if !ok {
		return nil
	}
	_, _, err := s.update(ctx, id, nil, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
		snap, err := cs.Snapshot(ctx, id, true)
		if errors.Is(err, ErrSerial) {
			return p, nil, false, nil // nothing is ever beside the pool
		}
		if err != nil {
			return jackpot.Pool{}, nil, false, unavailable(err)
		}
		if snap.Version != p.Version || snap.Seq == p.Seq {
			// Committed since the read (the next attempt reads again),
			// or nothing to fold.
			return p, nil, snap.Version != p.Version, nil
		}
		q := p
		q.Version++
		q.UpdatedAt = now
		return q, nil, true, nil
	})
	return err
}
