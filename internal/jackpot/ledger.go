package jackpot

import (
	"fmt"
	"math"
	"math/big"
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
)

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
	// Actor is the authenticated principal who did it, and its role.
	Actor *Actor `json:"actor,omitempty"`
	// Corrects is the commit of the round a correction's entry corrects
	// (ruling R28); Recovered what a house recovery claims from a winner.
	Corrects  string       `json:"corrects,omitempty"`
	Recovered money.Amount `json:"recovered,omitempty"`
	// Who and why, for adjustments and settings changes.
	By     string    `json:"by,omitempty"`
	Reason string    `json:"reason,omitempty"`
	Old    *Settings `json:"old,omitempty"`
	New    *Settings `json:"new,omitempty"`
	Rules  []string  `json:"rules,omitempty"`
	Note   string    `json:"note,omitempty"`
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
}

func (c *change) post(e Entry) Entry {
	p := c.pool
	p.Seq++
	e.Seq = p.Seq
	e.Pool = p.ID
	e.At = c.now
	if err := applyEntry(&p.Meters, e); err != nil && c.err == nil {
		c.err = err
	}
	c.entries = append(c.entries, e)
	return e
}

// overflowError is the refusal of a change that would take a meter past
// the largest amount an int64 of minor units holds (it never wraps). Its
// field "pool" is the pool the request addresses.
func overflowError(err error) error {
	return fault.InvalidField(FieldPool, nil, "refused, nothing applied: %s (a meter cannot hold more than 9,223,372,036,854,775,807 minor units; adjust the pool)", err.Error())
}

// FieldPool is the Error.Field of a refusal about the pool itself (not a
// field of the body): internal/httpapi names it as the request's pool id.
const FieldPool = "pool"

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

// Difference is one meter that does not match the ledger.
type Difference struct {
	Meter  string `json:"meter"`
	Meters int64  `json:"meters"`
	Ledger int64  `json:"ledger"`
}

// Reconciliation is the meters rebuilt from the ledger and what differs.
type Reconciliation struct {
	Pool        string       `json:"pool"`
	Entries     int64        `json:"entries"`
	Rebuilt     Meters       `json:"rebuilt"`
	Differences []Difference `json:"differences"`
	// RateSum and RateSumReserve are sum(wager x rate) over the whole
	// ledger, in 1/10000 of the minor unit, as exact decimal integers (they
	// may outgrow an int64): Rebuilt.Contributed x 10000 + carried must
	// equal them.
	RateSum        string `json:"rateSum"`
	RateSumReserve string `json:"rateSumReserve"`
	// Problems are ledger entries that do not add up on their own (a
	// payout whose funding does not sum to it, a gap in the sequence).
	Problems []string `json:"problems"`
	OK       bool     `json:"ok"`
}

