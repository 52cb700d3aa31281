package pools

import (
	"context"
	"errors"
	"fmt"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"net/url"
	"time"
)

// ApplyRound applies a round to a pool exactly once. The same table and
// round id again (or the same Idempotency-Key) returns the first answer
// unchanged (replayed true); with a different fingerprint it is a a Conflict.
// fingerprint identifies the request's content (jackpot.Fingerprint(r) when empty).
// When the store cannot confirm the write the error is Unavailable and
// nothing is half-applied: the table retries.
func (s *Service) ApplyRound(ctx context.Context, pool string, r jackpot.Round, idempotencyKey, fingerprint string) (res jackpot.RoundResult, replayed bool, err error) {
	err = s.serialized(ctx, pool, func(ctx context.Context) error {
		res, replayed, err = s.applyRound(ctx, pool, r, idempotencyKey, fingerprint)
		return err
	})
	if err != nil {
		return jackpot.RoundResult{}, false, err
	}
	if !replayed && ctx.Value(serializedKey{}) == nil {
		s.published(ctx, pool)
	}
	return res, replayed, nil
}

// applyRound is ApplyRound, in the store's transaction when it has one.
func (s *Service) applyRound(ctx context.Context, pool string, r jackpot.Round, idempotencyKey, fingerprint string) (jackpot.RoundResult, bool, error) {
	if fingerprint == "" {
		fingerprint = jackpot.Fingerprint(r)
	}
	if !jackpot.ValidID(r.Table) {
		return jackpot.RoundResult{}, false, invalid("table", "a table id is 1-64 letters, digits, '-', '_', '.' or ':'")
	}
	if !jackpot.ValidID(r.Round) {
		return jackpot.RoundResult{}, false, invalid("round", "a round id is 1-64 letters, digits, '-', '_', '.' or ':'")
	}
	keys := []string{jackpot.RoundKey(r.Table, r.Round)}
	if idempotencyKey != "" {
		keys = append(keys, jackpot.IdempotencyRecordKey(idempotencyKey))
	}
	var mine []string // this request's commit attempts
	// replay returns the committed answer, if any: (result, found,
	// replayed, err).
	replay := func() (jackpot.RoundResult, bool, bool, error) {
		for i, k := range keys {
			rec, err := s.Store.Record(ctx, pool, k)
			if errors.Is(err, jackpot.ErrNotFound) {
				continue
			}
			if err != nil {
				return jackpot.RoundResult{}, false, false, unavailable(err)
			}
			if rec.Fingerprint != fingerprint || rec.Op != "" {
				what := "table " + r.Table + " round " + r.Round
				field := "round"
				if i > 0 {
					what, field = "this Idempotency-Key", "header.Idempotency-Key"
				}
				msg := what + " was already applied with a different body"
				if i == 0 {
					// A mis-keyed card is fixed by correcting the round,
					// never by sending it again (ruling R28; issue 33
					// item 1).
					msg += fmt.Sprintf("; to fix a mis-keyed card, a supervisor proposes its correction: POST /v1/pools/%s/rounds/%s/%s/correction (ruling R28)",
						pool, url.PathEscape(r.Table), url.PathEscape(r.Round))
				}
				return jackpot.RoundResult{}, false, false, conflict(field, msg)
			}
			// This request's own commit (its answer lost) is not a replay.
			return rec.Result, true, !contains(mine, rec.Commit), nil
		}
		return jackpot.RoundResult{}, false, false, nil
	}
	// A round without a hit commits beside the pool when the store can
	// (ContributionStore): no read-modify-write of the pool item.
	if cs, ok := s.Store.(ContributionStore); ok && len(r.Hits) == 0 {
		if res, replayed, done, err := s.contribute(ctx, cs, pool, r, keys, idempotencyKey, fingerprint, &mine, replay); done {
			return res, replayed, err
		}
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
			return jackpot.RoundResult{}, false, err
		}
		if jackpot.DueHeld(p, s.Now()) > jackpot.MaxReleasedPerCommit {
			// More held hits are due than one commit pays: pay them all,
			// commit after commit in dealt order, before the round
			// contributes (issue 13, defect 1; R7, R21), as the service's
			// clock: this round's table did not ask for it (issue 33 item 5).
			if _, _, err := s.releaseAs(ctx, pool, Clock); err != nil {
				return jackpot.RoundResult{}, false, err
			}
			continue
		}
		q, entries, res, err := s.applyLinked(p, r)
		if err != nil {
			if res, found, replayed, rerr := replay(); rerr != nil || found {
				return res, replayed, rerr
			}
			return jackpot.RoundResult{}, false, err
		}
		res.Seq = roundEntry(entries, r)
		recs := make([]jackpot.RoundRecord, len(keys))
		for i, k := range keys {
			recs[i] = jackpot.RoundRecord{Pool: pool, Key: k, Table: r.Table, Round: r.Round, Fingerprint: fingerprint, Result: res, FirstSeq: p.Seq + 1}
			if i > 0 {
				recs[i].IdempotencyKey = idempotencyKey
			}
		}
		cid := s.newCommitID()
		mine = append(mine, cid)
		stampActor(ctx, entries)
		c := jackpot.Commit{PrevVersion: p.Version, Pool: q, Entries: entries, Records: recs}
		stamp(&c, cid)
		err = s.Store.Commit(ctx, c)
		switch {
		case err == nil:
			s.noteHeld(q)
			return res, false, nil
		case errors.Is(err, jackpot.ErrConflict) && n+1 < s.attempts():
			if err := s.backoff(ctx, n); err != nil {
				return jackpot.RoundResult{}, false, unavailable(err)
			}
		case errors.Is(err, jackpot.ErrConflict):
			return jackpot.RoundResult{}, false, unavailable(err)
		default:
			// The outcome is unknown. If the round's record is there with
			// this content, it was applied (by this attempt or a twin).
			if rec, err2 := s.Store.Record(context.WithoutCancel(ctx), pool, keys[0]); err2 == nil && rec.Fingerprint == fingerprint && rec.Op == "" {
				return rec.Result, !contains(mine, rec.Commit), nil
			}
			return jackpot.RoundResult{}, false, unavailable(err)
		}
	}
}

