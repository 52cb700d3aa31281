package jackpot

import (
	"sort"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
)

// The floor's view of a pool's hits (issue 24): one queue of held,
// pending, confirmed, paid and voided hits, with who did what and when.

// StateHeld is an RWS major hit held for its settle window (R7).
const StateHeld = "held"

// FloorHit is one hit as the floor sees it.
type FloorHit struct {
	// Seq is the hit's id: its hit entry, or for a held hit its held entry
	// (HeldSeq links the hit entry that paid it to that one).
	Seq     int64  `json:"seq" doc:"The hit's id: the ledger entry that committed it (a held hit's held entry until it is paid)."`
	HeldSeq int64  `json:"heldSeq,omitempty" doc:"For a hit that was held (R7): its held entry, the seq it was listed under while held."`
	State   string `json:"state" enum:"held,pending,confirmed,paid,voided,round_void" doc:"round_void: a hand a void round held that would have hit (issue 33 item 1); nothing was paid or reserved for it, voidReason says why the round is void."`
	Table   string `json:"table"`
	Round   string `json:"round"`
	Ruleset string `json:"ruleset,omitempty"`
	Seat    int    `json:"seat"`
	Dealt   int    `json:"dealt,omitempty"`
	Wager   string `json:"wager,omitempty"`
	// Hand is the evaluated hand (ruling R14); Category the same, as the
	// lock's list always named it.
	Hand     string `json:"hand" doc:"The evaluated hand (ruling R14), e.g. royal_flush."`
	Category string `json:"category" doc:"The same as hand (the name the lock's list used)."`
	Cards    string `json:"cards,omitempty"`
	// Amount is absent for a held hit: it is paid from the pool as it
	// stands when its window closes (R21).
	Amount         *money.Amount  `json:"amount,omitempty" doc:"The prize in minor units; absent while held (paid from the pool as it stands when its window closes, ruling R21)."`
	Currency       money.Currency `json:"currency"`
	Funding        []Funding      `json:"funding,omitempty"`
	CommittedAt    time.Time      `json:"committedAt"`
	WindowClosesAt *time.Time     `json:"windowClosesAt,omitempty" doc:"A held hit: when its settle window closes (ruling R7), on the service's clock."`
	ConfirmedAt    *time.Time     `json:"confirmedAt,omitempty"`
	ConfirmedBy    *Actor         `json:"confirmedBy,omitempty"`
	PaidAt         *time.Time     `json:"paidAt,omitempty"`
	PaidBy         *Actor         `json:"paidBy,omitempty"`
	VoidedAt       *time.Time     `json:"voidedAt,omitempty"`
	VoidedBy       *Actor         `json:"voidedBy,omitempty"`
	VoidReason     string         `json:"voidReason,omitempty"`
	Rules          []string       `json:"rules"`
	// VoidProposal is the open proposal to void the hit, if any.
	VoidProposal int64 `json:"voidProposal,omitempty" doc:"The id of an open proposal to void this hit, if any."`
}

// Open reports whether the floor still acts on h: held, pending or
// confirmed.
func (h FloorHit) Open() bool {
	return h.State == StateHeld || h.State == StatePending || h.State == StateConfirmed
}

func amountOf(a money.Amount) *money.Amount { return &a }

func timeOf(t time.Time) *time.Time { return &t }

