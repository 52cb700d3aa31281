package jackpot

import (
	"cmp"
	"fmt"
	"slices"
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
	// Shift is "current" or "previous" when the report was asked for by
	// shift; Shifts the floor's boundaries it was cut by.
	Shift  string `json:"shift,omitempty" enum:"current,previous" doc:"Set when the range is a shift: current (from its start to now) or previous (from its start to its end)."`
	Shifts string `json:"shifts,omitempty" doc:"The floor's shift boundaries the range was cut by: a time zone and the start times, e.g. Asia/Singapore 06:00 14:00 22:00 (TABLESETTLE_SHIFTS)."`
	// Reconciliation is how the opening meters became the closing ones
	// (issue 35 item 5).
	Reconciliation ShiftBalance `json:"reconciliation" doc:"opening + contributions + seeds and resets + hits (negative) + adjustments + corrections = closing, meter by meter, to the minor unit; and the hits held at to, which no meter counts yet."`
}

// The lines of a report's reconciliation, in the order they add up.
const (
	LineOpening       = "opening"
	LineContributions = "contributions"
	LineSeedsResets   = "seeds_and_resets"
	LineHits          = "hits"
	LineAdjustments   = "adjustments"
	LineCorrections   = "corrections"
	LineClosing       = "closing"
)

// ReconLine is one line of a report's reconciliation: the meters (opening,
// closing) or the sum of what one kind of entry moved on each of them over
// the range, signed as the ledger's deltas (hits negative).
type ReconLine struct {
	Line      string       `json:"line" enum:"opening,contributions,seeds_and_resets,hits,adjustments,corrections,closing"`
	Entries   int64        `json:"entries" doc:"The ledger entries summed (0 for opening and closing)."`
	Displayed money.Amount `json:"displayed"`
	Reserve   money.Amount `json:"reserve"`
	Overflow  money.Amount `json:"overflow"`
	House     money.Amount `json:"house" doc:"What the house has funded (the houseFunded meter): the seed, resets beyond the overflow and reserve, top-ups and recoveries."`
}

// ShiftBalance says how a report's opening meters became its closing
// ones: Lines are opening, contributions, seeds_and_resets, hits,
// adjustments, corrections and closing, and each meter's opening plus the
// five movements is its closing, exactly (Report.Reconciles). Held are the
// hits held for their settle window at the report's end (R7): they are not
// in the meters until paid, from the pool as it stands then (R21).
type ShiftBalance struct {
	Lines []ReconLine `json:"lines"`
	Held  int         `json:"held" doc:"Hits held at to (R7): no meter counts them until their window closes; see liabilities.held."`
}

// reconLine is the line of the reconciliation entry e is summed in: an
// adjustment, a correction (every entry the report lists under
// corrections), a contribution, a seed or reset, a hit; "" for entries
// that move no meter.
func reconLine(e Entry) string {
	switch {
	case e.Kind == KindAdjustment:
		return LineAdjustments
	case isCorrection(e):
		return LineCorrections
	case e.Kind == KindContribution:
		return LineContributions
	case e.Kind == KindOpening || e.Kind == KindReset:
		return LineSeedsResets
	case e.Kind == KindHit:
		return LineHits
	}
	return ""
}

// isCorrection reports whether e is listed under a report's corrections:
// a void, a reversal, a house recovery or top-up, or any entry of a
// corrected round.
func isCorrection(e Entry) bool {
	switch e.Kind {
	case KindHitVoid, KindResetVoid, KindHeldVoid, KindHouseRecovery, KindHouseTopUp:
		return true
	}
	return e.Corrects != ""
}

// Reconciles checks the report's reconciliation: for each meter, opening
// plus every movement is closing, to the minor unit, and the lines are
// the report's own opening and closing.
func (r Report) Reconciles() error {
	ls := r.Reconciliation.Lines
	if len(ls) != 7 || ls[0].Line != LineOpening || ls[6].Line != LineClosing {
		return fmt.Errorf("jackpot: report of %s: the reconciliation has %d lines", r.Pool, len(ls))
	}
	if o, c := ls[0], ls[6]; o.Displayed != r.Opening.Displayed || o.Reserve != r.Opening.Reserve || o.Overflow != r.Opening.Overflow ||
		c.Displayed != r.Closing.Displayed || c.Reserve != r.Closing.Reserve || c.Overflow != r.Closing.Overflow {
		return fmt.Errorf("jackpot: report of %s: the reconciliation's opening or closing is not the report's", r.Pool)
	}
	sum := ls[0]
	for _, l := range ls[1:6] {
		sum.Displayed += l.Displayed
		sum.Reserve += l.Reserve
		sum.Overflow += l.Overflow
		sum.House += l.House
	}
	c := ls[6]
	if sum.Displayed != c.Displayed || sum.Reserve != c.Reserve || sum.Overflow != c.Overflow || sum.House != c.House {
		return fmt.Errorf("jackpot: report of %s over (%s, %s]: opening and movements give displayed %d, reserve %d, overflow %d, house %d; closing is %d, %d, %d, %d",
			r.Pool, r.From.Format(time.RFC3339Nano), r.To.Format(time.RFC3339Nano), sum.Displayed, sum.Reserve, sum.Overflow, sum.House, c.Displayed, c.Reserve, c.Overflow, c.House)
	}
	return nil
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
	lines := []ReconLine{
		{Line: LineOpening, Displayed: open.Meters.Displayed, Reserve: open.Meters.Reserve, Overflow: open.Meters.Overflow, House: open.Meters.HouseFunded},
		{Line: LineContributions}, {Line: LineSeedsResets}, {Line: LineHits}, {Line: LineAdjustments}, {Line: LineCorrections},
		{Line: LineClosing, Displayed: closing.Meters.Displayed, Reserve: closing.Meters.Reserve, Overflow: closing.Meters.Overflow, House: closing.Meters.HouseFunded},
	}
	for _, e := range l.Tail[open.Entries-l.Head : closing.Entries-l.Head] {
		if line := reconLine(e); line != "" {
			i := slices.IndexFunc(lines, func(l ReconLine) bool { return l.Line == line })
			lines[i].Entries++
			lines[i].Displayed += e.Displayed
			lines[i].Reserve += e.Reserve
			lines[i].Overflow += e.Overflow
			lines[i].House += e.HouseFunded
		}
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
		case isCorrection(e):
			r.Corrections = append(r.Corrections, ReportEntry{Seq: e.Seq, At: e.At, Kind: e.Kind, Table: e.Table, Round: e.Round, Amount: SignedAmount(e),
				Recovered: e.Recovered, Reason: e.Reason, Actor: e.Actor, ApprovedBy: e.ApprovedBy})
		}
	}
	r.Reconciliation.Lines = lines
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
			r.Reconciliation.Held++
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
	// Serial and Prints: the slip's serial once first printed, and every
	// print of it, oldest first (issue 35 item 6).
	Serial int64       `json:"serial,omitempty" doc:"The slip's serial, given by its first print (absent until then): gapless per pool."`
	Prints []SlipPrint `json:"prints" doc:"Every print of the slip, oldest first: the original, then each reprint with its mark REPRINT n and who printed it."`
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
	s.Prints = []SlipPrint{}
	return s
}
