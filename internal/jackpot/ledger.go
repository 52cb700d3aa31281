package jackpot

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
)

// Kind is what a ledger entry records.
type Kind string

// The ledger entry kinds. Only contributions, hits, resets, the opening
// seed and adjustments move the meters.
const (
	KindOpening           Kind = "opening"            // the first seed, funded by the house (R21)
	KindContribution      Kind = "contribution"       // a round's accepted progressive wagers (R4)
	KindHit               Kind = "hit"                // a jackpot payout
	KindHeld              Kind = "held"               // an RWS major hit held for the settle window (R7)
	KindReset             Kind = "reset"              // the pool restarting from its reset amount (R3, R21)
	KindAdjustment        Kind = "adjustment"         // a recorded, signed correction of a meter
	KindSettingsChange    Kind = "settings_change"    // a change recorded, waiting for the next reset
	KindSettingsEffective Kind = "settings_effective" // a recorded change taking effect after a reset
	KindHitConfirmed      Kind = "hit_confirmed"      // a pending hit verified by a supervisor (the jackpot lock)
	KindHitPaid           Kind = "hit_paid"           // a confirmed hit paid by the cage
	KindHitVoid           Kind = "hit_void"           // a pending hit voided: its amount back to its sources
	KindResetVoid         Kind = "reset_void"         // the reset of a voided hit reversed
	KindHeldVoid          Kind = "held_void"          // a held hit withdrawn by a correction of its round
	KindHouseRecovery     Kind = "house_recovery"     // a paid hit taken back: the house refunds the meters and recovers it from the winner
	KindHouseTopUp        Kind = "house_top_up"       // the house funds a meter a correction's refund would take below zero
	KindProposal          Kind = "proposal"           // a change proposed, waiting for a second principal (dual control)
	KindProposalWithdrawn Kind = "proposal_withdrawn" // a proposal withdrawn by its proposer
	KindProposalExpired   Kind = "proposal_expired"   // a proposal that expired unapproved
)

// AboutHit reports whether an entry of kind k is about a hit: one that
// makes a hit (hit, held) or tells what became of it (hit_confirmed,
// hit_paid, hit_void, held_void, house_recovery), or records a void round
// and the hands it held that would have hit (round_void). These are every entry
// AllHits reads, so a store can keep them apart from the pool's many
// contributions (pools.HitLedger).
func (k Kind) AboutHit() bool {
	switch k {
	case KindHit, KindHeld, KindHitConfirmed, KindHitPaid, KindHitVoid, KindHeldVoid, KindHouseRecovery, KindRoundVoid:
		return true
	}
	return false
}

// Source is where money paid out or into a meter comes from.
type Source string

// The funding sources (ruling R21).
const (
	SourcePool     Source = "pool" // the displayed meter
	SourceOverflow Source = "overflow"
	SourceReserve  Source = "reserve"
	SourceHouse    Source = "house"
)

// Funding is one source's part of a payout or a reset.
type Funding struct {
	Source Source       `json:"source"`
	Amount money.Amount `json:"amount"`
}

