package pools

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
)

// The floor's reads (issue 24). A held RWS hit is paid when its settle
// window closes on the service's clock, not when another round happens
// by: every read of the floor (Fresh) first releases the held hits that
// are due, exactly once however many readers race (each release is a
// conditional commit on the pool's version), and the local server's
// ticker (SweepHeld) releases them with no page open.

// Clock is the actor of the releases the service's clock makes: the
// reader, sweep or round of another table whose request found the hit
// due did not decide to pay it (jackpot.Clock).
var Clock = jackpot.Clock

// holding is the set of pools a service has seen holding a hit: what
// SweepHeld visits.
type holding struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (s *Service) noteHeld(p jackpot.Pool) {
	h := &s.held
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ids == nil {
		h.ids = map[string]bool{}
	}
	if len(p.Held) > 0 {
		h.ids[p.ID] = true
	} else {
		delete(h.ids, p.ID)
	}
}

// Fresh returns the pool after paying the held hits that are due at the
// service's now (R7, R21), recorded as the service's clock (Clock).
func (s *Service) Fresh(ctx context.Context, id string) (jackpot.Pool, error) {
	p, _, err := s.fresh(ctx, id)
	if err != nil {
		return jackpot.Pool{}, err
	}
	return p, nil
}

// fresh is Fresh, with what this call paid (nothing when another reader
// or sweep paid it first: each release is a conditional commit). On an
// error, paid is what was committed before it (a release of more held
// hits than one commit pays is several commits) and the pool is as read
// before the release.
func (s *Service) fresh(ctx context.Context, id string) (jackpot.Pool, []jackpot.Payout, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return jackpot.Pool{}, nil, err
	}
	var paid []jackpot.Payout
	if jackpot.DueHeld(p, s.Now()) > 0 {
		q, out, err := s.releaseAs(ctx, id, Clock)
		if err != nil {
			return p, out, err
		}
		p, paid = q, out
	}
	s.noteHeld(p)
	return p, paid, nil
}

// releaseAs is Release with every entry it writes recorded as by.
func (s *Service) releaseAs(ctx context.Context, id string, by jackpot.Actor) (jackpot.Pool, []jackpot.Payout, error) {
	return s.release(ctx, id, by)
}

// HeldIndex is a Store that lists the pools holding a hit whose settle
// window closed at or before at, from an index (internal/dynamo: a sparse
// index of the pool items holding a hit). It may lag a commit by a moment
// (the index is eventually consistent): SweepHeld reads each pool it lists,
// strongly, before paying anything, so a stale entry costs one read and
// pays nothing. A sweep with no memory of the pools it has seen (the
// scheduled Lambda function, functions/sweep) finds them through it.
type HeldIndex interface {
	HeldDue(ctx context.Context, at time.Time) ([]string, error)
}

// HitLedger is a Store that reads a pool's entries about hits
// (jackpot.Kind.AboutHit) apart from the rest of its ledger: up to limit of
// them with a seq below before, newest first. The floor's hit history and
// a jackpot slip then read as many entries as the hits they show, not the
// pool's whole ledger, which grows with every round (internal/sqlite: a
// partial index of those entries). A store without it is read whole.
type HitLedger interface {
	HitEntries(ctx context.Context, pool string, before int64, limit int) ([]jackpot.Entry, error)
}

// hitEntries is p's entries about hits, oldest first, up to p's Seq, from
// the newest back until enough says the ones read tell enough or none is
// left; from a store without a HitLedger, its whole ledger.
func (s *Service) hitEntries(ctx context.Context, p jackpot.Pool, enough func(suffix []jackpot.Entry) bool) ([]jackpot.Entry, error) {
	hl, ok := s.Store.(HitLedger)
	if !ok {
		return s.allEntries(ctx, p)
	}
	page := s.HitPage
	if page <= 0 {
		page = 64
	}
	return readBack(p.Seq+1, page, func(before int64, limit int) ([]jackpot.Entry, error) {
		return hl.HitEntries(ctx, p.ID, before, limit)
	}, enough)
}

// readBack reads entries newest first through read, page entries at a
// time from below before down, until enough says the ones read (oldest
// first) are enough or none is left, and returns those, oldest first.
func readBack(before int64, page int, read func(before int64, limit int) ([]jackpot.Entry, error), enough func(suffix []jackpot.Entry) bool) ([]jackpot.Entry, error) {
	var suffix []jackpot.Entry
	for {
		es, err := read(before, page)
		if err != nil {
			return nil, unavailable(err)
		}
		slices.Reverse(es)
		suffix = append(es, suffix...)
		if len(es) < page || enough(suffix) {
			return suffix, nil
		}
		before = suffix[0].Seq
	}
}

