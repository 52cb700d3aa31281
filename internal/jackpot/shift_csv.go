package jackpot

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
)

// CSV is the report as CSV, one row per item: section, item, table,
// round, seat, hand, amount (minor units), currency, at (RFC 3339, UTC),
// by ("a (role) approved by b (role)" where a second principal approved),
// note. Its sections: meters (opening and closing), reconciliation (each
// line per meter, then the hits held), contributions (per
// table, then all tables), hits, adjustments, corrections, liabilities
// (the hits not yet paid and held, then their total).
func (r Report) CSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	cur := string(r.Currency)
	at := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	i64 := func(n int64) string { return strconv.FormatInt(n, 10) }
	who := func(a *Actor) string {
		if a == nil {
			return ""
		}
		return a.ID + " (" + a.Role + ")"
	}
	// signed names who proposed and who approved (dual control): "a (r)
	// approved by b (r)", or the one actor of an entry no one approved.
	signed := func(a, approver *Actor) string {
		if approver == nil {
			return who(a)
		}
		return who(a) + " approved by " + who(approver)
	}
	_ = w.Write([]string{"section", "item", "table", "round", "seat", "hand", "amount", "currency", "at", "by", "note"})
	for _, m := range []struct {
		item string
		t    time.Time
		v    MeterView
	}{{"opening", r.From, r.Opening}, {"closing", r.To, r.Closing}} {
		_ = w.Write([]string{"meters", m.item + " displayed", "", "", "", "", i64(int64(m.v.Displayed)), cur, at(m.t), "", ""})
		_ = w.Write([]string{"meters", m.item + " reserve", "", "", "", "", i64(int64(m.v.Reserve)), cur, at(m.t), "", ""})
		_ = w.Write([]string{"meters", m.item + " overflow", "", "", "", "", i64(int64(m.v.Overflow)), cur, at(m.t), "", ""})
	}
	// The reconciliation, meter by meter: opening + each movement =
	// closing (issue 35 item 5).
	for _, l := range r.Reconciliation.Lines {
		t, note := "", i64(l.Entries)+" entries"
		switch l.Line {
		case LineOpening:
			t, note = at(r.From), ""
		case LineClosing:
			t, note = at(r.To), ""
		}
		for _, m := range []struct {
			name string
			v    money.Amount
		}{{"displayed", l.Displayed}, {"reserve", l.Reserve}, {"overflow", l.Overflow}, {"house", l.House}} {
			_ = w.Write([]string{"reconciliation", l.Line + " " + m.name, "", "", "", "", i64(int64(m.v)), cur, t, "", note})
		}
	}
	if r.Reconciliation.Lines != nil {
		_ = w.Write([]string{"reconciliation", "held", "", "", "", "", i64(int64(r.Reconciliation.Held)), "", at(r.To), "", "hits held at the end, in no meter until paid (R7, R21)"})
	}
	for _, c := range append(append([]TableContribution(nil), r.Contributions...), r.Contributed) {
		item, table := "table", c.Table
		if table == "" {
			item = "all tables"
		}
		note := i64(c.Rounds) + " rounds, " + i64(c.Wagers) + " wagers of " + i64(int64(c.WagerAmount)) + "; displayed " + i64(int64(c.Displayed)) +
			", reserve " + i64(int64(c.Reserve)) + ", overflow " + i64(int64(c.Overflow))
		_ = w.Write([]string{"contributions", item, table, "", "", "", i64(int64(c.Displayed + c.Reserve + c.Overflow)), cur, "", "", note})
	}
	hit := func(section string, h FloorHit) {
		amount := ""
		if h.Amount != nil {
			amount = i64(int64(*h.Amount))
		}
		by := who(h.PaidBy)
		if h.State == StateVoided {
			by = signed(h.VoidedBy, h.VoidApprovedBy)
		}
		_ = w.Write([]string{section, h.State, h.Table, h.Round, strconv.Itoa(h.Seat), h.Hand, amount, cur, at(h.CommittedAt), by, "hit " + i64(h.Seq)})
	}
	for _, h := range r.Hits {
		hit("hits", h)
	}
	for _, e := range r.Adjustments {
		_ = w.Write([]string{"adjustments", e.Meter, "", "", "", "", i64(int64(e.Amount)), cur, at(e.At), signed(e.Actor, e.ApprovedBy), e.Reason})
	}
	for _, e := range r.Corrections {
		_ = w.Write([]string{"corrections", string(e.Kind), e.Table, e.Round, "", "", i64(int64(e.Amount)), cur, at(e.At), signed(e.Actor, e.ApprovedBy), e.Reason})
	}
	for _, h := range r.Liabilities.Pending {
		hit("liabilities", h)
	}
	for _, h := range r.Liabilities.Confirmed {
		hit("liabilities", h)
	}
	for _, h := range r.Liabilities.Held {
		hit("liabilities", h)
	}
	_ = w.Write([]string{"liabilities", "total", "", "", "", "", i64(int64(r.Liabilities.Total)), cur, at(r.To), "", "pending and confirmed hits not yet paid"})
	w.Flush()
	return b.Bytes()
}
