package jackpot

import (
	"cmp"
	"fmt"
	"sort"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
)

// Shift reports and jackpot slips (issue 24 item 8), read from the ledger
// alone (and the pool for the hits still under the lock).

// TableContribution is what one table's rounds credited in a report's
// range.
type TableContribution struct {
	Table       string       `json:"table"`
	Rounds      int64        `json:"rounds"`
	Wagers      int64        `json:"wagers"`
	WagerAmount money.Amount `json:"wagerAmount"`
	Displayed   money.Amount `json:"displayed"`
	Reserve     money.Amount `json:"reserve"`
	Overflow    money.Amount `json:"overflow"`
}

// ReportEntry is one adjustment or correction entry in a report.
type ReportEntry struct {
	Seq        int64        `json:"seq"`
	At         time.Time    `json:"at"`
	Kind       Kind         `json:"kind"`
	Table      string       `json:"table,omitempty"`
	Round      string       `json:"round,omitempty"`
	Meter      string       `json:"meter,omitempty"`
	Amount     money.Amount `json:"amount" doc:"Signed, in minor units, as the ledger's amount: an adjustment's amount; a reversal negative."`
	Recovered  money.Amount `json:"recovered,omitempty" doc:"A house recovery: what the house recovers from the winner."`
	Reason     string       `json:"reason,omitempty"`
	Actor      *Actor       `json:"actor,omitempty"`
	ApprovedBy *Actor       `json:"approvedBy,omitempty"`
}

// Liabilities are the hits committed but not paid at a report's end:
// their winners are owed them.
type Liabilities struct {
	Pending   []FloorHit   `json:"pending" doc:"Hits under the jackpot lock waiting for a supervisor at the end of the range."`
	Confirmed []FloorHit   `json:"confirmed" doc:"Hits verified, not yet paid by the cage at the end of the range."`
	Held      []FloorHit   `json:"held" doc:"RWS hits held for their settle window at the end of the range (their amount is fixed when paid)."`
	Total     money.Amount `json:"total" doc:"The pending and confirmed hits' amounts, in minor units."`
}

// Report is a pool's shift report over (From, To].
type Report struct {
	Pool          string              `json:"pool"`
	Currency      money.Currency      `json:"currency"`
	From          time.Time           `json:"from"`
	To            time.Time           `json:"to"`
	Opening       MeterView           `json:"opening" doc:"The meters as they stood at from."`
	Closing       MeterView           `json:"closing" doc:"The meters as they stood at to."`
	Contributions []TableContribution `json:"contributions" doc:"By table, in table order."`
	Contributed   TableContribution   `json:"contributed" doc:"Every table's together (table empty)."`
	Hits          []FloorHit          `json:"hits" doc:"The hits committed in the range, as they stood at to."`
	Adjustments   []ReportEntry       `json:"adjustments"`
	Corrections   []ReportEntry       `json:"corrections" doc:"Voids, reversals, house recoveries and top-ups of corrected rounds and voided hits."`
	Liabilities   Liabilities         `json:"liabilities"`
}

// ShiftReport reports p over (from, to] from ledger (oldest first, the
// whole of it up to p's Seq). Entries are taken in ledger order up to the
// first stamped after to (the ledger as it stood, as MetersAt).
func ShiftReport(p Pool, ledger []Entry, from, to time.Time) (Report, error) {
	return WholeLedger(ledger).ShiftReport(p, from, to)
}