// Reconcile rebuilds p's meters from its whole ledger (oldest first) and
// reports every difference, and checks the invariants each entry and the
// whole must keep: the sequence has no gap; a payout's or a reset's funding
// sums to it, source by source to the meters it moved; a contribution's
// credit is its wagers x the rates in force, split between the meters, with
// credited x 10000 + carry change == wagers x rate; the money meters never
// go below zero; and, over the whole ledger (exactly, in math/big),
// credited x 10000 + carried == sum(wager x rate) for both rates.
func Reconcile(p Pool, ledger []Entry) Reconciliation {
	r := Reconciliation{Pool: p.ID, Entries: int64(len(ledger)), Rebuilt: Meters{Hits: map[string]CategoryMeter{}}}
	problem := func(format string, args ...any) { r.Problems = append(r.Problems, fmt.Sprintf(format, args...)) }
	rateSum, rateSumR := new(big.Int), new(big.Int)
	var rates *Settings // the settings in force: the opening's, then each that took effect
	b10k := big.NewInt(10000)
	// credit reports whether credited x 10000 + carry == rate, exactly.
	credit := func(credited money.Amount, carry, rate int64) bool {
		x := new(big.Int).Mul(big.NewInt(int64(credited)), b10k)
		x.Add(x, big.NewInt(carry))
		return x.Cmp(big.NewInt(rate)) == 0
	}
	for i, e := range ledger {
		if e.Seq != int64(i+1) {
			problem("entry %d has seq %d: the ledger has a gap or a repeat", i+1, e.Seq)
		}
		if err := applyEntry(&r.Rebuilt, e); err != nil {
			problem("entry %d: %v", e.Seq, err)
		}
		var funded money.Amount
		by := map[Source]money.Amount{}
		for _, f := range e.Funding {
			if f.Amount <= 0 {
				problem("entry %d: a %s funding of %d is not positive", e.Seq, f.Source, f.Amount)
			}
			var err1, err2 error
			funded, err1 = money.Add(funded, f.Amount)
			by[f.Source], err2 = money.Add(by[f.Source], f.Amount)
			if err1 != nil || err2 != nil {
				problem("entry %d: its funding overflows", e.Seq)
			}
		}
		sources := func() {
			if by[SourcePool] != -e.Displayed || by[SourceOverflow] != -e.Overflow || by[SourceReserve] != -e.Reserve || by[SourceHouse] != e.HouseFunded {
				problem("entry %d: %s funded pool %d overflow %d reserve %d house %d but moved displayed %d overflow %d reserve %d house %d",
					e.Seq, e.Kind, by[SourcePool], by[SourceOverflow], by[SourceReserve], by[SourceHouse], e.Displayed, e.Overflow, e.Reserve, e.HouseFunded)
			}
		}
		switch e.Kind {
		case KindHit:
			if funded != e.Paid {
				problem("entry %d: hit paid %d but funded %d", e.Seq, e.Paid, funded)
			}
			sources()
		case KindHitVoid:
			// A reversal returns the funding to its sources.
			if funded != e.Paid {
				problem("entry %d: void returned %d but the hit was funded %d", e.Seq, e.Paid, funded)
			}
			if by[SourcePool] != e.Displayed || by[SourceOverflow] != e.Overflow || by[SourceReserve] != e.Reserve || by[SourceHouse] != -e.HouseFunded {
				problem("entry %d: hit_void does not return its funding to its sources", e.Seq)
			}
		case KindHouseRecovery, KindHouseTopUp:
			if funded != e.HouseFunded || by[SourceHouse] != e.HouseFunded || e.Displayed+e.Overflow+e.Reserve != e.HouseFunded {
				problem("entry %d: house_recovery returns %d to the meters but the house funded %d", e.Seq, e.Displayed+e.Overflow+e.Reserve, funded)
			}
		case KindResetVoid:
			if funded != -e.Displayed || by[SourcePool] != 0 || by[SourceOverflow] != e.Overflow || by[SourceReserve] != e.Reserve || by[SourceHouse] != -e.HouseFunded {
				problem("entry %d: reset_void does not return the reset's funding to its sources", e.Seq)
			}
		case KindReset, KindOpening:
			if funded != e.Displayed {
				problem("entry %d: %s credited %d but funded %d", e.Seq, e.Kind, e.Displayed, funded)
			}
			if by[SourcePool] != 0 {
				problem("entry %d: the pool cannot fund its own %s", e.Seq, e.Kind)
			}
			by[SourcePool] = -e.Displayed // it credits the displayed meter
			sources()
		case KindContribution:
			if e.Contributed != e.Displayed+e.Overflow || e.ContributedReserve != e.Reserve {
				problem("entry %d: contribution credited %d and %d but moved displayed %d overflow %d reserve %d", e.Seq, e.Contributed, e.ContributedReserve, e.Displayed, e.Overflow, e.Reserve)
			}
			if !credit(e.Contributed, e.CarryDisplayed, e.RateSum) || !credit(e.ContributedReserve, e.CarryReserve, e.RateSumReserve) {
				problem("entry %d: credited x 10000 + carry change != wagers x rate", e.Seq)
			}
			if rates != nil {
				w := big.NewInt(int64(e.WagerAmount))
				if new(big.Int).Mul(w, big.NewInt(int64(rates.ContributionBP))).Cmp(big.NewInt(e.RateSum)) != 0 ||
					new(big.Int).Mul(w, big.NewInt(int64(rates.ReserveBP))).Cmp(big.NewInt(e.RateSumReserve)) != 0 {
					problem("entry %d: wagers %d at %d and %d bp are not the entry's rate sums %d and %d", e.Seq, e.WagerAmount, rates.ContributionBP, rates.ReserveBP, e.RateSum, e.RateSumReserve)
				}
			}
			rateSum.Add(rateSum, big.NewInt(e.RateSum))
			rateSumR.Add(rateSumR, big.NewInt(e.RateSumReserve))
		}
		if m := r.Rebuilt; m.Displayed < 0 || m.Reserve < 0 || m.Overflow < 0 || m.CarryDisplayed < 0 || m.CarryDisplayed >= 10000 || m.CarryReserve < 0 || m.CarryReserve >= 10000 {
			problem("entry %d leaves displayed %d reserve %d overflow %d carries %d %d: out of range", e.Seq, m.Displayed, m.Reserve, m.Overflow, m.CarryDisplayed, m.CarryReserve)
		}
		if e.New != nil && (e.Kind == KindOpening || e.Kind == KindSettingsEffective) {
			s := *e.New
			rates = &s
		}
	}
	if int64(len(ledger)) != p.Seq {
		problem("the pool counts %d entries, the ledger has %d", p.Seq, len(ledger))
	}
	// The pool's last hits and held hits are what the ledger says.
	var hits []HitRecord
	held := map[int64]bool{}
	for _, e := range ledger {
		switch e.Kind {
		case KindHit:
			hits = append(hits, HitRecord{Seq: e.Seq, Table: e.Table, Round: e.Round, Seat: e.Seat, Category: e.Category, Paid: e.Paid, PaidAt: e.At})
			if e.HeldSeq != 0 {
				delete(held, e.HeldSeq)
			}
		case KindHeld:
			held[e.Seq] = true
		case KindHeldVoid:
			delete(held, e.HitSeq)
		}
	}
	hits = hits[max(0, len(hits)-LastHitsKept):]
	same := len(hits) == len(p.LastHits)
	for i := 0; same && i < len(hits); i++ {
		a, b := hits[i], p.LastHits[i]
		same = a.Seq == b.Seq && a.Table == b.Table && a.Round == b.Round && a.Seat == b.Seat && a.Category == b.Category && a.Paid == b.Paid && a.PaidAt.Equal(b.PaidAt)
	}
	if !same {
		problem("the pool's last hits are not the ledger's last %d hits", len(hits))
	}
	same = len(held) == len(p.Held)
	for _, h := range p.Held {
		same = same && held[h.Seq]
	}
	if !same {
		problem("the pool holds %d hits, the ledger %d still unpaid", len(p.Held), len(held))
	}
	m, b := p.Meters, r.Rebuilt
	cmp := func(name string, meters, ledger int64) {
		if meters != ledger {
			r.Differences = append(r.Differences, Difference{Meter: name, Meters: meters, Ledger: ledger})
		}
	}
	cmp("displayed", int64(m.Displayed), int64(b.Displayed))
	cmp("reserve", int64(m.Reserve), int64(b.Reserve))
	cmp("overflow", int64(m.Overflow), int64(b.Overflow))
	cmp("carry_displayed", m.CarryDisplayed, b.CarryDisplayed)
	cmp("carry_reserve", m.CarryReserve, b.CarryReserve)
	cmp("contributed", int64(m.Contributed), int64(b.Contributed))
	cmp("contributed_reserve", int64(m.ContributedReserve), int64(b.ContributedReserve))
	cmp("wagers", m.Wagers, b.Wagers)
	cmp("wager_amount", int64(m.WagerAmount), int64(b.WagerAmount))
	cmp("house_funded", int64(m.HouseFunded), int64(b.HouseFunded))
	cmp("resets", m.Resets, b.Resets)
	cats := map[string]bool{}
	for k := range m.Hits {
		cats[k] = true
	}
	for k := range b.Hits {
		cats[k] = true
	}
	for _, k := range sortedKeys(cats) {
		cmp("hits."+k+".count", m.Hits[k].Count, b.Hits[k].Count)
		cmp("hits."+k+".paid", int64(m.Hits[k].Paid), int64(b.Hits[k].Paid))
		cmp("hits."+k+".from_pool", int64(m.Hits[k].FromPool), int64(b.Hits[k].FromPool))
	}
	r.RateSum, r.RateSumReserve = rateSum.String(), rateSumR.String()
	total := func(credited money.Amount, carry int64) *big.Int {
		x := new(big.Int).Mul(big.NewInt(int64(credited)), b10k)
		return x.Add(x, big.NewInt(carry))
	}
	if total(b.Contributed, b.CarryDisplayed).Cmp(rateSum) != 0 {
		problem("contributed %d x 10000 + carried %d != sum(wager x rate) %s", b.Contributed, b.CarryDisplayed, rateSum)
	}
	if total(b.ContributedReserve, b.CarryReserve).Cmp(rateSumR) != 0 {
		problem("reserve contributed %d x 10000 + carried %d != sum(wager x reserve rate) %s", b.ContributedReserve, b.CarryReserve, rateSumR)
	}
	r.OK = len(r.Differences) == 0 && len(r.Problems) == 0
	return r
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
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

// MetersAt rebuilds the meters from the entries of ledger committed at or
// before at.
func MetersAt(pool string, ledger []Entry, at time.Time) (AsOf, error) {
	out := AsOf{Pool: pool, At: at, Meters: Meters{Hits: map[string]CategoryMeter{}}}
	for _, e := range ledger {
		if e.At.After(at) {
			continue
		}
		if err := applyEntry(&out.Meters, e); err != nil {
			return AsOf{}, err
		}
		out.Entries++
		out.ThroughSeq = max(out.ThroughSeq, e.Seq)
	}
	return out, nil
}