// OpenHits are p's held, pending and confirmed hits, of table ("" every
// table), in commit order, read from the pool alone.
func OpenHits(p Pool, table string, now time.Time) []FloorHit {
	out := []FloorHit{}
	for _, h := range p.Held {
		if table == "" || h.Table == table {
			out = append(out, heldHit(p, h))
		}
	}
	for _, h := range p.Locked {
		if (h.State == StatePending || h.State == StateConfirmed) && (table == "" || h.Table == table) {
			out = append(out, lockedHit(p, h))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	markVoidProposals(p, out, now)
	return out
}

func heldHit(p Pool, h HeldHit) FloorHit {
	rules := append([]string{}, h.Hit.Rules...)
	rules = append(rules, "ruling R7")
	return FloorHit{Seq: h.Seq, State: StateHeld, Table: h.Table, Round: h.Round, Ruleset: h.Ruleset, Seat: h.Hit.Seat, Dealt: h.Hit.Dealt,
		Wager: wagerName(h.Hit.Wager), Hand: h.Hit.Category, Category: h.Hit.Category, Cards: h.Hit.Cards, Currency: p.Settings.Currency,
		CommittedAt: h.HeldAt, WindowClosesAt: timeOf(h.PayAfter), Rules: rules}
}

func lockedHit(p Pool, h LockedHit) FloorHit {
	f := FloorHit{Seq: h.Seq, State: h.State, Table: h.Table, Round: h.Round, Ruleset: h.Ruleset, Seat: h.Seat, Dealt: h.Dealt, Wager: h.Wager,
		Hand: h.Category, Category: h.Category, Cards: h.Cards, Amount: amountOf(h.Amount), Currency: p.Settings.Currency,
		Funding: append([]Funding(nil), h.Funding...), CommittedAt: h.CommittedAt, ConfirmedAt: h.ConfirmedAt, ConfirmedBy: h.ConfirmedBy,
		PaidAt: h.PaidAt, PaidBy: h.PaidBy, VoidedBy: h.VoidedBy, VoidReason: h.VoidReason, Rules: append([]string{}, h.Rules...)}
	return f
}

// markVoidProposals sets each hit's open void proposal.
func markVoidProposals(p Pool, hits []FloorHit, now time.Time) {
	for _, pr := range p.Proposals {
		if pr.State != ProposalOpen || pr.Expired(now) || pr.Kind != ProposeVoid || pr.Void == nil {
			continue
		}
		for i := range hits {
			if hits[i].Seq == pr.Void.Seq && hits[i].Open() {
				hits[i].VoidProposal = pr.ID
			}
		}
	}
}

// AllHits are every hit of p's ledger (oldest first, up to p's Seq), of
// table ("" every table), as they stand now: the ledger tells what became
// of each, and the pool the state of those still held or under the lock.
// At most limit of them, the newest, in commit order. It reads only the
// entries about hits (Kind.AboutHit); the others may be left out.
func AllHits(p Pool, ledger []Entry, table string, limit int, now time.Time) []FloorHit {
	byseq := map[int64]*FloorHit{}
	var order []int64
	add := func(h FloorHit) {
		byseq[h.Seq] = &h
		order = append(order, h.Seq)
	}
	voided := map[int64][]FloorHit{} // a void round's hands that would have hit
	for _, e := range ledger {
		switch e.Kind {
		case KindRoundVoid:
			if len(e.VoidHands) > 0 {
				voided[e.Seq] = voidHits(p, e)
				order = append(order, e.Seq)
			}
		case KindHeld:
			add(FloorHit{Seq: e.Seq, State: StateHeld, Table: e.Table, Round: e.Round, Seat: e.Seat, Dealt: e.Dealt, Hand: e.Category, Category: e.Category,
				Currency: p.Settings.Currency, CommittedAt: e.At, Rules: append([]string{}, e.Rules...)})
		case KindHit:
			paid := e.At
			h := FloorHit{Seq: e.Seq, HeldSeq: e.HeldSeq, State: StatePaid, Table: e.Table, Round: e.Round, Seat: e.Seat, Dealt: e.Dealt,
				Hand: e.Category, Category: e.Category, Amount: amountOf(e.Paid), Currency: p.Settings.Currency, Funding: append([]Funding(nil), e.Funding...),
				CommittedAt: e.At, PaidAt: &paid, PaidBy: e.Actor, Rules: append([]string{}, e.Rules...)}
			if held, ok := byseq[e.HeldSeq]; ok && e.HeldSeq != 0 {
				held.State = "" // replaced by its payment
				h.Ruleset = held.Ruleset
			}
			add(h)
		case KindHitConfirmed:
			if h, ok := byseq[e.HitSeq]; ok {
				h.State, h.ConfirmedAt, h.ConfirmedBy = StateConfirmed, timeOf(e.At), e.Actor
				h.PaidAt, h.PaidBy = nil, nil
			}
		case KindHitPaid:
			if h, ok := byseq[e.HitSeq]; ok {
				h.State, h.PaidAt, h.PaidBy = StatePaid, timeOf(e.At), e.Actor
			}
		case KindHitVoid, KindHouseRecovery, KindHeldVoid:
			if h, ok := byseq[e.HitSeq]; ok {
				h.State, h.VoidedAt, h.VoidedBy, h.VoidReason = StateVoided, timeOf(e.At), e.Actor, e.Reason
				if e.Kind != KindHouseRecovery {
					h.PaidAt, h.PaidBy = nil, nil
				}
			}
		}
	}
	// The pool knows which hits are held or under the lock now.
	for _, h := range p.Held {
		if f, ok := byseq[h.Seq]; ok {
			*f = heldHit(p, h)
		}
	}
	for _, h := range p.Locked {
		if f, ok := byseq[h.Seq]; ok && (h.State == StatePending || h.State == StateConfirmed) {
			*f = lockedHit(p, h)
		}
	}
	out := []FloorHit{}
	for _, seq := range order {
		if vs, ok := voided[seq]; ok {
			for _, v := range vs {
				if table == "" || v.Table == table {
					out = append(out, v)
				}
			}
			continue
		}
		h := byseq[seq]
		if h.State == "" || (table != "" && h.Table != table) {
			continue
		}
		out = append(out, *h)
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	markVoidProposals(p, out, now)
	return out
}

// NoteSettled records on p's last hits what entries did to them: a hit
// the cage paid (hit_paid) is paid at that time, a hit voided or taken
// back by a correction is voided (issue 24: lastHits honest).
func NoteSettled(p *Pool, entries []Entry) {
	changed := false
	for _, e := range entries {
		var state string
		switch e.Kind {
		case KindHitPaid:
			state = StatePaid
		case KindHitVoid, KindHouseRecovery:
			state = StateVoided
		default:
			continue
		}
		for i := range p.LastHits {
			if p.LastHits[i].Seq != e.HitSeq {
				continue
			}
			if !changed {
				p.LastHits = append([]HitRecord(nil), p.LastHits...)
				changed = true
			}
			at := e.At
			p.LastHits[i].State, p.LastHits[i].SettledAt = state, &at
		}
	}
}

// LastHitState is a recent hit's state and when it reached it: pending
// or confirmed while under the lock, voided or paid after (paidAt only
// when paid).
func (p Pool) LastHitState(h HitRecord) (state string, paidAt, voidedAt *time.Time) {
	for _, l := range p.Locked {
		if l.Seq == h.Seq && (l.State == StatePending || l.State == StateConfirmed) {
			return l.State, nil, nil
		}
	}
	switch h.State {
	case StateVoided:
		return StateVoided, nil, h.SettledAt
	case StatePaid:
		return StatePaid, h.SettledAt, nil
	}
	return StatePaid, timeOf(h.PaidAt), nil
}