// Released is what one sweep paid from one pool: the held hits it
// released, in the R7 order, each as a payout (amount, table, seat, hand,
// ledger sequence).
type Released struct {
	Pool     string
	Currency money.Currency
	Paid     []jackpot.Payout
}

// SweepHeld releases the due held hits of every pool this service has
// seen holding one and, when its store is a HeldIndex, of every pool the
// index lists as due at the service's now: the local server calls it every
// second, the scheduled Lambda function every minute. Each release is the
// read path's (Fresh), a conditional commit on the pool's version, so a
// hit is paid exactly once however many sweeps and readers race; a pool
// another one paid first is not in the answer. It returns what this call
// paid, pool by pool in id order, and the first error, after visiting
// every pool.
func (s *Service) SweepHeld(ctx context.Context) ([]Released, error) {
	h := &s.held
	h.mu.Lock()
	seen := make(map[string]bool, len(h.ids))
	for id := range h.ids {
		seen[id] = true
	}
	h.mu.Unlock()
	var first error
	if idx, ok := s.Store.(HeldIndex); ok {
		due, err := idx.HeldDue(ctx, s.Now())
		if err != nil {
			first = unavailable(err)
		}
		for _, id := range due {
			seen[id] = true
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []Released
	for _, id := range ids {
		p, paid, err := s.fresh(ctx, id)
		if len(paid) > 0 {
			out = append(out, Released{Pool: id, Currency: p.Settings.Currency, Paid: paid})
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return out, first
}

// Hits lists the pool's hits for the floor: state "open" (held, pending,
// confirmed: from the pool) or "all" (from the whole ledger, the newest
// limit of them), of table ("" every table), in commit order.
func (s *Service) Hits(ctx context.Context, p jackpot.Pool, state, table string, limit int) ([]jackpot.FloorHit, error) {
	if state != "all" {
		return jackpot.OpenHits(p, table, s.Now()), nil
	}
	now := s.Now()
	// Every entry about a hit comes after the entry that made it, and a
	// hit hidden by its payment (a held hit paid) is hidden by a later
	// entry: the newest entries that hold limit hits of table give those
	// hits as the whole ledger does.
	es, err := s.hitEntries(ctx, p, func(suffix []jackpot.Entry) bool {
		return limit > 0 && len(jackpot.AllHits(p, suffix, table, 0, now)) >= limit
	})
	if err != nil {
		return nil, err
	}
	return jackpot.AllHits(p, es, table, limit, now), nil
}

// Report is the pool's shift report over (from, to] (issue 24 item 8).
func (s *Service) Report(ctx context.Context, id string, from, to time.Time) (jackpot.Report, error) {
	if !to.After(from) {
		return jackpot.Report{}, invalid("query.to", "to must be after from")
	}
	if err := s.Fold(ctx, id); err != nil {
		return jackpot.Report{}, err
	}
	p, err := s.Get(ctx, id)
	if err != nil {
		return jackpot.Report{}, err
	}
	l, err := s.ledgerFor(ctx, p, from, true)
	if err != nil {
		return jackpot.Report{}, err
	}
	r, err := l.ShiftReport(p, from, to)
	if err != nil {
		return jackpot.Report{}, fault.Wrap(fault.Internal, err, "the ledger does not add up")
	}
	return r, nil
}

// Slip is the jackpot slip of paid hit seq (issue 24 item 8): NotFound for
// no such hit, Conflict for a hit not paid (naming path.seq).
func (s *Service) Slip(ctx context.Context, id string, seq int64) (jackpot.Slip, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return jackpot.Slip{}, err
	}
	// The entries from the hit's own on tell what became of it.
	es, err := s.hitEntries(ctx, p, func(suffix []jackpot.Entry) bool { return suffix[0].Seq <= seq })
	if err != nil {
		return jackpot.Slip{}, err
	}
	for _, h := range jackpot.AllHits(p, es, "", 0, s.Now()) {
		if h.Seq != seq {
			continue
		}
		if h.State != jackpot.StatePaid {
			msg := fmt.Sprintf("hit %d is %s: a slip is printed for a paid hit", seq, h.State)
			return jackpot.Slip{}, &fault.Error{Kind: fault.Conflict, Detail: msg, Fields: []fault.Problem{{Field: "path.seq", Message: "hit is " + h.State, Value: seq}}}
		}
		return jackpot.SlipOf(p, h), nil
	}
	msg := fmt.Sprintf("pool %s has no hit %d", id, seq)
	return jackpot.Slip{}, &fault.Error{Kind: fault.NotFound, Detail: msg, Fields: []fault.Problem{{Field: "path.seq", Message: "no such hit", Value: seq}}}
}