// Entry is one ledger entry. The meter fields are signed deltas: the sum of
// every entry's deltas is the pool's meters (Reconcile).
type Entry struct {
	Pool  string    `json:"pool"`
	Seq   int64     `json:"seq"`
	At    time.Time `json:"at"`
	Kind  Kind      `json:"kind"`
	Table string    `json:"table,omitempty"`
	Round string    `json:"round,omitempty"`
	// Seat and Category for hits; Dealt is the dealing order at the table.
	Seat     int        `json:"seat,omitempty"`
	Dealt    int        `json:"dealt,omitempty"`
	Category string     `json:"category,omitempty"`
	DealtAt  *time.Time `json:"dealtAt,omitempty"`

	Displayed      money.Amount `json:"displayed,omitempty"`
	Reserve        money.Amount `json:"reserve,omitempty"`
	Overflow       money.Amount `json:"overflow,omitempty"`
	CarryDisplayed int64        `json:"carryDisplayed,omitempty"`
	CarryReserve   int64        `json:"carryReserve,omitempty"`
	// Contributions: the round's accepted progressive wagers, their
	// sum(wager x rate) in 1/10000 minor units, and what was credited.
	Wagers         int64        `json:"wagers,omitempty"`
	WagerAmount    money.Amount `json:"wagerAmount,omitempty"`
	RateSum        int64        `json:"rateSum,omitempty"`
	RateSumReserve int64        `json:"rateSumReserve,omitempty"`
	// Commit is the id of the commit attempt that wrote the entry: how a
	// writer whose answer was lost recognises its own commit.
	Commit             string       `json:"commit,omitempty"`
	Contributed        money.Amount `json:"contributed,omitempty"`
	ContributedReserve money.Amount `json:"contributedReserve,omitempty"`
	// Paid is what a winner is paid (hits), Funding where it came from
	// (hits and resets), HouseFunded the house's part of it.
	Paid          money.Amount `json:"paid,omitempty"`
	StakeReturned money.Amount `json:"stakeReturned,omitempty"`
	Funding       []Funding    `json:"funding,omitempty"`
	HouseFunded   money.Amount `json:"houseFunded,omitempty"`
	// Shared is the number of winners a shared prize was divided among (R5).
	Shared int `json:"shared,omitempty"`
	// HeldSeq links a paid hit to the entry that held it (R7).
	HeldSeq int64 `json:"heldSeq,omitempty"`
	// HitSeq is the hit entry a lock entry (confirm, paid, void) is about;
	// ResetSeq the reset entry a reset_void reverses.
	HitSeq   int64 `json:"hitSeq,omitempty"`
	ResetSeq int64 `json:"resetSeq,omitempty"`
	// Actor is the authenticated principal who did it (who proposed it,
	// under dual control), and its role.
	Actor *Actor `json:"actor,omitempty"`
	// ApprovedBy is the second principal who approved the change (dual
	// control); Proposal the proposal the entry belongs to (the sequence
	// number of its proposal entry).
	ApprovedBy *Actor `json:"approvedBy,omitempty"`
	Proposal   int64  `json:"proposal,omitempty"`
	// Corrects is the commit of the round a correction's entry corrects
	// (ruling R28); Recovered what a house recovery claims from a winner.
	Corrects  string       `json:"corrects,omitempty"`
	Recovered money.Amount `json:"recovered,omitempty"`
	// By is who signed an adjustment or a settings change in entries
	// written before the ledger recorded the authenticated principal
	// (Actor); new entries leave it empty. Reason is why.
	By     string    `json:"by,omitempty"`
	Reason string    `json:"reason,omitempty"`
	Old    *Settings `json:"old,omitempty"`
	New    *Settings `json:"new,omitempty"`
	Rules  []string  `json:"rules,omitempty"`
	Note   string    `json:"note,omitempty"`
	// Irregularities and VoidHands are a round_void entry's: what
	// settlement found, and the hands that would have hit.
	Irregularities []Irregularity `json:"irregularities,omitempty"`
	VoidHands      []VoidHand     `json:"voidHands,omitempty"`
}

// change collects the ledger entries of one transition and applies each
// one's deltas to the pool's meters as it is posted: the meters move only
// through post, so they are the sum over the ledger by construction. The
// first overflow of a meter is kept in err, and the transition is refused.
type change struct {
	pool    *Pool
	now     time.Time
	entries []Entry
	err     error
	rules   Rules // the rulesets' descriptions, for the clauses cited
	// releaser is who a release of held hits is recorded as (releaseDue):
	// nil for the service's clock (Clock).
	releaser *Actor
}

func (c *change) post(e Entry) Entry {
	p := c.pool
	p.Seq++
	e.Seq = p.Seq
	e.Pool = p.ID
	e.At = c.now
	p.Stamps = p.Stamps.With(e)
	if err := applyEntry(&p.Meters, e); err != nil && c.err == nil {
		c.err = err
	}
	c.entries = append(c.entries, e)
	return e
}

// overflowError is the refusal of a change that would take a meter past
// the largest amount an int64 of minor units holds (it never wraps),
// stated in the pool's currency c: "a meter holds at most
// SGD 92,233,720,368,547,758.07". Its field "pool" is the pool the request
// addresses.
func overflowError(c money.Currency, err error) error {
	what := err.Error()
	if errors.Is(err, money.ErrOverflow) {
		what = "an amount would overflow"
	}
	return fault.InvalidField(FieldPool, nil, "refused, nothing applied: %s (a meter holds at most %s; adjust the pool)", what, c.Format(math.MaxInt64))
}

// FieldPool is the Error.Field of a refusal about the pool itself (not a
// field of the body): internal/httpapi names it as the request's pool id.
const FieldPool = "pool"

// FieldHit names the hit a lock operation (confirm, pay, void) was asked
// for, by its sequence number: the HTTP layer places it at the path's
// {seq}.
const FieldHit = "seq"

