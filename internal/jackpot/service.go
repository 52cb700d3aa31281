package jackpot

import (
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
)

// RoundRecord is the first answer to a round, kept forever: it, not a
// transport's retry token, is what makes a replay harmless. A round has one
// record under its table and round id and, when the request carried an
// Idempotency-Key, one under the key.
type RoundRecord struct {
	Pool           string      `json:"pool"`
	Key            string      `json:"key"`
	Table          string      `json:"table"`
	Round          string      `json:"round"`
	IdempotencyKey string      `json:"idempotencyKey,omitempty"`
	Fingerprint    string      `json:"fingerprint"`
	Result         RoundResult `json:"result"`
	// Op is what the record answers: a round ("", the default), an
	// adjustment or a settings change (OpAdjustment, OpSettings); PoolAfter
	// is the answer to those: the pool as the change committed it.
	Op        string `json:"op,omitempty"`
	PoolAfter *Pool  `json:"poolAfter,omitempty"`
	// Commit is the id of the commit attempt that wrote the record (and
	// the ledger entries with it): a request whose answer was lost
	// recognises its own commit by it, and is not a replay.
	Commit string `json:"commit,omitempty"`
}

// The operations other than rounds that are applied exactly once under an
// Idempotency-Key.
const (
	OpAdjustment = "adjustment"
	OpSettings   = "settings"
)

// RoundKey is the record key of a table's round.
func RoundKey(table, round string) string { return "round/" + table + "/" + round }

// IdempotencyRecordKey is the record key of an Idempotency-Key.
func IdempotencyRecordKey(k string) string {
	sum := sha256.Sum256([]byte(k))
	return "key/" + hex.EncodeToString(sum[:])
}

// Commit is one atomic write: the pool as it now is (its Version one more
// than PrevVersion), the ledger entries the change posted, and the round
// records. A Store writes all of it or none, and only if the stored pool is
// still at PrevVersion and none of the records exists; otherwise it
// returns ErrConflict.
type Commit struct {
	PrevVersion int64
	Pool        Pool
	Entries     []Entry
	Records     []RoundRecord
}

// Store keeps pools, their ledgers and round records. Implementations:
// internal/dynamo (production) and internal/filestore (make run); one
// contract suite (jackpottest) runs against both.
type Store interface {
	// CreatePool writes a new pool and its opening entries (ErrExists).
	CreatePool(ctx context.Context, p Pool, entries []Entry) error
	// Pool returns the pool (ErrNotFound).
	Pool(ctx context.Context, id string) (Pool, error)
	// Ledger returns up to limit entries with Seq > after, oldest first.
	Ledger(ctx context.Context, id string, after int64, limit int) ([]Entry, error)
	// Record returns a round record (ErrNotFound).
	Record(ctx context.Context, pool, key string) (RoundRecord, error)
	// Commit writes one change atomically (ErrConflict when it lost a race).
	Commit(ctx context.Context, c Commit) error
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

	mu sync.Mutex // guards Rand: one Service serves concurrent requests
}

// NewService returns a Service on the wall clock with a seeded jitter.
func NewService(st Store, now func() time.Time, seed uint64) *Service {
	return &Service{Store: st, Now: now, Sleep: SleepContext, Rand: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), MaxAttempts: 60}
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

func unavailable(err error) error {
	return &Error{Kind: Unavailable, Msg: "progressive unavailable: the store could not confirm the write; nothing was half-applied, retry the request", Err: err}
}

func notFound(id string) error {
	return &Error{Kind: NotFound, Field: "id", Msg: "no pool " + id}
}

