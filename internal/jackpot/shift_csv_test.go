package jackpot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
)

// A shift report as CSV (issue 24 item 8): one row per item, amounts in
// minor units, instants in UTC, a voided hit by whom it was voided and
// who approved the void, the reconciliation meter by meter (issue 35
// item 5).
func TestReportCSV(t *testing.T) {
	sgt := time.FixedZone("SGT", 8*3600)
	from := time.Date(2026, 3, 2, 4, 30, 0, 0, sgt) // 20:30Z
	to := from.Add(4 * time.Hour)
	paid, voided := money.Amount(20_000), money.Amount(500)
	sup, cage := &Actor{ID: "sup:ann", Role: "supervisor"}, &Actor{ID: "cage:bo", Role: "cage"}
	r := Report{Pool: "megalink", Currency: money.SGD, From: from, To: to,
		Opening:       MeterView{Displayed: 10_000_000},
		Closing:       MeterView{Displayed: 10_000_173, Reserve: 51, Overflow: 2},
		Contributions: []TableContribution{{Table: "T12", Rounds: 1, Wagers: 2, WagerAmount: 1000, Displayed: 173, Reserve: 51, Overflow: 2}},
		Contributed:   TableContribution{Rounds: 1, Wagers: 2, WagerAmount: 1000, Displayed: 173, Reserve: 51, Overflow: 2},
		Hits: []FloorHit{
			{Seq: 7, State: "paid", Table: "T12", Round: "R1", Seat: 3, Hand: "four_of_a_kind", Amount: &paid, CommittedAt: from.Add(time.Hour), PaidBy: cage},
			{Seq: 9, State: StateVoided, Table: "T12", Round: "R2", Seat: 1, Hand: "flush", Amount: &voided, CommittedAt: from.Add(2 * time.Hour), PaidBy: cage, VoidedBy: sup, VoidApprovedBy: &Actor{ID: "ctl", Role: "controller"}},
		},
		Adjustments: []ReportEntry{{Seq: 8, At: from.Add(90 * time.Minute), Kind: KindAdjustment, Meter: "reserve", Amount: -50, Reason: "top-up", Actor: &Actor{ID: "adm", Role: "admin"}, ApprovedBy: &Actor{ID: "ctl", Role: "controller"}}},
		Liabilities: Liabilities{Total: 0},
		Reconciliation: ShiftBalance{Held: 1, Lines: []ReconLine{
			{Line: LineOpening, Displayed: 10_000_000, House: 10_000_000},
			{Line: LineContributions, Entries: 1, Displayed: 173, Reserve: 51, Overflow: 2},
			{Line: LineSeedsResets}, {Line: LineHits}, {Line: LineAdjustments}, {Line: LineCorrections},
			{Line: LineClosing, Displayed: 10_000_173, Reserve: 51, Overflow: 2, House: 10_000_000},
		}},
	}
	rows := []string{}
	for _, l := range r.Reconciliation.Lines {
		t, note := "", fmt.Sprintf("%d entries", l.Entries)
		switch l.Line {
		case LineOpening:
			t, note = "2026-03-01T20:30:00Z", ""
		case LineClosing:
			t, note = "2026-03-02T00:30:00Z", ""
		}
		for _, m := range []struct {
			n string
			v money.Amount
		}{{"displayed", l.Displayed}, {"reserve", l.Reserve}, {"overflow", l.Overflow}, {"house", l.House}} {
			rows = append(rows, fmt.Sprintf("reconciliation,%s %s,,,,,%d,SGD,%s,,%s", l.Line, m.n, m.v, t, note))
		}
	}
	if rows[0] != "reconciliation,opening displayed,,,,,10000000,SGD,2026-03-01T20:30:00Z,," || rows[4] != "reconciliation,contributions displayed,,,,,173,SGD,,,1 entries" {
		t.Fatalf("the expected rows: %q %q", rows[0], rows[4])
	}
	want := strings.Join([]string{
		"section,item,table,round,seat,hand,amount,currency,at,by,note",
		"meters,opening displayed,,,,,10000000,SGD,2026-03-01T20:30:00Z,,",
		"meters,opening reserve,,,,,0,SGD,2026-03-01T20:30:00Z,,",
		"meters,opening overflow,,,,,0,SGD,2026-03-01T20:30:00Z,,",
		"meters,closing displayed,,,,,10000173,SGD,2026-03-02T00:30:00Z,,",
		"meters,closing reserve,,,,,51,SGD,2026-03-02T00:30:00Z,,",
		"meters,closing overflow,,,,,2,SGD,2026-03-02T00:30:00Z,,",
		strings.Join(rows, "\n"),
		"reconciliation,held,,,,,1,,2026-03-02T00:30:00Z,,\"hits held at the end, in no meter until paid (R7, R21)\"",
		`contributions,table,T12,,,,226,SGD,,,"1 rounds, 2 wagers of 1000; displayed 173, reserve 51, overflow 2"`,
		`contributions,all tables,,,,,226,SGD,,,"1 rounds, 2 wagers of 1000; displayed 173, reserve 51, overflow 2"`,
		"hits,paid,T12,R1,3,four_of_a_kind,20000,SGD,2026-03-01T21:30:00Z,cage:bo (cage),hit 7",
		"hits,voided,T12,R2,1,flush,500,SGD,2026-03-01T22:30:00Z,sup:ann (supervisor) approved by ctl (controller),hit 9",
		"adjustments,reserve,,,,,-50,SGD,2026-03-01T22:00:00Z,adm (admin) approved by ctl (controller),top-up",
		"liabilities,total,,,,,0,SGD,2026-03-02T00:30:00Z,,pending and confirmed hits not yet paid",
		"",
	}, "\n")
	if got := string(r.CSV()); got != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", got, want)
	}
}
