package pools

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// The floor's reads (issue 24). A held RWS hit is paid when its settle
// window closes on the service's clock, not when another round happens
// by: every read of the floor (Fresh) first releases the held hits that
// are due, exactly once however many readers race (each release is a
// conditional commit on the pool's version), and the local server's
// ticker (SweepHeld) releases them with no page open.

// Clock is the actor of the releases the service's clock makes: the
// reader whose request found the hit due did not decide to pay it.
var Clock = jackpot.Actor{ID: "service", Role: "clock"}

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
	p, err := s.Get(ctx, id)
	if err != nil {
		return jackpot.Pool{}, err
	}
	if jackpot.DueHeld(p, s.Now()) > 0 {
		if p, _, err = s.releaseAs(ctx, id, Clock); err != nil {
			return jackpot.Pool{}, err
		}
	}
	s.noteHeld(p)
	return p, nil
}

// releaseAs is Release with every entry it writes recorded as by.
func (s *Service) releaseAs(ctx context.Context, id string, by jackpot.Actor) (jackpot.Pool, []jackpot.Payout, error) {
	return s.release(ctx, id, &by)
}

// SweepHeld releases the due held hits of every pool this service has
// seen holding one (the local server calls it every second). It returns
// the first error, after visiting every pool.
func (s *Service) SweepHeld(ctx context.Context) error {
	h := &s.held
	h.mu.Lock()
	ids := make([]string, 0, len(h.ids))
	for id := range h.ids {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	slices.Sort(ids)
	var first error
	for _, id := range ids {
		if _, err := s.Fresh(ctx, id); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Hits lists the pool's hits for the floor: state "open" (held, pending,
// confirmed: from the pool) or "all" (from the whole ledger, the newest
// limit of them), of table ("" every table), in commit order.
func (s *Service) Hits(ctx context.Context, p jackpot.Pool, state, table string, limit int) ([]jackpot.FloorHit, error) {
	if state != "all" {
		return jackpot.OpenHits(p, table, s.Now()), nil
	}
	all, err := s.allEntries(ctx, p)
	if err != nil {
		return nil, err
	}
	return jackpot.AllHits(p, all, table, limit, s.Now()), nil
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
	all, err := s.allEntries(ctx, p)
	if err != nil {
		return jackpot.Report{}, err
	}
	r, err := jackpot.ShiftReport(p, all, from, to)
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
	all, err := s.allEntries(ctx, p)
	if err != nil {
		return jackpot.Slip{}, err
	}
	for _, h := range jackpot.AllHits(p, all, "", 0, s.Now()) {
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
