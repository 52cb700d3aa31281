package jackpot

import (
	"fmt"
	"sort"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
)

// The floor's alerts (issue 35 item 3). A hit that waits (held for its
// settle window, or pending under the jackpot lock) sounds on every open
// console until a named person acknowledges it. The acknowledgement is
// recorded twice: on the waiting hit itself (so every console stops
// sounding and names who took it), and as a ledger entry of its own that
// moves no money (the audit trail keeps it after the hit has moved on).

// KindHitAcknowledged is a waiting hit's alert acknowledged by a person on
// the floor. It moves no meter and decides nothing about the hit.
const KindHitAcknowledged Kind = "hit_acknowledged"

// Acknowledgement is who acknowledged a waiting hit's alert, and when.
type Acknowledgement struct {
	By Actor     `json:"by"`
	At time.Time `json:"at"`
}

// Acknowledge records by's acknowledgement of the alert of hit seq, held
// (by its held entry) or pending or confirmed under the lock, at now. A hit
// already acknowledged keeps its first acknowledgement: write is then
// false and nothing is recorded. It moves no meter. NotFound names
// FieldHit when no such hit waits.
func Acknowledge(p Pool, seq int64, by Actor, now time.Time) (q Pool, entries []Entry, ack Acknowledgement, write bool, err error) {
	if err := requireActor(by); err != nil {
		return Pool{}, nil, Acknowledgement{}, false, err
	}
	q = p.clone()
	var target **Acknowledgement
	var e Entry
	for i := range q.Held {
		if h := &q.Held[i]; h.Seq == seq {
			target = &h.Acknowledged
			e = Entry{Table: h.Table, Round: h.Round, Seat: h.Hit.Seat, Dealt: h.Hit.Dealt, Category: h.Hit.Category,
				Rules: dedup(append(append([]string(nil), h.Hit.Rules...), "ruling R7"))}
		}
	}
	for i := range q.Locked {
		if h := &q.Locked[i]; h.Seq == seq && (h.State == StatePending || h.State == StateConfirmed) {
			target = &h.Acknowledged
			e = Entry{Table: h.Table, Round: h.Round, Seat: h.Seat, Dealt: h.Dealt, Category: h.Category, Rules: append([]string(nil), h.Rules...)}
		}
	}
	if target == nil {
		return Pool{}, nil, Acknowledgement{}, false, &fault.Error{Kind: fault.NotFound,
			Detail: fmt.Sprintf("pool %s has no hit %d waiting (held, pending or confirmed)", p.ID, seq),
			Fields: []fault.Problem{{Field: FieldHit, Message: "no such waiting hit", Value: seq}}}
	}
	if *target != nil {
		return p, nil, **target, false, nil
	}
	a := Acknowledgement{By: by, At: now}
	*target = &a
	c := &change{pool: &q, now: now}
	e.Kind, e.HitSeq, e.Actor = KindHitAcknowledged, seq, &by
	e.Note = "the hit's alert acknowledged on the floor by " + by.ID + ": moves no money, decides nothing"
	c.post(e)
	c.finish()
	return q, c.entries, a, true, nil
}

// HeldAmountsNow is what each of p's held hits would be paid if every
// settle window closed at now, by held entry: each from the pool as it
// would then stand, in the R7 order (ruling R21). Not final: the hit is
// paid from the pool as it stands when its window closes. Held hits past
// the first MaxReleasedPerCommit are left out.
func (k Rules) HeldAmountsNow(p Pool, now time.Time) map[int64]money.Amount {
	if len(p.Held) == 0 {
		return nil
	}
	q := p.clone()
	for i := range q.Held {
		if q.Held[i].PayAfter.After(now) {
			q.Held[i].PayAfter = now
		}
	}
	held := append([]HeldHit(nil), q.Held...)
	sort.SliceStable(held, func(i, j int) bool { return heldLess(held[i], held[j]) })
	_, _, out, ok, err := k.Release(q, now)
	if err != nil || !ok {
		return nil
	}
	amounts := make(map[int64]money.Amount, len(out))
	for i, po := range out {
		if i < len(held) && po.Seat == held[i].Hit.Seat && po.Table == held[i].Table {
			amounts[held[i].Seq] = po.Amount
		}
	}
	return amounts
}

// WithAmountsNow sets AmountNow on each held hit of hits (HeldAmountsNow).
func (k Rules) WithAmountsNow(p Pool, hits []FloorHit, now time.Time) []FloorHit {
	amounts := k.HeldAmountsNow(p, now)
	for i := range hits {
		if a, ok := amounts[hits[i].Seq]; ok && hits[i].State == StateHeld {
			hits[i].AmountNow = amountOf(a)
		}
	}
	return hits
}