// ShiftReport is ShiftReport of p's ledger l, whose head must be stamped
// at or before from (Stamps.Settled): what the report reads from before
// from is the head's sum and its entries about hits.
func (l Ledger) ShiftReport(p Pool, from, to time.Time) (Report, error) {
	r := Report{Pool: p.ID, Currency: p.Settings.Currency, From: from, To: to, Contributions: []TableContribution{},
		Adjustments: []ReportEntry{}, Corrections: []ReportEntry{}, Hits: []FloorHit{},
		Liabilities: Liabilities{Pending: []FloorHit{}, Confirmed: []FloorHit{}, Held: []FloorHit{}}}
	open, err := l.MetersAt(p.ID, from)
	if err != nil {
		return Report{}, err
	}
	closing, err := l.MetersAt(p.ID, to)
	if err != nil {
		return Report{}, err
	}
	r.Opening = MeterView{Displayed: open.Meters.Displayed, Reserve: open.Meters.Reserve, Overflow: open.Meters.Overflow}
	r.Closing = MeterView{Displayed: closing.Meters.Displayed, Reserve: closing.Meters.Reserve, Overflow: closing.Meters.Overflow}
	// The entries about hits up to to: the tail's, and the head's from the
	// first of its hits that can be open at to on (OpenFrom); any other
	// hit of the head was closed by from and committed before it, so it is
	// in neither the range nor the liabilities.
	first := OpenFrom(p, l.Tail)
	if first < l.HitsFrom {
		return Report{}, fmt.Errorf("jackpot: the report of %s needs the entries about hits from %d, read from %d", p.ID, first, l.HitsFrom)
	}
	head, _ := sort.Find(len(l.Hits), func(i int) int { return cmp.Compare(first, l.Hits[i].Seq) })
	prefix := append(l.Hits[head:len(l.Hits):len(l.Hits)], l.Tail[:closing.Entries-l.Head]...)
	// Which hits went under the lock: those the lock's entries name, and
	// those the pool holds there now.
	locked := map[int64]bool{}
	for _, es := range [][]Entry{l.Hits, l.Tail} {
		for _, e := range es {
			if e.Kind == KindHitConfirmed || e.Kind == KindHitPaid || e.Kind == KindHitVoid {
				locked[e.HitSeq] = true
			}
		}
	}
	for _, h := range p.Locked {
		locked[h.Seq] = true
	}
	byTable := map[string]*TableContribution{}
	for _, e := range l.Tail[open.Entries-l.Head : closing.Entries-l.Head] {
		switch {
		case e.Kind == KindContribution && e.Corrects == "":
			c := byTable[e.Table]
			if c == nil {
				c = &TableContribution{Table: e.Table}
				byTable[e.Table] = c
			}
			c.Rounds++
			c.Wagers += e.Wagers
			c.WagerAmount += e.WagerAmount
			c.Displayed += e.Displayed
			c.Reserve += e.Reserve
			c.Overflow += e.Overflow
		case e.Kind == KindAdjustment:
			meter, amount := "displayed", e.Displayed
			if e.Reserve != 0 {
				meter, amount = "reserve", e.Reserve
			} else if e.Overflow != 0 {
				meter, amount = "overflow", e.Overflow
			}
			r.Adjustments = append(r.Adjustments, ReportEntry{Seq: e.Seq, At: e.At, Kind: e.Kind, Meter: meter, Amount: amount, Reason: e.Reason, Actor: e.Actor, ApprovedBy: e.ApprovedBy})
		case e.Kind == KindHitVoid || e.Kind == KindResetVoid || e.Kind == KindHeldVoid || e.Kind == KindHouseRecovery || e.Kind == KindHouseTopUp || e.Corrects != "":
			r.Corrections = append(r.Corrections, ReportEntry{Seq: e.Seq, At: e.At, Kind: e.Kind, Table: e.Table, Round: e.Round, Amount: SignedAmount(e),
				Recovered: e.Recovered, Reason: e.Reason, Actor: e.Actor, ApprovedBy: e.ApprovedBy})
		}
	}
	tables := make([]string, 0, len(byTable))
	for t := range byTable {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	r.Contributed = TableContribution{}
	for _, t := range tables {
		c := *byTable[t]
		r.Contributions = append(r.Contributions, c)
		r.Contributed.Rounds += c.Rounds
		r.Contributed.Wagers += c.Wagers
		r.Contributed.WagerAmount += c.WagerAmount
		r.Contributed.Displayed += c.Displayed
		r.Contributed.Reserve += c.Reserve
		r.Contributed.Overflow += c.Overflow
	}
	// The hits as they stood at to: the prefix's fold, a hit under the
	// lock pending until its confirmation.
	asOf := Pool{ID: p.ID, Settings: p.Settings}
	for _, h := range AllHits(asOf, prefix, "", 0, to) {
		if locked[h.Seq] && h.State == StatePaid && h.ConfirmedAt == nil {
			// Under the lock and not confirmed by to: pending then.
			h.State, h.PaidAt, h.PaidBy = StatePending, nil, nil
		}
		switch h.State {
		case StatePending:
			r.Liabilities.Pending = append(r.Liabilities.Pending, h)
			r.Liabilities.Total += *h.Amount
		case StateConfirmed:
			r.Liabilities.Confirmed = append(r.Liabilities.Confirmed, h)
			r.Liabilities.Total += *h.Amount
		case StateHeld:
			r.Liabilities.Held = append(r.Liabilities.Held, h)
		}
		if h.CommittedAt.After(from) {
			r.Hits = append(r.Hits, h)
		}
	}
	return r, nil
}

// SignedAmount is the money e records, in minor units, signed so that a
// reversal is negative: a contribution what it credited to the meters, a
// hit +paid, its void or recovery -paid, a reset +its amount and its
// reversal -it, an adjustment its signed amount, the opening seed +it, a
// house top-up +it; 0 for entries that move no money.
func SignedAmount(e Entry) money.Amount {
	switch e.Kind {
	case KindHit:
		return e.Paid
	case KindHitVoid, KindHouseRecovery:
		return -e.Paid
	case KindReset, KindResetVoid:
		// The reset amount into the displayed meter (its funding moved
		// between meters and the house).
		return e.Displayed
	case KindAdjustment, KindContribution, KindOpening, KindHouseTopUp:
		return e.Displayed + e.Reserve + e.Overflow
	}
	return 0
}

// Slip is the data of a printable jackpot slip for a paid hit.
type Slip struct {
	Pool        string         `json:"pool"`
	DisplayName string         `json:"displayName"`
	Seq         int64          `json:"seq"`
	Table       string         `json:"table"`
	Round       string         `json:"round"`
	Seat        int            `json:"seat"`
	Hand        string         `json:"hand"`
	Amount      money.Amount   `json:"amount"`
	Currency    money.Currency `json:"currency"`
	Funding     []Funding      `json:"funding"`
	CommittedAt time.Time      `json:"committedAt"`
	VerifiedBy  *Actor         `json:"verifiedBy,omitempty" doc:"The supervisor who confirmed the hit (a hit under the jackpot lock); absent for a hit paid at its commit."`
	VerifiedAt  *time.Time     `json:"verifiedAt,omitempty"`
	PaidBy      *Actor         `json:"paidBy,omitempty" doc:"The cage principal who paid it, or the table principal whose round paid it at its commit."`
	PaidAt      time.Time      `json:"paidAt"`
	Rules       []string       `json:"rules"`
}

// SlipOf is the slip of hit h of p (paid).
func SlipOf(p Pool, h FloorHit) Slip {
	name := p.Settings.DisplayName
	if name == "" {
		name = p.ID
	}
	s := Slip{Pool: p.ID, DisplayName: name, Seq: h.Seq, Table: h.Table, Round: h.Round, Seat: h.Seat, Hand: h.Hand, Currency: h.Currency,
		Funding: h.Funding, CommittedAt: h.CommittedAt, VerifiedBy: h.ConfirmedBy, VerifiedAt: h.ConfirmedAt, PaidBy: h.PaidBy, Rules: h.Rules}
	if h.Amount != nil {
		s.Amount = *h.Amount
	}
	if h.PaidAt != nil {
		s.PaidAt = *h.PaidAt
	}
	if s.Funding == nil {
		s.Funding = []Funding{}
	}
	return s
}