// addChecked adds v to *dst, or reports the meter that would overflow.
func addChecked[T ~int64](name string, dst *T, v T) error {
	s, err := money.Add(money.Amount(*dst), money.Amount(v))
	if err != nil {
		return fmt.Errorf("the %s meter would overflow", name)
	}
	*dst = T(s)
	return nil
}

// applyEntry adds one entry's deltas to m, every addition checked. It is
// shared by the transitions (through post) and by Reconcile.
func applyEntry(m *Meters, e Entry) error {
	for _, a := range []struct {
		name string
		dst  *money.Amount
		v    money.Amount
	}{
		{"displayed", &m.Displayed, e.Displayed},
		{"reserve", &m.Reserve, e.Reserve},
		{"overflow", &m.Overflow, e.Overflow},
		{"carryDisplayed", (*money.Amount)(&m.CarryDisplayed), money.Amount(e.CarryDisplayed)},
		{"carryReserve", (*money.Amount)(&m.CarryReserve), money.Amount(e.CarryReserve)},
		{"wagers", (*money.Amount)(&m.Wagers), money.Amount(e.Wagers)},
		{"wagerAmount", &m.WagerAmount, e.WagerAmount},
		{"contributed", &m.Contributed, e.Contributed},
		{"contributedReserve", &m.ContributedReserve, e.ContributedReserve},
		{"houseFunded", &m.HouseFunded, e.HouseFunded},
	} {
		if err := addChecked(a.name, a.dst, a.v); err != nil {
			return err
		}
	}
	switch e.Kind {
	case KindHit:
		if m.Hits == nil {
			m.Hits = map[string]CategoryMeter{}
		}
		h := m.Hits[e.Category]
		h.Count++
		if err := addChecked("hits."+e.Category+".paid", &h.Paid, e.Paid); err != nil {
			return err
		}
		if e.Displayed == money.Amount(math.MinInt64) {
			return fmt.Errorf("the hits.%s.fromPool meter would overflow", e.Category)
		}
		if err := addChecked("hits."+e.Category+".fromPool", &h.FromPool, -e.Displayed); err != nil {
			return err
		}
		m.Hits[e.Category] = h
	case KindHitVoid, KindHouseRecovery:
		// The reversal of a hit: one hit fewer, its amount and its pool
		// part (the displayed delta, positive here) taken back.
		h := m.Hits[e.Category]
		h.Count--
		if err := addChecked("hits."+e.Category+".paid", &h.Paid, -e.Paid); err != nil {
			return err
		}
		if err := addChecked("hits."+e.Category+".fromPool", &h.FromPool, -e.Displayed); err != nil {
			return err
		}
		m.Hits[e.Category] = h
	case KindReset:
		m.Resets++
	case KindResetVoid:
		m.Resets--
	}
	return nil
}

// AsOf is a pool's meters as they stood at an instant (RWS 5.18.1, and
// disputes): the sum of every ledger entry committed at or before it.
type AsOf struct {
	Pool string    `json:"pool"`
	At   time.Time `json:"at"`
	// Entries is how many entries it sums; ThroughSeq the last of them
	// (the ledger read up to it is the ledger as it stood).
	Entries    int64  `json:"entries"`
	ThroughSeq int64  `json:"throughSeq"`
	Meters     Meters `json:"meters"`
}

// MetersAt rebuilds the meters from the entries of ledger (oldest first)
// committed at or before at: the ledger up to the first entry stamped
// after at. It is a prefix, so the meters are ones the pool showed: a
// writer whose clock is behind stamps a later commit earlier, and summing
// its entries without the ones committed before them would make meters
// that never stood.
func MetersAt(pool string, ledger []Entry, at time.Time) (AsOf, error) {
	return WholeLedger(ledger).MetersAt(pool, at)
}

// MetersAt is MetersAt of the ledger l, whose head must be stamped at or
// before at (Stamps.Settled): the head and the tail up to its first entry
// stamped after at.
func (l Ledger) MetersAt(pool string, at time.Time) (AsOf, error) {
	out := AsOf{Pool: pool, At: at, Meters: l.Before, Entries: l.Head, ThroughSeq: l.Head}
	out.Meters.Hits = make(map[string]CategoryMeter, len(l.Before.Hits))
	for k, v := range l.Before.Hits {
		out.Meters.Hits[k] = v
	}
	for _, e := range l.Tail {
		if e.At.After(at) {
			break
		}
		if err := applyEntry(&out.Meters, e); err != nil {
			return AsOf{}, err
		}
		out.Entries++
		out.ThroughSeq = max(out.ThroughSeq, e.Seq)
	}
	return out, nil
}
