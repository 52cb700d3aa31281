package jackpot

import (
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// The jackpot lock (issue 13). A hit that needs verification is committed
// as every hit is (its amount fixed by R3, R5, R6 and R21, the pool reset
// and reseeded in the same commit), and waits, pending, for a supervisor:
// confirmed, the cage may pay it; voided (the cards were misread), its
// amount goes back to where it came from and its reset funding is
// reversed, so that the meters end as if the hit had never happened plus
// everything contributed since.

// Verify is the pool setting that decides which hits need verification.
// The zero value verifies none.
type Verify struct {
	// Percent: every percentage prize (Royal Flush, Straight Flush).
	Percent bool `json:"percent,omitempty"`
	// AtOrAbove: any prize of at least this amount (0: no threshold).
	AtOrAbove money.Amount `json:"atOrAbove,omitempty"`
}

// needs reports whether a hit of prize kind k paying amount needs
// verification under v.
func (v *Verify) needs(k PrizeKind, amount money.Amount) bool {
	if v == nil {
		return false
	}
	return (v.Percent && k == PrizePercent) || (v.AtOrAbove > 0 && amount >= v.AtOrAbove)
}

// The states of a hit under the lock.
const (
	StatePending   = "pending"   // committed, waiting for a supervisor
	StateConfirmed = "confirmed" // verified: the cage may pay it
	StatePaid      = "paid"      // the cage paid it
	StateVoided    = "voided"    // the cards did not win it: reversed
)

// Actor is who did something: the authenticated principal and the role it
// acted in (never a name typed into a body).
type Actor struct {
	ID   string `json:"id"`
	Role string `json:"role"`
}

// LockedHit is a hit under the lock, from its commit until it is paid or
// voided. Its id is the sequence number of its hit entry.
type LockedHit struct {
	Seq      int64        `json:"seq" doc:"The hit's ledger entry: its id."`
	State    string       `json:"state" enum:"pending,confirmed,paid,voided"`
	Table    string       `json:"table"`
	Round    string       `json:"round"`
	Ruleset  string       `json:"ruleset"`
	Seat     int          `json:"seat"`
	Dealt    int          `json:"dealt"`
	Wager    string       `json:"wager"`
	Category string       `json:"category" doc:"The evaluated hand (ruling R14)."`
	Cards    string       `json:"cards,omitempty" doc:"The cards the hand was evaluated from."`
	Amount   money.Amount `json:"amount"`
	// Funding is where the amount came from; a void returns it there.
	Funding []Funding `json:"funding"`
	// Rules are the rules the hit's prize applied (its ledger entry's):
	// the confirmation and the payment cite them; a void's answer adds
	// rulings R28 and R29.
	Rules       []string  `json:"rules,omitempty" doc:"The rules the hit's prize applied; its confirmation and payment cite them. A void's answer adds rulings R28 and R29 (only the voided hit's entries are reversed; later hits keep their amounts)."`
	CommittedAt time.Time `json:"committedAt"`
	// ResetSeq is the reset entry the hit's group caused (0: none); Group
	// the hits that shared the prize (R5), this one included. A void
	// reverses the reset with the last hit of its group to be voided.
	ResetSeq    int64      `json:"resetSeq,omitempty"`
	Group       []int64    `json:"group,omitempty"`
	ConfirmedBy *Actor     `json:"confirmedBy,omitempty"`
	ConfirmedAt *time.Time `json:"confirmedAt,omitempty"`
	PaidBy      *Actor     `json:"paidBy,omitempty"`
	PaidAt      *time.Time `json:"paidAt,omitempty"`
	VoidedBy    *Actor     `json:"voidedBy,omitempty"`
	VoidReason  string     `json:"voidReason,omitempty"`
	// Acknowledged is who acknowledged its alert on the floor (issue 35).
	Acknowledged *Acknowledgement `json:"acknowledged,omitempty" doc:"Who acknowledged the hit's alert on the floor, and when (it moves no money)."`
}

// lock puts the hits just posted (entries) under the lock when the pool's
// setting asks for it, and marks their payouts pending.
func (c *change) lock(ruleset string, hits []Hit, posted []Entry, out []Payout, prize PrizeKind) {
	v := c.pool.Settings.Verify
	if len(posted) == 0 || !v.needs(prize, posted[0].Paid) {
		return
	}
	group := make([]int64, len(posted))
	for i, e := range posted {
		group[i] = e.Seq
	}
	for i, e := range posted {
		c.pool.Locked = append(c.pool.Locked, LockedHit{Seq: e.Seq, State: StatePending, Table: e.Table, Round: e.Round, Ruleset: ruleset,
			Seat: e.Seat, Dealt: e.Dealt, Wager: wagerName(hits[i].Wager), Category: e.Category, Cards: hits[i].Cards, Amount: e.Paid,
			Funding: append([]Funding(nil), e.Funding...), Rules: append([]string(nil), e.Rules...), CommittedAt: c.now, Group: group})
		out[i].Status = StatePending
	}
}

// setReset records the reset entry a locked group caused.
func (c *change) setReset(group []Entry, reset int64) {
	for i := range c.pool.Locked {
		for _, e := range group {
			if c.pool.Locked[i].Seq == e.Seq {
				c.pool.Locked[i].ResetSeq = reset
			}
		}
	}
}

// LockedHits returns the pool's hits under the lock that are pending or
// confirmed, of table (every table when it is ""), in commit order.
func (p Pool) LockedHits(table string) []LockedHit {
	out := []LockedHit{}
	for _, h := range p.Locked {
		if (h.State == StatePending || h.State == StateConfirmed) && (table == "" || h.Table == table) {
			out = append(out, h)
		}
	}
	return out
}

func (p *Pool) locked(seq int64) (int, error) {
	for i, h := range p.Locked {
		if h.Seq != seq {
			continue
		}
		if h.State == StateVoided || h.State == StatePaid {
			// The hit exists and is closed: a conflict with its state, not
			// an unknown hit (404 is for what does not exist).
			return 0, &fault.Error{Kind: fault.Conflict, Detail: fmt.Sprintf("hit %d of pool %s is %s already: it can be neither confirmed, paid nor voided", seq, p.ID, h.State),
				Fields: []fault.Problem{{Field: FieldHit, Message: "hit is " + h.State, Value: seq}}}
		}
		return i, nil
	}
	return 0, &fault.Error{Kind: fault.NotFound, Detail: fmt.Sprintf("pool %s has no pending or confirmed hit %d", p.ID, seq),
		Fields: []fault.Problem{{Field: FieldHit, Message: "no such hit under the lock", Value: seq}}}
}

func stateConflict(h LockedHit, want string) error {
	return &fault.Error{Kind: fault.Conflict, Detail: fmt.Sprintf("hit %d is %s: only a %s hit can be %s", h.Seq, h.State, want, map[string]string{StatePending: "confirmed or voided", StateConfirmed: "paid"}[want]),
		Fields: []fault.Problem{{Field: FieldHit, Message: "hit is " + h.State, Value: h.Seq}}}
}

func requireActor(a Actor) error {
	if a.ID == "" || a.Role == "" {
		return fault.New(fault.Unauthenticated, "who acts is the authenticated principal: none was given")
	}
	return nil
}

// Confirm records a supervisor's verification of a pending hit: the cage
// may then pay it. It moves no meter.
func Confirm(p Pool, seq int64, by Actor, now time.Time) (Pool, []Entry, LockedHit, error) {
	return advance(p, seq, by, now, StatePending, KindHitConfirmed, false,
		func(LockedHit) string { return "verified by a supervisor: the cage may pay it" },
		func(h *LockedHit, by *Actor, at *time.Time) {
			h.State, h.ConfirmedBy, h.ConfirmedAt = StateConfirmed, by, at
		})
}

// MarkPaid records that the cage paid a confirmed hit. It moves no meter
// (the hit's amount left the meters when it was committed); the paid hit
// leaves the lock. Whoever confirmed the hit does not pay it, in any role
// (principal.SamePerson): a hit its payer verified was not verified.
func MarkPaid(p Pool, seq int64, by Actor, now time.Time) (Pool, []Entry, LockedHit, error) {
	if i, err := p.locked(seq); err == nil {
		if h := p.Locked[i]; h.State == StateConfirmed && h.ConfirmedBy != nil && principal.SamePerson(by.ID, h.ConfirmedBy.ID) {
			return Pool{}, nil, LockedHit{}, &fault.Error{Kind: fault.Forbidden,
				Detail: fmt.Sprintf("hit %d was confirmed by %s: the person who verified a hit does not pay it; another cage principal marks it paid", h.Seq, h.ConfirmedBy.ID),
				Fields: []fault.Problem{{Field: FieldHit, Message: "confirmed by the same person", Value: h.Seq}}}
		}
	}
	return advance(p, seq, by, now, StateConfirmed, KindHitPaid, true,
		func(h LockedHit) string { return "paid by the cage: " + p.Settings.Currency.Format(h.Amount) },
		func(h *LockedHit, by *Actor, at *time.Time) { h.State, h.PaidBy, h.PaidAt = StatePaid, by, at })
}

// advance moves a locked hit on from state from, recording an entry of
// kind that moves no meter and cites the rules the hit's prize applied;
// mark sets the hit's new state and who and when. prune drops the hits
// that have left the lock.
func advance(p Pool, seq int64, by Actor, now time.Time, from string, kind Kind, prune bool,
	note func(LockedHit) string, mark func(h *LockedHit, by *Actor, at *time.Time)) (Pool, []Entry, LockedHit, error) {
	if err := requireActor(by); err != nil {
		return Pool{}, nil, LockedHit{}, err
	}
	q := p.clone()
	i, err := q.locked(seq)
	if err != nil {
		return Pool{}, nil, LockedHit{}, err
	}
	h := &q.Locked[i]
	if h.State != from {
		return Pool{}, nil, LockedHit{}, stateConflict(*h, from)
	}
	c := &change{pool: &q, now: now}
	c.post(Entry{Kind: kind, Table: h.Table, Round: h.Round, Seat: h.Seat, Category: h.Category, HitSeq: h.Seq, Actor: &by,
		Rules: append([]string(nil), h.Rules...), Note: note(*h)})
	t := now
	mark(h, &by, &t)
	out := *h
	if prune {
		c.prune()
	}
	c.finish()
	return q, c.entries, out, nil
}

// Void reverses a pending hit the cards did not win: its amount goes back
// to each source it came from, and the reset it caused is reversed (a hit
// that shared its prize under R5 is refused while another hit of its
// group stands: its round is corrected instead) (the reset amount leaves the
// displayed meter and returns to the overflow, the reserve and the house
// that funded it). What was contributed since stays. Nothing is edited:
// the reversal is new entries citing the hit's.
func Void(p Pool, seq int64, reason string, by Actor, now time.Time, resetEntry *Entry) (Pool, []Entry, LockedHit, error) {
	if err := requireActor(by); err != nil {
		return Pool{}, nil, LockedHit{}, err
	}
	if reason == "" {
		return Pool{}, nil, LockedHit{}, invalid("reason", "a void states its reason (which cards were misread)")
	}
	q := p.clone()
	i, err := q.locked(seq)
	if err != nil {
		return Pool{}, nil, LockedHit{}, err
	}
	h := &q.Locked[i]
	if h.State != StatePending {
		return Pool{}, nil, LockedHit{}, stateConflict(*h, StatePending)
	}
	// A hit that shared its prize (R5) is not voided alone: the others
	// were paid a share of (pool + (n-1) x reset), the house funded the
	// extra reset parts, and returning this share alone would put the
	// house's money in the displayed meter and leave the others paid less
	// than the prize they now won with fewer winners. Correcting the round
	// (ruling R28) reverses the whole group and applies the round as it
	// was dealt.
	for _, g := range h.Group {
		for _, o := range q.Locked {
			if o.Seq == g && o.Seq != h.Seq && o.State != StateVoided {
				return Pool{}, nil, LockedHit{}, &fault.Error{Kind: fault.Conflict, Rules: []string{"ruling R5", "ruling R28"},
					Detail: fmt.Sprintf("hit %d shared its prize with hit %d (ruling R5): a void of one share alone would leave the meters as if neither the void nor the sharing were right; correct round %s of table %s instead (ruling R28)", h.Seq, o.Seq, h.Round, h.Table),
					Fields: []fault.Problem{{Field: FieldHit, Message: "the hit shared its prize: correct its round instead", Value: h.Seq}}}
			}
		}
	}
	c := &change{pool: &q, now: now}
	rules := []string{"ruling R28", RulingR29}
	e := Entry{Kind: KindHitVoid, Table: h.Table, Round: h.Round, Seat: h.Seat, Category: h.Category, HitSeq: h.Seq, Paid: h.Amount,
		Funding: append([]Funding(nil), h.Funding...), Actor: &by, Reason: reason, Rules: rules,
		Note: "the hit is voided: its amount returns to every source it came from"}
	e.returnFunding(h.Funding)
	c.post(e)
	h.State, h.VoidedBy, h.VoidReason = StateVoided, &by, reason
	last := true
	for _, g := range h.Group {
		for _, o := range q.Locked {
			if o.Seq == g && o.Seq != h.Seq && o.State != StateVoided {
				last = false
			}
		}
	}
	if h.ResetSeq != 0 && last {
		if resetEntry == nil || resetEntry.Seq != h.ResetSeq || resetEntry.Kind != KindReset {
			return Pool{}, nil, LockedHit{}, fmt.Errorf("jackpot: void of hit %d needs its reset entry %d", h.Seq, h.ResetSeq)
		}
		r := Entry{Kind: KindResetVoid, HitSeq: h.Seq, ResetSeq: h.ResetSeq, Displayed: -resetEntry.Displayed,
			Funding: append([]Funding(nil), resetEntry.Funding...), Actor: &by, Reason: reason, Rules: rules,
			Note: "the reset the voided hit caused is reversed: its funding returns to its sources"}
		r.returnFunding(resetEntry.Funding)
		c.post(r)
	}
	out := *h
	out.Rules = dedup(append(append([]string(nil), h.Rules...), rules...))
	if c.err != nil {
		return Pool{}, nil, LockedHit{}, overflowError(c.pool.Settings.Currency, c.err)
	}
	if m := q.Meters; m.Displayed < 0 {
		return Pool{}, nil, LockedHit{}, &fault.Error{Kind: fault.Conflict,
			Detail: fmt.Sprintf("voiding hit %d would take the displayed meter to %s: the pool was adjusted since; adjust it first", h.Seq, q.Settings.Currency.Format(m.Displayed)),
			Fields: []fault.Problem{{Field: FieldHit, Message: "the displayed meter cannot go below zero", Value: h.Seq}}}
	}
	c.prune()
	c.finish()
	return q, c.entries, out, nil
}

// prune drops the locked hits whose group is settled: none of its hits is
// still pending or confirmed.
func (c *change) prune() {
	open := map[int64]bool{}
	for _, h := range c.pool.Locked {
		if h.State == StatePending || h.State == StateConfirmed {
			for _, g := range h.Group {
				open[g] = true
			}
		}
	}
	var keep []LockedHit
	for _, h := range c.pool.Locked {
		if open[h.Seq] || h.State == StatePending || h.State == StateConfirmed {
			keep = append(keep, h)
		}
	}
	c.pool.Locked = keep
}
