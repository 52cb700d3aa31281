package jackpot

import (
	"sort"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// The sign (issue 24): what players see of a pool. Public states only,
// never a principal's name.

// RecentPaid is how long a paid hit stays on the sign after it was paid.
const RecentPaid = 10 * time.Minute

// The public stages of a hit on the sign.
const (
	StageHeld     = "held"
	StagePending  = "pending verification"
	StageVerified = "verified"
	StagePaid     = "paid"
)

// Display is a pool as the sign shows it.
type Display struct {
	Pool        string         `json:"pool"`
	DisplayName string         `json:"displayName" doc:"The pool's display name (its id when the settings name none)."`
	Currency    money.Currency `json:"currency"`
	// Meter is the displayed meter: the amount the rules pay.
	Meter     money.Amount      `json:"meter" doc:"The displayed meter, in minor units: the amount a Royal Flush is paid (ruling R3)."`
	AsOf      time.Time         `json:"asOf" doc:"The service's time of this answer: the meter stood at this amount then. A 304 to a later poll confirms it still does."`
	Version   int64             `json:"version"`
	Paytables []DisplayPaytable `json:"paytables" doc:"Each progressive wager of the pool's rulesets, with each hand's current amount."`
	Hits      []DisplayHit      `json:"hits" doc:"Hits held, pending verification or verified, and those paid in the last 10 minutes, in commit order."`
	LastWon   *DisplayHit       `json:"lastWon,omitempty" doc:"The last hit paid (not voided), if any."`
}

// DisplayPaytable is one progressive wager's paytable on the sign.
type DisplayPaytable struct {
	Ruleset string       `json:"ruleset"`
	Game    string       `json:"game" doc:"The game's name as its document titles it."`
	Wager   string       `json:"wager"`
	Label   string       `json:"label" doc:"The wager as the document names it."`
	Rows    []DisplayRow `json:"rows"`
}

// DisplayRow is one paytable line with its current amount.
type DisplayRow struct {
	Hand  string `json:"hand"`
	Label string `json:"label" doc:"The line as the document writes it."`
	Prize string `json:"prize" enum:"pool_percent,fixed,to_one,for_one"`
	// BP is a percentage prize's share of the pool; Amount its current
	// amount (rounded down, as it would be paid now to one winner) or a
	// fixed prize's amount; Odds an odds prize's ("250 to 1").
	BP     money.BasisPoints `json:"bp,omitempty"`
	Amount *money.Amount     `json:"amount,omitempty" doc:"What the line pays now, in minor units: a share of the meter (Royal Flush = the meter, Straight Flush = 10% of it, rounded down) or a fixed prize."`
	Odds   string            `json:"odds,omitempty"`
	Rule   string            `json:"rule"`
}

// DisplayHit is one hit in public: where, which hand, how much, and its
// stage.
type DisplayHit struct {
	Seq            int64         `json:"seq"`
	State          string        `json:"state" enum:"held,pending,confirmed,paid"`
	Stage          string        `json:"stage" enum:"held,pending verification,verified,paid"`
	Table          string        `json:"table"`
	Seat           int           `json:"seat"`
	Hand           string        `json:"hand"`
	Amount         *money.Amount `json:"amount,omitempty" doc:"Absent while held."`
	AmountNow      *money.Amount `json:"amountNow,omitempty" doc:"A held hit: what it would be paid if its window closed now (ruling R21); not final until it is paid."`
	At             time.Time     `json:"at" doc:"When the hit reached its stage (committed, confirmed, paid)."`
	WindowClosesAt *time.Time    `json:"windowClosesAt,omitempty"`
}

// Display is p as the sign shows it at now, its paytables read from k's
// rulesets.
func (k Rules) Display(p Pool, now time.Time) Display {
	d := Display{Pool: p.ID, DisplayName: p.Settings.DisplayName, Currency: p.Settings.Currency, Meter: p.Meters.Displayed,
		AsOf: now, Version: p.Version, Paytables: []DisplayPaytable{}, Hits: []DisplayHit{}}
	if d.DisplayName == "" {
		d.DisplayName = p.ID
	}
	for _, id := range p.Settings.Rulesets {
		rs, ok := k.Rulesets.Lookup(ruleset.ID(id))
		if !ok {
			continue
		}
		for _, w := range rs.Wagers {
			if !w.Progressive {
				continue
			}
			t := DisplayPaytable{Ruleset: id, Game: rs.Name, Wager: string(w.Name), Label: w.Label, Rows: []DisplayRow{}}
			for _, e := range w.Paytable {
				t.Rows = append(t.Rows, displayRow(p, rs, e))
			}
			d.Paytables = append(d.Paytables, t)
		}
	}
	for _, h := range k.WithAmountsNow(p, OpenHits(p, "", now), now) {
		dh := DisplayHit{Seq: h.Seq, State: h.State, Table: h.Table, Seat: h.Seat, Hand: h.Hand, Amount: h.Amount, AmountNow: h.AmountNow, At: h.CommittedAt, WindowClosesAt: h.WindowClosesAt}
		switch h.State {
		case StateHeld:
			dh.Stage = StageHeld
		case StatePending:
			dh.Stage = StagePending
		case StateConfirmed:
			dh.Stage = StageVerified
			if h.ConfirmedAt != nil {
				dh.At = *h.ConfirmedAt
			}
		}
		d.Hits = append(d.Hits, dh)
	}
	for _, h := range p.LastHits {
		state, paidAt, _ := p.LastHitState(h)
		if state != StatePaid || paidAt == nil {
			continue
		}
		dh := DisplayHit{Seq: h.Seq, State: StatePaid, Stage: StagePaid, Table: h.Table, Seat: h.Seat, Hand: h.Category, Amount: amountOf(h.Paid), At: *paidAt}
		last := dh
		d.LastWon = &last
		if now.Sub(*paidAt) < RecentPaid {
			d.Hits = append(d.Hits, dh)
		}
	}
	sort.SliceStable(d.Hits, func(i, j int) bool { return d.Hits[i].Seq < d.Hits[j].Seq })
	return d
}

func displayRow(p Pool, rs *ruleset.Ruleset, e ruleset.Entry) DisplayRow {
	r := DisplayRow{Hand: e.Hand, Label: e.Label, Prize: string(e.Pay.Kind), Rule: rs.Cite(e.Rule)}
	switch e.Pay.Kind {
	case ruleset.PoolPercent:
		r.BP = e.Pay.BasisPoints
		if share, _, _, err := SharedPrize(p.Meters.Displayed, p.Settings.Reset, e.Pay.BasisPoints, 1); err == nil {
			r.Amount = amountOf(share)
		}
	case ruleset.Fixed:
		r.Amount = amountOf(e.Pay.Amount)
	default:
		r.Odds = e.Pay.String()
	}
	return r
}
