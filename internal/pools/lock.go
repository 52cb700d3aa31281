package pools

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// The jackpot lock's use cases (issue 13): a pending hit is confirmed by a
// supervisor, paid by the cage, or voided with a reason. Each is applied
// exactly once under its Idempotency-Key (required) and records the actor
// (the authenticated principal and its role) on its ledger entries.

// LockedHits lists the pool's pending and confirmed hits, of one table or
// (table "") of every table, in commit order.
func (s *Service) LockedHits(ctx context.Context, id, table string) ([]jackpot.LockedHit, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return p.LockedHits(table), nil
}

// Confirm verifies a pending hit.
func (s *Service) Confirm(ctx context.Context, id string, seq int64, by jackpot.Actor, key string) (jackpot.Pool, jackpot.LockedHit, bool, error) {
	return s.lockOp(ctx, id, jackpot.OpConfirm, seq, "", by, nil, key, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, jackpot.LockedHit, error) {
		return jackpot.Confirm(p, seq, by, now)
	})
}

// MarkPaid records the cage's payment of a confirmed hit.
func (s *Service) MarkPaid(ctx context.Context, id string, seq int64, by jackpot.Actor, key string) (jackpot.Pool, jackpot.LockedHit, bool, error) {
	return s.lockOp(ctx, id, jackpot.OpPaid, seq, "", by, nil, key, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, jackpot.LockedHit, error) {
		return jackpot.MarkPaid(p, seq, by, now)
	})
}

// Void reverses a pending hit (and, with the last of its group, the reset
// it caused), proposed by by and approved by approvedBy, both signing at
// once (dual control: see Approve for the API's two steps).
func (s *Service) Void(ctx context.Context, id string, seq int64, reason string, by, approvedBy jackpot.Actor, key string) (jackpot.Pool, jackpot.LockedHit, bool, error) {
	if by.ID != "" {
		if err := cosigned(by, approvedBy); err != nil {
			return jackpot.Pool{}, jackpot.LockedHit{}, false, err
		}
	}
	return s.lockOp(ctx, id, jackpot.OpVoid, seq, reason, by, &approvedBy, key, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, jackpot.LockedHit, error) {
		q, es, h, err := s.voidTx(ctx, p, seq, reason, by, now)
		countersign(es, approvedBy)
		return q, es, h, err
	})
}

// voidTx is the void of pending hit seq on p, reading the reset entry its
// group caused.
func (s *Service) voidTx(ctx context.Context, p jackpot.Pool, seq int64, reason string, by jackpot.Actor, now time.Time) (jackpot.Pool, []jackpot.Entry, jackpot.LockedHit, error) {
	var reset *jackpot.Entry
	for _, h := range p.Locked {
		if h.Seq == seq && h.ResetSeq != 0 {
			es, err := s.Store.Ledger(ctx, p.ID, h.ResetSeq-1, 1)
			if err != nil {
				return jackpot.Pool{}, nil, jackpot.LockedHit{}, unavailable(err)
			}
			if len(es) == 1 {
				reset = &es[0]
			}
		}
	}
	q, es, h, err := jackpot.Void(p, seq, reason, by, now, reset)
	if fault.KindOf(err) == fault.NotFound {
		// A hit that left the lock (voided, paid) is a conflict with its
		// state, whether the void is proposed or approved (issue 33 item 10).
		err = s.closedHit(ctx, p, seq, err)
	}
	return q, es, h, err
}

func (s *Service) lockOp(ctx context.Context, id, op string, seq int64, reason string, by jackpot.Actor, approvedBy *jackpot.Actor, key string,
	fn func(jackpot.Pool, time.Time) (jackpot.Pool, []jackpot.Entry, jackpot.LockedHit, error)) (jackpot.Pool, jackpot.LockedHit, bool, error) {
	if by.ID == "" {
		return jackpot.Pool{}, jackpot.LockedHit{}, false, fault.New(fault.Unauthenticated, "authentication is required: who confirms, voids or pays a hit is recorded")
	}
	if err := requireKey(key); err != nil {
		return jackpot.Pool{}, jackpot.LockedHit{}, false, err
	}
	o := &once{op: op, key: key, fingerprint: jackpot.FingerprintOf(struct {
		Op         string         `json:"op"`
		Seq        int64          `json:"seq"`
		Reason     string         `json:"reason"`
		By         jackpot.Actor  `json:"by"`
		ApprovedBy *jackpot.Actor `json:"approvedBy,omitempty"`
	}{op, seq, reason, by, approvedBy})}
	q, replayed, err := s.update(ctx, id, o, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
		q, es, h, err := fn(p, now)
		if err != nil {
			var fe *fault.Error
			if !errors.As(err, &fe) {
				err = fault.Wrap(fault.Internal, err, "the hit's ledger does not add up")
			} else if fe.Kind == fault.NotFound {
				err = s.closedHit(ctx, p, seq, err)
			}
			return jackpot.Pool{}, nil, false, err
		}
		o.hit = &h
		return q, es, true, nil
	})
	if err != nil {
		return jackpot.Pool{}, jackpot.LockedHit{}, false, err
	}
	var h jackpot.LockedHit
	if o.hit != nil {
		h = *o.hit
	}
	return q, h, replayed, nil
}

// closedHit is the answer to a lock operation on hit seq that is no longer
// under the lock: a Conflict naming its state and the entry that closed it
// when its ledger closed it (paid, or voided: by a void, a correction's
// house recovery or the withdrawal of a held hit; the hit exists), else
// notLocked (NotFound). The last such entry tells the state: a paid hit a
// correction took back is voided.
func (s *Service) closedHit(ctx context.Context, p jackpot.Pool, seq int64, notLocked error) error {
	es, err := s.entriesFrom(ctx, p, seq)
	if err != nil {
		return err
	}
	var last *jackpot.Entry
	var state string
	for i, e := range es {
		st := closedState(e.Kind)
		if e.HitSeq != seq || st == "" {
			continue
		}
		last, state = &es[i], st
	}
	if last == nil {
		return notLocked
	}
	msg := fmt.Sprintf("hit %d is %s by entry %d", seq, state, last.Seq)
	if last.Actor != nil {
		msg += fmt.Sprintf(" (%s at %s)", last.Actor.ID, last.At.Format(time.RFC3339))
	}
	return &fault.Error{Kind: fault.Conflict, Detail: msg + ": it can be neither confirmed, paid nor voided again",
		Fields: []fault.Problem{{Field: jackpot.FieldHit, Message: fmt.Sprintf("hit is %s by entry %d", state, last.Seq), Value: seq}}}
}

// closedState is the state an entry of kind k leaves the hit it is about
// in: paid, voided, or "" (it does not close it).
func closedState(k jackpot.Kind) string {
	switch k {
	case jackpot.KindHitPaid:
		return jackpot.StatePaid
	case jackpot.KindHitVoid, jackpot.KindHouseRecovery, jackpot.KindHeldVoid:
		return jackpot.StateVoided
	}
	return ""
}
