package poolstest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// testReportLinesAddUp: issue 35 item 5. A shift with a round, a Royal
// (its hit and the reset it causes), a meter adjustment and a correction
// (a void of the first round, after the reset spent its reserve), each
// under dual control: the report over (T0, T0+1h] states every line of its
// reconciliation to the cent, and opening + movements = closing for each
// meter (SGD cents, MBS SSP v6: 1733 bp to the displayed meter, 517 bp to
// the reserve, R4; the Royal takes 100% of the meter, R3; the reset of
// 10,000,000 is funded by the reserve then the house, R21; the void
// reverses r1, the house topping up the reserve the reset spent, R28).
func testReportLinesAddUp(t *testing.T, st pools.Store) {
	ctx, clock, svc := mbsPool(t, st)
	defer sameInstants(t, st, "p")
	clock.Advance(time.Second)
	apply(t, svc, "p", lockRound("T1", "r1", false)) // 1,500 x 17.33% = 259.95; x 5.17% = 77.55
	clock.Advance(time.Second)
	res := apply(t, svc, "p", lockRound("T1", "r2", true)) // 260 and 78 with the carries; the Royal 10,000,519
	if len(res.Payouts) != 1 || res.Payouts[0].Amount != 10_000_519 {
		t.Fatalf("the Royal: %+v", res.Payouts)
	}
	clock.Advance(time.Second)
	adj := jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &jackpot.Adjustment{Meter: "reserve", Amount: 50_000, Reason: "reserve top-up"}}
	_, pr, _, err := svc.Propose(ctx, "p", adj, jackpottest.Admin, "adj")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "adj-ok"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	corr := jackpot.Change{Kind: jackpot.ProposeCorrection, Correction: &jackpot.Correction{Table: "T1", Round: "r1", Reason: "two cards exposed", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}}
	if _, pr, _, err = svc.Propose(ctx, "p", corr, jackpottest.Supervisor, "corr"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "corr-ok"); err != nil {
		t.Fatal(err)
	}
	r, err := svc.Report(ctx, "p", jackpottest.T0, jackpottest.T0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := []jackpot.ReconLine{
		{Line: jackpot.LineOpening, Displayed: 10_000_000, House: 10_000_000},
		{Line: jackpot.LineContributions, Entries: 2, Displayed: 259 + 260, Reserve: 77 + 78},
		{Line: jackpot.LineSeedsResets, Entries: 1, Displayed: 10_000_000, Reserve: -155, House: 9_999_845},
		{Line: jackpot.LineHits, Entries: 1, Displayed: -10_000_519},
		{Line: jackpot.LineAdjustments, Entries: 1, Reserve: 50_000},
		// The void of r1: the house tops the reserve up by the 78 the
		// reset spent that a pool without r1 would not have had (the twin
		// credits r2 77), then r1's contribution leaves from the carries
		// as they stand (.90 displayed, .10 reserve): 259.95 needs -260
		// (carry .95, a pool that never saw r1), 77.55 needs -78 (.55).
		{Line: jackpot.LineCorrections, Entries: 2, Displayed: -260, Reserve: 0, House: 78},
		{Line: jackpot.LineClosing, Displayed: 9_999_740, Reserve: 50_000, House: 19_999_923},
	}
	if got := r.Reconciliation.Lines; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the reconciliation:\n got %+v\nwant %+v", got, want)
	}
	if err := r.Reconciles(); err != nil {
		t.Fatal(err)
	}
	if r.Opening.Displayed != 10_000_000 || r.Closing.Displayed != 9_999_740 || r.Closing.Reserve != 50_000 {
		t.Fatalf("opening %+v closing %+v", r.Opening, r.Closing)
	}
	// Proposer and approver in every view: the adjustment's, the
	// correction's entries, and the CSV's by column.
	if len(r.Adjustments) != 1 || *r.Adjustments[0].Actor != jackpottest.Admin || *r.Adjustments[0].ApprovedBy != jackpottest.Controller {
		t.Fatalf("adjustments: %+v", r.Adjustments)
	}
	for _, e := range r.Corrections {
		if *e.Actor != jackpottest.Supervisor || e.ApprovedBy == nil || *e.ApprovedBy != jackpottest.Controller {
			t.Fatalf("correction %d: by %+v approved by %+v", e.Seq, e.Actor, e.ApprovedBy)
		}
	}
	csv := string(r.CSV())
	for _, row := range []string{
		"reconciliation,corrections displayed,,,,,-260,SGD,,,2 entries\n",
		"reconciliation,closing displayed,,,,,9999740,SGD,2026-03-01T21:00:00Z,,\n",
		"reconciliation,seeds_and_resets house,,,,,9999845,SGD,,,1 entries\n",
		",sup:ann (supervisor) approved by ctl:cy (controller),two cards exposed\n",
		",adm:al (admin) approved by ctl:cy (controller),reserve top-up\n",
	} {
		if !strings.Contains(csv, row) {
			t.Fatalf("the CSV has no row ending %q:\n%s", row, csv)
		}
	}
}