// backoff waits before attempt n+1: full jitter over 5ms x 2^n, at most 250ms.
func (s *Service) backoff(ctx context.Context, n int) error {
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
// settings it is Exists.
func (s *Service) Create(ctx context.Context, id string, set Settings, by string) (p Pool, created bool, err error) {
	p, entries, err := New(id, set, by, s.Now())
	if err != nil {
		return Pool{}, false, err
	}
	switch err := s.Store.CreatePool(ctx, p, entries); {
	case errors.Is(err, ErrExists):
		cur, gerr := s.Get(ctx, id)
		if gerr == nil && fingerprintOf(cur.Settings) == fingerprintOf(p.Settings) {
			return cur, false, nil
		}
		return Pool{}, false, &Error{Kind: Exists, Field: "id", Msg: "a pool " + id + " exists with other settings"}
	case err != nil:
		return Pool{}, false, unavailable(err)
	}
	return p, true, nil
}

// Get returns a pool.
func (s *Service) Get(ctx context.Context, id string) (Pool, error) {
	p, err := s.Store.Pool(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return Pool{}, notFound(id)
	case err != nil:
		return Pool{}, unavailable(err)
	}
	return p, nil
}

// Ledger returns up to limit entries after seq, oldest first; past the end
// an empty page. after must be >= 0.
func (s *Service) Ledger(ctx context.Context, id string, after int64, limit int) ([]Entry, error) {
	if after < 0 {
		return nil, invalid("query.after", "after is a ledger sequence number, 0 or more")
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

// Reconcile rebuilds the pool's meters from its whole ledger.
func (s *Service) Reconcile(ctx context.Context, id string) (Reconciliation, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return Reconciliation{}, err
	}
	var all []Entry
	after := int64(0)
	for {
		es, err := s.Store.Ledger(ctx, id, after, 1000)
		if err != nil {
			return Reconciliation{}, unavailable(err)
		}
		all = append(all, es...)
		if len(es) < 1000 {
			break
		}
		after = es[len(es)-1].Seq
	}
	// Entries past the pool's Seq belong to commits after the pool was
	// read (every commit writes the pool and its entries atomically).
	if int64(len(all)) > p.Seq {
		all = all[:p.Seq]
	}
	return Reconcile(p, all), nil
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
func stamp(c *Commit, id string) {
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
func (s *Service) landed(ctx context.Context, p Pool, entries []Entry, id string) (bool, error) {
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
}

// recordKey is the record of o's key: keys are scoped to their operation
// (an adjustment's key and a round's or a settings change's are distinct).
func (o once) recordKey() string { return o.op + "/" + IdempotencyRecordKey(o.key) }

// replay returns the committed answer to o, if there is one: (pool, true,
// replayed, nil). A record of the key with another fingerprint is a
// Mismatch. mine are this request's own attempt ids: finding one of them
// is not a replay.
func (s *Service) replayOnce(ctx context.Context, pool string, o once, mine []string) (Pool, bool, bool, error) {
	rec, err := s.Store.Record(ctx, pool, o.recordKey())
	switch {
	case errors.Is(err, ErrNotFound):
		return Pool{}, false, false, nil
	case err != nil:
		return Pool{}, false, false, unavailable(err)
	}
	if rec.Fingerprint != o.fingerprint || rec.Op != o.op || rec.PoolAfter == nil {
		return Pool{}, false, false, &Error{Kind: Mismatch, Field: "header.Idempotency-Key", Msg: "this Idempotency-Key was already used with a different request"}
	}
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
func (s *Service) update(ctx context.Context, id string, o *once, fn func(Pool, time.Time) (Pool, []Entry, bool, error)) (Pool, bool, error) {
	var mine []string
	for n := 0; ; n++ {
		if o != nil {
			if q, ok, replayed, err := s.replayOnce(ctx, id, *o, mine); err != nil || ok {
				return q, replayed, err
			}
		}
		p, err := s.Get(ctx, id)
		if err != nil {
			return Pool{}, false, err
		}
		q, entries, write, err := fn(p, s.Now())
		if err != nil || !write {
			return q, false, err
		}
		cid := s.newCommitID()
		mine = append(mine, cid)
		c := Commit{PrevVersion: p.Version, Pool: q, Entries: entries}
		if o != nil {
			after := q
			c.Records = []RoundRecord{{Pool: id, Key: o.recordKey(), IdempotencyKey: o.key, Fingerprint: o.fingerprint, Op: o.op, PoolAfter: &after}}
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
			return Pool{}, false, unavailable(err)
		case errors.Is(err, ErrConflict) && n+1 < s.attempts():
			if err := s.backoff(ctx, n); err != nil {
				return Pool{}, false, unavailable(err)
			}
		default:
			return Pool{}, false, unavailable(err)
		}
	}
}

// SettingsPatch is a change to some of a pool's settings: the fields
// given replace the pending settings (or the current ones); the others
// keep their values.
type SettingsPatch struct {
	Rulesets       []string           `json:"rulesets,omitempty"`
	Unit           *money.Amount      `json:"unit,omitempty"`
	ContributionBP *money.BasisPoints `json:"contributionBp,omitempty"`
	ReserveBP      *money.BasisPoints `json:"reserveBp,omitempty"`
	Reset          *money.Amount      `json:"reset,omitempty"`
	Ceiling        *money.Amount      `json:"ceiling,omitempty"`
	SettleWindowMS *int64             `json:"settleWindowMs,omitempty"`
}

// PatchAll is the patch that sets every field to s's.
func PatchAll(s Settings) SettingsPatch {
	return SettingsPatch{Rulesets: append([]string(nil), s.Rulesets...), Unit: &s.Unit, ContributionBP: &s.ContributionBP, ReserveBP: &s.ReserveBP,
		Reset: &s.Reset, Ceiling: &s.Ceiling, SettleWindowMS: &s.SettleWindowMS}
}

// On returns the settings p's patch makes of the pool's pending settings
// (or its current ones).
func (pt SettingsPatch) On(p Pool) Settings {
	s := p.Settings
	if p.Pending != nil {
		s = p.Pending.Settings
	}
	s.Rulesets = append([]string(nil), s.Rulesets...)
	if pt.Rulesets != nil {
		s.Rulesets = append([]string(nil), pt.Rulesets...)
	}
	if pt.Unit != nil {
		s.Unit = *pt.Unit
	}
	if pt.ContributionBP != nil {
		s.ContributionBP = *pt.ContributionBP
	}
	if pt.ReserveBP != nil {
		s.ReserveBP = *pt.ReserveBP
	}
	if pt.Reset != nil {
		s.Reset = *pt.Reset
	}
	if pt.Ceiling != nil {
		s.Ceiling = *pt.Ceiling
	}
	if pt.SettleWindowMS != nil {
		s.SettleWindowMS = *pt.SettleWindowMS
	}
	return s
}

func requireKey(key string) error {
	if key == "" {
		return invalid("header.Idempotency-Key", "an Idempotency-Key is required: a retried change is then applied exactly once")
	}
	return nil
}

func fingerprintOf(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ChangeSettings records a settings change, effective after the next
// reset, exactly once under its Idempotency-Key (required): the same key
// again returns the first answer (replayed true); with another change, a
// Mismatch. The patch applies to the pool as it is read for the commit.
func (s *Service) ChangeSettings(ctx context.Context, id string, patch SettingsPatch, by, reason, key string) (Pool, bool, error) {
	if err := requireKey(key); err != nil {
		return Pool{}, false, err
	}
	o := &once{op: OpSettings, key: key, fingerprint: fingerprintOf(struct {
		Op     string        `json:"op"`
		Patch  SettingsPatch `json:"patch"`
		By     string        `json:"by"`
		Reason string        `json:"reason"`
	}{OpSettings, patch, by, reason})}
	return s.update(ctx, id, o, func(p Pool, now time.Time) (Pool, []Entry, bool, error) {
		q, es, err := ChangeSettings(p, patch.On(p), by, reason, now)
		return q, es, err == nil, err
	})
}

// Adjust applies a recorded, signed adjustment exactly once under its
// Idempotency-Key (required), as ChangeSettings.
func (s *Service) Adjust(ctx context.Context, id string, a Adjustment, key string) (Pool, bool, error) {
	if err := requireKey(key); err != nil {
		return Pool{}, false, err
	}
	o := &once{op: OpAdjustment, key: key, fingerprint: fingerprintOf(struct {
		Op         string     `json:"op"`
		Adjustment Adjustment `json:"adjustment"`
	}{OpAdjustment, a})}
	return s.update(ctx, id, o, func(p Pool, now time.Time) (Pool, []Entry, bool, error) {
		q, es, err := Adjust(p, a, now)
		return q, es, err == nil, err
	})
}

// Release pays the held RWS hits that are due (R7). A commit whose answer
// was lost is recognised as its own (landed), and answers what it paid.
func (s *Service) Release(ctx context.Context, id string) (Pool, []Payout, error) {
	var paid []Payout
	q, _, err := s.update(ctx, id, nil, func(p Pool, now time.Time) (Pool, []Entry, bool, error) {
		q, es, out, write, err := Release(p, now)
		paid = out
		return q, es, write, err
	})
	return q, paid, err
}

// Fingerprint identifies a round's content: a replay must match it.
func Fingerprint(r Round) string {
	b, _ := json.Marshal(r)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ApplyRound applies a round to a pool exactly once. The same table and
// round id again (or the same Idempotency-Key) returns the first answer
// unchanged (replayed true); with a different fingerprint it is a Mismatch.
// fingerprint identifies the request's content (Fingerprint(r) when empty).
// When the store cannot confirm the write the error is Unavailable and
// nothing is half-applied: the table retries.
func (s *Service) ApplyRound(ctx context.Context, pool string, r Round, idempotencyKey, fingerprint string) (RoundResult, bool, error) {
	if fingerprint == "" {
		fingerprint = Fingerprint(r)
	}
	if !ValidID(r.Table) {
		return RoundResult{}, false, invalid("table", "a table id is 1-64 letters, digits, '-', '_', '.' or ':'")
	}
	if !ValidID(r.Round) {
		return RoundResult{}, false, invalid("round", "a round id is 1-64 letters, digits, '-', '_', '.' or ':'")
	}
	keys := []string{RoundKey(r.Table, r.Round)}
	if idempotencyKey != "" {
		keys = append(keys, IdempotencyRecordKey(idempotencyKey))
	}
	var mine []string // this request's commit attempts
	// replay returns the committed answer, if any: (result, found,
	// replayed, err).
	replay := func() (RoundResult, bool, bool, error) {
		for i, k := range keys {
			rec, err := s.Store.Record(ctx, pool, k)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return RoundResult{}, false, false, unavailable(err)
			}
			if rec.Fingerprint != fingerprint || rec.Op != "" {
				what := "table " + r.Table + " round " + r.Round
				field := "round"
				if i > 0 {
					what, field = "this Idempotency-Key", "header.Idempotency-Key"
				}
				return RoundResult{}, false, false, &Error{Kind: Mismatch, Field: field, Msg: what + " was already applied with a different body"}
			}
			// This request's own commit (its answer lost) is not a replay.
			return rec.Result, true, !contains(mine, rec.Commit), nil
		}
		return RoundResult{}, false, false, nil
	}
	// The round record is looked for only when it can matter: after a
	// lost race (a twin may have written it), or when the round does not
	// apply to the pool as it is now (the first answer stands even if the
	// settings changed since). The commit's condition on the records keeps
	// a replay from applying twice in every case.
	for n := 0; ; n++ {
		if n > 0 {
			if res, found, replayed, err := replay(); err != nil || found {
				return res, replayed, err
			}
		}
		p, err := s.Get(ctx, pool)
		if err != nil {
			return RoundResult{}, false, err
		}
		q, entries, res, err := Apply(p, r, s.Now())
		if err != nil {
			if res, found, replayed, rerr := replay(); rerr != nil || found {
				return res, replayed, rerr
			}
			return RoundResult{}, false, err
		}
		recs := make([]RoundRecord, len(keys))
		for i, k := range keys {
			recs[i] = RoundRecord{Pool: pool, Key: k, Table: r.Table, Round: r.Round, Fingerprint: fingerprint, Result: res}
			if i > 0 {
				recs[i].IdempotencyKey = idempotencyKey
			}
		}
		cid := s.newCommitID()
		mine = append(mine, cid)
		c := Commit{PrevVersion: p.Version, Pool: q, Entries: entries, Records: recs}
		stamp(&c, cid)
		err = s.Store.Commit(ctx, c)
		switch {
		case err == nil:
			return res, false, nil
		case errors.Is(err, ErrConflict) && n+1 < s.attempts():
			if err := s.backoff(ctx, n); err != nil {
				return RoundResult{}, false, unavailable(err)
			}
		case errors.Is(err, ErrConflict):
			return RoundResult{}, false, unavailable(err)
		default:
			// The outcome is unknown. If the round's record is there with
			// this content, it was applied (by this attempt or a twin).
			if rec, err2 := s.Store.Record(context.WithoutCancel(ctx), pool, keys[0]); err2 == nil && rec.Fingerprint == fingerprint && rec.Op == "" {
				return rec.Result, !contains(mine, rec.Commit), nil
			}
			return RoundResult{}, false, unavailable(err)
		}
	}
}
