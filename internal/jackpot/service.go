package jackpot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"sync"
	"time"
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
}

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

// Create opens a pool.
func (s *Service) Create(ctx context.Context, id string, set Settings, by string) (Pool, error) {
	p, entries, err := New(id, set, by, s.Now())
	if err != nil {
		return Pool{}, err
	}
	switch err := s.Store.CreatePool(ctx, p, entries); {
	case errors.Is(err, ErrExists):
		return Pool{}, &Error{Kind: Exists, Field: "id", Msg: "a pool " + id + " exists"}
	case err != nil:
		return Pool{}, unavailable(err)
	}
	return p, nil
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

// Ledger returns up to limit entries after seq, oldest first.
func (s *Service) Ledger(ctx context.Context, id string, after int64, limit int) ([]Entry, error) {
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

// update applies fn to the pool and commits it, retrying with backoff
// while another writer wins the race.
func (s *Service) update(ctx context.Context, id string, fn func(Pool, time.Time) (Pool, []Entry, bool, error)) (Pool, error) {
	for n := 0; ; n++ {
		p, err := s.Get(ctx, id)
		if err != nil {
			return Pool{}, err
		}
		q, entries, write, err := fn(p, s.Now())
		if err != nil || !write {
			return q, err
		}
		err = s.Store.Commit(ctx, Commit{PrevVersion: p.Version, Pool: q, Entries: entries})
		switch {
		case err == nil:
			return q, nil
		case errors.Is(err, ErrConflict) && n+1 < s.attempts():
			if err := s.backoff(ctx, n); err != nil {
				return Pool{}, unavailable(err)
			}
		default:
			return Pool{}, unavailable(err)
		}
	}
}

// ChangeSettings records a settings change, effective after the next reset.
func (s *Service) ChangeSettings(ctx context.Context, id string, set Settings, by, reason string) (Pool, error) {
	return s.update(ctx, id, func(p Pool, now time.Time) (Pool, []Entry, bool, error) {
		q, es, err := ChangeSettings(p, set, by, reason, now)
		return q, es, err == nil, err
	})
}

// Adjust applies a recorded, signed adjustment.
func (s *Service) Adjust(ctx context.Context, id string, a Adjustment) (Pool, error) {
	return s.update(ctx, id, func(p Pool, now time.Time) (Pool, []Entry, bool, error) {
		q, es, err := Adjust(p, a, now)
		return q, es, err == nil, err
	})
}

// Release pays the held RWS hits that are due (R7).
func (s *Service) Release(ctx context.Context, id string) (Pool, []Payout, error) {
	var paid []Payout
	q, err := s.update(ctx, id, func(p Pool, now time.Time) (Pool, []Entry, bool, error) {
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
	replay := func() (RoundResult, bool, error) {
		for i, k := range keys {
			rec, err := s.Store.Record(ctx, pool, k)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return RoundResult{}, false, unavailable(err)
			}
			if rec.Fingerprint != fingerprint {
				what := "table " + r.Table + " round " + r.Round
				field := "body"
				if i > 0 {
					what, field = "this Idempotency-Key", "header.Idempotency-Key"
				}
				return RoundResult{}, false, &Error{Kind: Mismatch, Field: field, Msg: what + " was already applied with a different body"}
			}
			return rec.Result, true, nil
		}
		return RoundResult{}, false, nil
	}
	// The round record is looked for only when it can matter: after a
	// lost race (a twin may have written it), or when the round does not
	// apply to the pool as it is now (the first answer stands even if the
	// settings changed since). The commit's condition on the records keeps
	// a replay from applying twice in every case.
	for n := 0; ; n++ {
		if n > 0 {
			if res, ok, err := replay(); err != nil || ok {
				return res, ok, err
			}
		}
		p, err := s.Get(ctx, pool)
		if err != nil {
			return RoundResult{}, false, err
		}
		q, entries, res, err := Apply(p, r, s.Now())
		if err != nil {
			if res, ok, rerr := replay(); rerr != nil || ok {
				return res, ok, rerr
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
		err = s.Store.Commit(ctx, Commit{PrevVersion: p.Version, Pool: q, Entries: entries, Records: recs})
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
			if rec, err2 := s.Store.Record(context.WithoutCancel(ctx), pool, keys[0]); err2 == nil && rec.Fingerprint == fingerprint {
				return rec.Result, false, nil
			}
			return RoundResult{}, false, unavailable(err)
		}
	}
}
