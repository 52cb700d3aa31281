package poolstest

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// voidDeal is issue 33 item 1's round at table T1: the Ten of spades at
// seats 1 and 2 (a duplicate card: void, ruling R12) and a Royal Flush at
// seat 3, each with a unit progressive wager. With fixed, seat 2 holds
// the Ten of clubs instead: the round as it was dealt.
func voidDeal(fixed bool) settle.Round {
	seat2 := "Ts 2c 5d 8h 9c"
	if fixed {
		seat2 = "Tc 2c 5d 8h 9c"
	}
	w := func() map[string]money.Amount {
		return map[string]money.Amount{"ante": 1000, "bet": 2000, "progressive": 500}
	}
	return settle.Round{Ruleset: ssp, RoundID: "R1", Dealer: "2d 3d 5h 8c 9s", ProgressiveUnit: 500, Positions: []settle.Position{
		{Seat: 1, Cards: "Ts 4c 6d 7h Kd", Wagers: w()}, {Seat: 2, Cards: seat2, Wagers: w()}, {Seat: 3, Cards: "Th Jh Qh Kh Ah", Wagers: w()}}}
}

// testVoidRoundRecorded: issue 33 item 1 on every store. A void round's
// answer carries settlement's void and irregularities exactly as settle
// gives them; the ledger records it (round_void: no meter moves, the
// reason, the rules, the Royal it held), the pool names that entry for
// the floor (lastVoidHand) and the hit queue's history lists the Royal as
// round_void; a replay answers the same; the round fixed by its
// correction pays the Royal.
func testVoidRoundRecorded(t *testing.T, st pools.Store) {
	defer sameHitHistory(t, st, "p")
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	deal := voidDeal(false)
	r, _, err := svc.RoundOf(deal, "T1", jackpottest.T0)
	if err != nil {
		t.Fatal(err)
	}
	settled, err := settle.Settler{Rulesets: svc.Rules().Rulesets}.Settle(deal)
	if err != nil || !settled.Void || len(settled.Irregularities) != 1 || settled.Irregularities[0].Code != "duplicate_card" {
		t.Fatalf("settle: %+v %v", settled, err)
	}
	want := settled.Irregularities[0]
	res, replayed, err := svc.ApplyRound(ctx, "p", r, "", "fp-void")
	if err != nil || replayed {
		t.Fatalf("the void round: %v %v", replayed, err)
	}
	got := res.Irregularities
	if !res.Void || len(got) != 1 || got[0].Code != want.Code || got[0].Seat != want.Seat || got[0].Message != want.Message ||
		!reflect.DeepEqual(got[0].Rules, want.Rules) || res.Contribution.Wagers != 0 || len(res.Payouts) != 0 || res.Meters.Displayed != 10_000_000 {
		t.Fatalf("the answer: %+v\nsettle: %+v", res, settled.Irregularities)
	}
	again, replayed, err := svc.ApplyRound(ctx, "p", r, "", "fp-void")
	if err != nil || !replayed || !again.Void || !reflect.DeepEqual(again.Irregularities, res.Irregularities) {
		t.Fatalf("the replay: %+v %v %v", again, replayed, err)
	}
	es, err := allEntries(ctx, st, "p")
	if err != nil {
		t.Fatal(err)
	}
	e := es[len(es)-1]
	if e.Kind != jackpot.KindRoundVoid || e.Table != "T1" || e.Round != "R1" || e.Displayed != 0 || e.Reserve != 0 || e.HouseFunded != 0 ||
		e.Reason != "duplicate_card: "+want.Message || !reflect.DeepEqual(e.Rules, want.Rules) || len(e.Irregularities) != 1 ||
		len(e.VoidHands) != 1 || e.VoidHands[0].Seat != 3 || e.VoidHands[0].Category != "royal_flush" || e.VoidHands[0].Cards != "Th Jh Qh Kh Ah" {
		t.Fatalf("the ledger's round_void entry: %+v", e)
	}
	p, err := svc.Get(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	if p.LastVoidHand != e.Seq || p.Version != 2 || p.Meters.Displayed != 10_000_000 || p.Meters.Wagers != 0 {
		t.Fatalf("the pool: lastVoidHand %d (want %d), version %d, meters %+v", p.LastVoidHand, e.Seq, p.Version, p.Meters)
	}
	hits, err := svc.Hits(ctx, p, "all", "", 0)
	if err != nil || len(hits) != 1 {
		t.Fatalf("the hit queue: %+v %v", hits, err)
	}
	if h := hits[0]; h.State != jackpot.StateRoundVoid || h.Seq != e.Seq || h.Seat != 3 || h.Hand != "royal_flush" || h.Amount != nil ||
		!strings.HasPrefix(h.VoidReason, "duplicate_card: ") || !reflect.DeepEqual(h.Rules, want.Rules) {
		t.Fatalf("the queue's row: %+v", h)
	}
	if open, _ := svc.Hits(ctx, p, "open", "", 0); len(open) != 0 {
		t.Fatalf("nothing is held or pending: %+v", open)
	}

	// The mis-keyed card is fixed by a correction: the Royal is paid
	// (10,000,000 + 3 x 86.65 = 10,000,259).
	fixed, _, err := svc.RoundOf(voidDeal(true), "T1", jackpottest.T0)
	if err != nil || fixed.Void {
		t.Fatalf("the round as dealt: %+v %v", fixed, err)
	}
	cr, _, err := svc.Correct(ctx, "p", jackpot.Correction{Table: "T1", Round: "R1", Corrected: &fixed, Reason: "seat 2's Ten was the Ten of clubs"},
		jackpottest.Supervisor, jackpottest.Controller, "k")
	if err != nil {
		t.Fatal(err)
	}
	if cr.Result == nil || cr.Result.Void || len(cr.Result.Payouts) != 1 || cr.Result.Payouts[0].Category != "royal_flush" || cr.Result.Payouts[0].Amount != 10_000_259 {
		t.Fatalf("the correction: %+v", cr.Result)
	}
	jackpottest.MustReconcile(t, svc, "p")
}
