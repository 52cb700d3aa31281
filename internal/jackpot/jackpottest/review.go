package jackpottest

import (
	"context"
	"fmt"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// The adversarial review of how money moves in the pools (issues 13 and
// 16): each test names the rule it holds the pools to, with exact amounts.

// tableCtx is a request of table T1's principal: the entries of the
// rounds it applies name it (stampActor).
func tableCtx() context.Context {
	return principal.NewContext(context.Background(), &principal.Principal{ID: "tbl:T1", Roles: []principal.Role{principal.Table}, Tables: []string{"T1"}, Acting: principal.Table})
}

// everyMoveSigned fails unless every ledger entry of pool id that moves
// money (a meter, the house's funding, a payment) names its actor, and
// every entry of an approved proposal names its approver too (issue 16
// items 2 and 3).
func everyMoveSigned(t *testing.T, st pools.Store, id string) {
	t.Helper()
	es, err := allEntries(context.Background(), st, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		moves := e.Displayed != 0 || e.Reserve != 0 || e.Overflow != 0 || e.HouseFunded != 0 || e.Paid != 0 || e.Recovered != 0
		if moves && (e.Actor == nil || e.Actor.ID == "" || e.Actor.Role == "") {
			t.Fatalf("entry %d (%s) moves money and names no actor: %+v", e.Seq, e.Kind, e)
		}
		if e.Proposal != 0 && e.Kind != jackpot.KindProposal && e.Kind != jackpot.KindProposalExpired && e.Kind != jackpot.KindProposalWithdrawn &&
			(e.ApprovedBy == nil || e.ApprovedBy.ID == "" || e.ApprovedBy.ID == e.Actor.ID) {
			t.Fatalf("entry %d (%s) of proposal %d names no second principal: %+v", e.Seq, e.Kind, e.Proposal, e.ApprovedBy)
		}
	}
}

// sharedRoyals is table T1's round r1: three unit wagers, Royal Flushes on
// seats 1 and 2.
func sharedRoyals() jackpot.Round {
	r := lockRound("T1", "r1", true)
	h := Royal(ssp, 1, 1, 500)
	h.Cards = "Th Jh Qh Kh Ah"
	r.Hits = append([]jackpot.Hit{h}, r.Hits...)
	return r
}

// testSharedRoyalVoidedAlone: rulings R5, R21 and R28. Two Royals at one
// table in one round share (10,000,259 + 10,000,000) = 20,000,259: each
// 10,000,129, the remainder 1 stays; the pool funds 10,000,258, the extra
// reset part is the reserve's 77 and the house's 9,999,923, the reset the
// house's 10,000,000 (house funded 29,999,923; displayed 10,000,001).
//
// Defect: voiding one of the two alone returned its 10,000,129 to the
// displayed meter (20,000,130 displayed, the house's extra reset part in
// it) and left the other paid 10,000,129 of a prize it then won alone
// (10,000,259). A void of one share is refused (409) and moves nothing,
// proposed or direct; the round is corrected instead (R28): the corrected
// round with the seat-2 Royal alone pays it the whole 10,000,259, the
// reset funded by the reserve's 77 and the house's 9,999,923, displayed
// 10,000,000, house funded 19,999,923: a pool that only saw seat 2's Royal.
func testSharedRoyalVoidedAlone(t *testing.T, st pools.Store) {
	ctx := tableCtx()
	svc := service(st, NewClock(T0))
	for _, id := range []string{"p", "twin"} {
		if _, _, err := svc.Create(ctx, id, LockedSettings(), Admin); err != nil {
			t.Fatal(err)
		}
	}
	res := applyAs(ctx, t, svc, "p", sharedRoyals())
	if len(res.Payouts) != 2 || res.Payouts[0].Amount != 10_000_129 || res.Payouts[1].Amount != 10_000_129 {
		t.Fatalf("the shared Royals: %+v", res.Payouts)
	}
	want := func(what string, displayed, reserve, house money.Amount) {
		t.Helper()
		m := meters(t, svc, "p")
		if m.Displayed != displayed || m.Reserve != reserve || m.HouseFunded != house {
			t.Fatalf("%s: displayed %d reserve %d house %d; want %d, %d, %d", what, m.Displayed, m.Reserve, m.HouseFunded, displayed, reserve, house)
		}
	}
	want("after the shared Royals", 10_000_001, 0, 29_999_923)
	for _, seq := range []int64{res.Payouts[0].Seq, res.Payouts[1].Seq} {
		if _, _, _, err := svc.Void(ctx, "p", seq, "the ace was a king", Supervisor, Controller, fmt.Sprint("v-", seq)); fault.KindOf(err) != fault.Conflict {
			t.Fatalf("void of share %d alone: %v, want a conflict (ruling R5)", seq, err)
		}
		ch := jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: seq, Reason: "the ace was a king"}}
		if _, _, _, err := svc.Propose(ctx, "p", ch, Supervisor, fmt.Sprint("pv-", seq)); fault.KindOf(err) != fault.Conflict {
			t.Fatalf("proposed void of share %d alone: %v, want a conflict", seq, err)
		}
	}
	want("refused voids move nothing", 10_000_001, 0, 29_999_923)
	// The round as dealt: the Royal on seat 2 alone.
	corrected := lockRound("T1", "r1", true)
	out, _, err := svc.Correct(ctx, "p", jackpot.Correction{Table: "T1", Round: "r1", Corrected: &corrected, Reason: "seat 1 held Kh, not Ah"}, Supervisor, Controller, "c-1")
	if err != nil {
		t.Fatal(err)
	}
	if out.Result == nil || len(out.Result.Payouts) != 1 || out.Result.Payouts[0].Amount != 10_000_259 || out.Result.Payouts[0].Status != jackpot.StatePending || out.HouseRecovery != 0 {
		t.Fatalf("the corrected round: %+v", out)
	}
	want("after the correction", 10_000_000, 0, 19_999_923)
	twinRes := applyAs(ctx, t, svc, "twin", lockRound("T1", "r1", true))
	sameMeters(t, "corrected vs a pool that only saw seat 2's Royal", meters(t, svc, "p"), meters(t, svc, "twin"))
	if twinRes.Payouts[0].Amount != out.Result.Payouts[0].Amount {
		t.Fatalf("twin paid %d", twinRes.Payouts[0].Amount)
	}
	if left, _ := svc.LockedHits(ctx, "p", ""); len(left) != 1 || left[0].Seat != 2 || left[0].Amount != 10_000_259 {
		t.Fatalf("locked after the correction: %+v", left)
	}
	MustReconcile(t, svc, "p")
	everyMoveSigned(t, st, "p")
}

// applyAs applies r as the principal in ctx.
func applyAs(ctx context.Context, t *testing.T, svc *pools.Service, id string, r jackpot.Round) jackpot.RoundResult {
	t.Helper()
	res, _, err := svc.ApplyRound(ctx, id, r, "", "")
	if err != nil {
		t.Fatalf("round %s/%s: %v", r.Table, r.Round, err)
	}
	return res
}