// contributeAttempts is how many snapshots a round tries beside the pool
// before it is applied to the pool itself: a commit of the pool under way
// refuses contributions until it lands (they back off a little), and a
// round sent to the pool itself is one more writer racing for it.
const contributeAttempts = 60

// contribute applies a round without a hit beside the pool (cs); done is
// false when the round is for the pool itself (it would do more than
// contribute, the snapshot cannot be read, or the pool kept moving).
func (s *Service) contribute(ctx context.Context, cs ContributionStore, pool string, r jackpot.Round, keys []string, idempotencyKey, fingerprint string, mine *[]string,
	replay func() (jackpot.RoundResult, bool, bool, error)) (jackpot.RoundResult, bool, bool, error) {
	var last int64 // the version of the last refused attempt
	for n := 0; n < contributeAttempts; n++ {
		p, err := cs.Snapshot(ctx, pool, n > 0)
		if err != nil {
			return jackpot.RoundResult{}, false, false, nil
		}
		if n > 0 && p.Version == last {
			// The pool has not moved: its shards are sealed for a commit
			// under way, or busy. Let it land: 1 to 2^n ms, at most 64.
			if err := SleepContext(ctx, s.jitter(min(n, 6))); err != nil {
				return jackpot.RoundResult{}, false, true, unavailable(err)
			}
			if p, err = cs.Snapshot(ctx, pool, true); err != nil {
				return jackpot.RoundResult{}, false, false, nil
			}
		}
		last = p.Version
		if jackpot.CheckLinked(p, r.Table) != nil || checkUnit(p, r, "progressiveUnit") != nil {
			// A table not linked to the pool (issue 24), or a unit not
			// the pool's (issue 33 item 4): the serial path answers its
			// first answer if it has one, else refuses it.
			return jackpot.RoundResult{}, false, false, nil
		}
		e, res, ok, err := s.Rules().Contribute(p, r, s.Now())
		if err != nil || !ok {
			// A refusal is the pool's own to give (the snapshot may be
			// older than the settings): the serial path answers.
			return jackpot.RoundResult{}, false, false, nil
		}
		recs := make([]jackpot.RoundRecord, len(keys))
		for i, k := range keys {
			recs[i] = jackpot.RoundRecord{Pool: pool, Key: k, Table: r.Table, Round: r.Round, Fingerprint: fingerprint, Result: res}
			if i > 0 {
				recs[i].IdempotencyKey = idempotencyKey
			}
		}
		cid := s.newCommitID()
		*mine = append(*mine, cid)
		c := jackpot.Commit{Records: recs}
		if e != nil {
			c.Entries = []jackpot.Entry{*e}
		}
		stampActor(ctx, c.Entries)
		stamp(&c, cid)
		in := Contribution{Pool: pool, Version: p.Version, Table: r.Table, Records: c.Records}
		if e != nil {
			in.Entry = &c.Entries[0]
		}
		err = cs.Contribute(ctx, in)
		switch {
		case err == nil:
			return res, false, true, nil
		case errors.Is(err, ErrSerial):
			return jackpot.RoundResult{}, false, false, nil
		case errors.Is(err, ErrMoved):
			// The pool moved, and no record was in the way: a fresh
			// snapshot.
		case errors.Is(err, jackpot.ErrConflict):
			// A twin's record, or the pool moved: look for the first
			// answer, else try a fresh snapshot.
			if res, found, replayed, err := replay(); err != nil || found {
				return res, replayed, true, err
			}
		default:
			// The outcome is unknown: the round's record tells.
			if rec, err2 := s.Store.Record(context.WithoutCancel(ctx), pool, keys[0]); err2 == nil && rec.Fingerprint == fingerprint && rec.Op == "" {
				return rec.Result, !contains(*mine, rec.Commit), true, nil
			}
			return jackpot.RoundResult{}, false, true, unavailable(err)
		}
	}
	return jackpot.RoundResult{}, false, false, nil
}

// jitter is a wait of 1 to 2^n ms, from the service's seeded source.
func (s *Service) jitter(n int) time.Duration {
	top := int64(time.Millisecond) << n
	if s.Rand == nil {
		return time.Duration(top)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Duration(int64(time.Millisecond) + s.Rand.Int64N(top))
}

// roundEntry is the seq of round r's own entry among a commit's entries
// (its contribution; held hits released by the commit come before it).
func roundEntry(entries []jackpot.Entry, r jackpot.Round) int64 {
	for _, e := range entries {
		if e.Table == r.Table && e.Round == r.Round {
			return e.Seq
		}
	}
	return 0
}
