package jackpot

import (
	"fmt"
	"time"

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
	Wagers             int64        `json:"wagers,omitempty"`
	WagerAmount        money.Amount `json:"wagerAmount,omitempty"`
	RateSum            int64        `json:"rateSum,omitempty"`
	RateSumReserve     int64        `json:"rateSumReserve,omitempty"`
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
// through post, so they are the sum over the ledger by construction.
type change struct {
	pool    *Pool
	now     time.Time
	entries []Entry
}

func (c *change) post(e Entry) Entry {
	p := c.pool
	p.Seq++
	e.Seq = p.Seq
	e.Pool = p.ID
	e.At = c.now
	applyEntry(&p.Meters, e)
	c.entries = append(c.entries, e)
	return e
}

// applyEntry adds one entry's deltas to m. It is shared by the
// transitions (through post) and by Reconcile.
func applyEntry(m *Meters, e Entry) {
	m.Displayed += e.Displayed
	m.Reserve += e.Reserve
	m.Overflow += e.Overflow
	m.CarryDisplayed += e.CarryDisplayed
	m.CarryReserve += e.CarryReserve
	m.Wagers += e.Wagers
	m.WagerAmount += e.WagerAmount
	m.RateSum += e.RateSum
	m.RateSumReserve += e.RateSumReserve
	m.Contributed += e.Contributed
	m.ContributedReserve += e.ContributedReserve
	m.HouseFunded += e.HouseFunded
	switch e.Kind {
	case KindHit:
		if m.Hits == nil {
			m.Hits = map[string]CategoryMeter{}
		}
		h := m.Hits[e.Category]
		h.Count++
		h.Paid += e.Paid
		h.FromPool += -e.Displayed
		m.Hits[e.Category] = h
	case KindReset:
		m.Resets++
	}
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
	// Problems are ledger entries that do not add up on their own (a
	// payout whose funding does not sum to it, a gap in the sequence).
	Problems []string `json:"problems"`
	OK       bool     `json:"ok"`
}

// Reconcile rebuilds p's meters from its whole ledger (oldest first) and
// reports every difference, and checks the invariants each entry and the
// whole must keep: funding sums to what it pays, the sequence has no gap,
// and credited + carried == sum(wager x rate) for both contribution rates.
func Reconcile(p Pool, ledger []Entry) Reconciliation {
	r := Reconciliation{Pool: p.ID, Entries: int64(len(ledger)), Rebuilt: Meters{Hits: map[string]CategoryMeter{}}}
	for i, e := range ledger {
		if e.Seq != int64(i+1) {
			r.Problems = append(r.Problems, fmt.Sprintf("entry %d has seq %d: the ledger has a gap or a repeat", i+1, e.Seq))
		}
		applyEntry(&r.Rebuilt, e)
		var funded money.Amount
		for _, f := range e.Funding {
			funded += f.Amount
		}
		switch e.Kind {
		case KindHit:
			if funded != e.Paid {
				r.Problems = append(r.Problems, fmt.Sprintf("entry %d: hit paid %d but funded %d", e.Seq, e.Paid, funded))
			}
		case KindReset, KindOpening:
			if funded != e.Displayed {
				r.Problems = append(r.Problems, fmt.Sprintf("entry %d: %s credited %d but funded %d", e.Seq, e.Kind, e.Displayed, funded))
			}
		}
	}
	if int64(len(ledger)) != p.Seq {
		r.Problems = append(r.Problems, fmt.Sprintf("the pool counts %d entries, the ledger has %d", p.Seq, len(ledger)))
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
	cmp("rate_sum", m.RateSum, b.RateSum)
	cmp("rate_sum_reserve", m.RateSumReserve, b.RateSumReserve)
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
	if int64(b.Contributed)*10000+b.CarryDisplayed != b.RateSum {
		r.Problems = append(r.Problems, fmt.Sprintf("contributed %d x 10000 + carried %d != sum(wager x rate) %d", b.Contributed, b.CarryDisplayed, b.RateSum))
	}
	if int64(b.ContributedReserve)*10000+b.CarryReserve != b.RateSumReserve {
		r.Problems = append(r.Problems, fmt.Sprintf("reserve contributed %d x 10000 + carried %d != sum(wager x reserve rate) %d", b.ContributedReserve, b.CarryReserve, b.RateSumReserve))
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
