package poolstest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// The second principals of the dual-control tests: a controller, and one
// principal holding both the admin and the controller roles (its id is
// Admin's: acting as controller, it is still the proposer).
var (
	Controller2     = jackpot.Actor{ID: "ctl:dee", Role: "controller"}
	AdminAsApprover = jackpot.Actor{ID: jackpottest.Admin.ID, Role: "controller"}
)

// signedBy fails unless the ledger entry names who as its actor and by as
// its approver, for proposal id.
func signedBy(t *testing.T, e jackpot.Entry, who, by jackpot.Actor, id int64) {
	t.Helper()
	if e.Actor == nil || *e.Actor != who || e.ApprovedBy == nil || *e.ApprovedBy != by || e.Proposal != id {
		t.Fatalf("entry %d (%s): actor %v approvedBy %v proposal %d, want %v, %v, %d", e.Seq, e.Kind, e.Actor, e.ApprovedBy, e.Proposal, who, by, id)
	}
}

// testDualControlAdjustment (issue 16 item 3): an admin proposes +50,000
// on the reserve; the meters do not move (reserve 0, 1 entry more: the
// proposal) until a controller approves; then the reserve is exactly
// 50,000, by one adjustment entry naming the admin (actor) and the
// controller (approvedBy). The proposer cannot approve its own proposal
// even acting as controller (403); approving again is refused (409), the
// same key returns the first answer; reconcile holds.
func testDualControlAdjustment(t *testing.T, st pools.Store) {
	ctx, _, svc := mbsPool(t, st)
	adj := jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &jackpot.Adjustment{Meter: "reserve", Amount: 50_000, Reason: "reserve top-up approved by finance"}}
	if _, _, _, err := svc.Propose(ctx, "p", adj, Controller2, "prop-1"); fault.KindOf(err) != fault.Forbidden {
		t.Fatalf("a controller proposes no adjustment: %v", err)
	}
	if _, _, _, err := svc.Propose(ctx, "p", adj, jackpottest.Admin, ""); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("no key: %v", err)
	}
	p, pr, replayed, err := svc.Propose(ctx, "p", adj, jackpottest.Admin, "prop-1")
	if err != nil || replayed || pr.State != jackpot.ProposalOpen || pr.ProposedBy != jackpottest.Admin || pr.ID != 2 || !pr.ExpiresAt.Equal(jackpottest.T0.Add(30*time.Minute)) {
		t.Fatalf("propose: %+v %v %v", pr, replayed, err)
	}
	if p.Meters.Reserve != 0 || p.Meters.Displayed != 10_000_000 || p.Seq != 2 {
		t.Fatalf("a proposal moves nothing: %+v seq %d", p.Meters, p.Seq)
	}
	if _, again, replayed, err := svc.Propose(ctx, "p", adj, jackpottest.Admin, "prop-1"); err != nil || !replayed || again.ID != pr.ID {
		t.Fatalf("the same key again: %+v %v %v", again, replayed, err)
	}
	if open, err := svc.Proposals(ctx, "p"); err != nil || len(open) != 1 || open[0].ID != pr.ID {
		t.Fatalf("open proposals: %+v %v", open, err)
	}
	for _, c := range []struct {
		name string
		by   jackpot.Actor
		want fault.Kind
	}{
		{"the proposer itself", jackpottest.Admin, fault.Forbidden},
		{"the proposer holding the controller role too", AdminAsApprover, fault.Forbidden},
		{"a supervisor", jackpottest.Supervisor, fault.Forbidden},
	} {
		if _, _, err := svc.Approve(ctx, "p", pr.ID, c.by, "ok-"+c.by.ID+c.by.Role); fault.KindOf(err) != c.want {
			t.Fatalf("%s approves: %v, want %v", c.name, err, c.want)
		}
	}
	if m := meters(t, svc, "p"); m.Reserve != 0 {
		t.Fatalf("refused approvals moved the reserve: %d", m.Reserve)
	}
	res, replayed, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "ok-1")
	if err != nil || replayed || res.Proposal.State != jackpot.ProposalApproved || res.Proposal.DecidedBy == nil || *res.Proposal.DecidedBy != jackpottest.Controller {
		t.Fatalf("approve: %+v %v %v", res.Proposal, replayed, err)
	}
	if m := res.Pool.Meters; m.Reserve != 50_000 || m.Displayed != 10_000_000 || m.HouseFunded != 10_000_000 {
		t.Fatalf("after the approval: %+v", m)
	}
	es, _ := allEntries(ctx, st, "p")
	if len(es) != 3 || es[1].Kind != jackpot.KindProposal || es[2].Kind != jackpot.KindAdjustment || es[2].Reserve != 50_000 {
		t.Fatalf("ledger: %+v", es)
	}
	signedBy(t, es[2], jackpottest.Admin, jackpottest.Controller, pr.ID)
	if again, replayed, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "ok-1"); err != nil || !replayed || again.Pool.Meters.Reserve != 50_000 {
		t.Fatalf("the same approval again: %v %v", replayed, err)
	}
	for _, by := range []jackpot.Actor{jackpottest.Controller, Controller2} {
		if _, _, err := svc.Approve(ctx, "p", pr.ID, by, "ok-again-"+by.ID); fault.KindOf(err) != fault.Conflict {
			t.Fatalf("approving twice (%s): %v", by.ID, err)
		}
	}
	if _, _, _, err := svc.Withdraw(ctx, "p", pr.ID, jackpottest.Admin, "w-late"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("withdrawing an approved proposal: %v", err)
	}
	if m := meters(t, svc, "p"); m.Reserve != 50_000 {
		t.Fatalf("applied more than once: reserve %d", m.Reserve)
	}
	if _, _, err := svc.Approve(ctx, "p", 99, jackpottest.Controller, "ok-99"); fault.KindOf(err) != fault.NotFound {
		t.Fatalf("an unknown proposal: %v", err)
	}
	// Both signatures at once (Adjust, as tools call it): the same
	// principal twice, an approver not acting as controller, or none, are
	// refused and move nothing.
	for _, c := range []struct {
		name string
		by   jackpot.Actor
		want fault.Kind
	}{
		{"the proposer approving itself", AdminAsApprover, fault.Forbidden},
		{"a supervisor approving", jackpottest.Supervisor, fault.Forbidden},
		{"no approver", jackpot.Actor{}, fault.Unauthenticated},
	} {
		if _, _, err := svc.Adjust(ctx, "p", *adj.Adjustment, jackpottest.Admin, c.by, "direct-"+c.name); fault.KindOf(err) != c.want {
			t.Fatalf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if m := meters(t, svc, "p"); m.Reserve != 50_000 {
		t.Fatalf("a refused adjustment moved the reserve: %d", m.Reserve)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testDualControlExpiryAndWithdraw: a proposal expires after the pool's
// setting (default 30 minutes: at T0+30m it can no longer be approved; a
// 60 s setting, after 60 s); an expired proposal is closed by the next
// proposal (proposal_expired) and stays refused; the proposer withdraws
// another (nobody else may), after which it cannot be approved. The
// meters never move: reserve 0, displayed 10,000,000.
func testDualControlExpiryAndWithdraw(t *testing.T, st pools.Store) {
	ctx, clock, svc := mbsPool(t, st)
	adj := func(more money.Amount) jackpot.Change {
		return jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &jackpot.Adjustment{Meter: "reserve", Amount: 50_000 + more, Reason: "top-up"}}
	}
	_, first, _, err := svc.Propose(ctx, "p", adj(0), jackpottest.Admin, "e-1")
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(30*time.Minute - time.Millisecond)
	if open, _ := svc.Proposals(ctx, "p"); len(open) != 1 {
		t.Fatalf("open just before it expires: %+v", open)
	}
	clock.Advance(time.Millisecond)
	if open, _ := svc.Proposals(ctx, "p"); len(open) != 0 {
		t.Fatalf("an expired proposal is not open: %+v", open)
	}
	if _, _, err := svc.Approve(ctx, "p", first.ID, jackpottest.Controller, "e-ok-1"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("approving an expired proposal: %v", err)
	}
	// The next proposal closes the expired one.
	_, second, _, err := svc.Propose(ctx, "p", adj(1), jackpottest.Admin, "e-2")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Approve(ctx, "p", first.ID, jackpottest.Controller, "e-ok-2"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("approving an expired, closed proposal: %v", err)
	}
	if _, _, _, err := svc.Withdraw(ctx, "p", second.ID, jackpottest.Supervisor, "w-0"); fault.KindOf(err) != fault.Forbidden {
		t.Fatalf("only the proposer withdraws: %v", err)
	}
	_, w, replayed, err := svc.Withdraw(ctx, "p", second.ID, jackpottest.Admin, "w-1")
	if err != nil || replayed || w.State != jackpot.ProposalWithdrawn {
		t.Fatalf("withdraw: %+v %v", w, err)
	}
	if _, _, err := svc.Approve(ctx, "p", second.ID, jackpottest.Controller, "e-ok-3"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("approving a withdrawn proposal: %v", err)
	}
	es, _ := allEntries(ctx, st, "p")
	kinds := ""
	for _, e := range es {
		kinds += string(e.Kind) + " "
	}
	if kinds != "opening proposal proposal_expired proposal proposal_withdrawn " {
		t.Fatalf("ledger: %s", kinds)
	}
	if m := meters(t, svc, "p"); m.Reserve != 0 || m.Displayed != 10_000_000 {
		t.Fatalf("nothing was approved: %+v", m)
	}
	// A pool whose proposals wait 60 s.
	s := jackpottest.MBSSettings()
	s.ProposalTTLSeconds = 60
	if _, _, err := svc.Create(ctx, "short", s, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	_, pr, _, err := svc.Propose(ctx, "short", adj(0), jackpottest.Admin, "s-1")
	if err != nil || !pr.ExpiresAt.Equal(clock.Now().Add(time.Minute)) {
		t.Fatalf("a 60 s proposal: %+v %v", pr, err)
	}
	clock.Advance(time.Minute)
	if _, _, err := svc.Approve(ctx, "short", pr.ID, jackpottest.Controller, "s-ok"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("approving after 60 s: %v", err)
	}
	jackpottest.MustReconcile(t, svc, "p")
	jackpottest.MustReconcile(t, svc, "short")
}

// testDualControlVoid: the lock tests' pending Royal (testLockVoidAfter
// Rounds: 10,000,259 paid pending, three more rounds, displayed
// 10,000,780, reserve 233) voided by a supervisor's proposal and a
// controller's approval: until the approval nothing moves; after it
// displayed 10,001,039, reserve 310, the house back at 10,000,000, as a
// twin pool that never had the hit; both entries of the void (hit_void,
// reset_void) name the supervisor and the controller.
func testDualControlVoid(t *testing.T, st pools.Store) {
	defer sameHitHistory(t, st, "p")
	defer sameInstants(t, st, "p")
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	res := royalThenThreeRounds(t, ctx, svc)
	seq := res.Payouts[0].Seq
	void := jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: seq, Reason: "the 10 of spades was a 10 of clubs"}}
	if _, _, _, err := svc.Propose(ctx, "p", void, jackpottest.Admin, "v-0"); fault.KindOf(err) != fault.Forbidden {
		t.Fatalf("an admin proposes no void: %v", err)
	}
	if _, _, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: seq}}, jackpottest.Supervisor, "v-0"); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("a void states its reason (checked when proposed): %v", err)
	}
	p, pr, _, err := svc.Propose(ctx, "p", void, jackpottest.Supervisor, "v-1")
	if err != nil {
		t.Fatal(err)
	}
	if m := p.Meters; m.Displayed != 10_000_780 || m.Reserve != 233 || len(p.LockedHits("")) != 1 || p.LockedHits("")[0].State != jackpot.StatePending {
		t.Fatalf("a proposed void moves nothing: %+v %+v", m, p.LockedHits(""))
	}
	if _, _, err := svc.Approve(ctx, "p", pr.ID, jackpot.Actor{ID: jackpottest.Supervisor.ID, Role: "controller"}, "v-ok-0"); fault.KindOf(err) != fault.Forbidden {
		t.Fatalf("the proposing supervisor approves: %v", err)
	}
	out, _, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "v-ok")
	if err != nil || out.Hit == nil || out.Hit.State != jackpot.StateVoided || out.Hit.VoidedBy == nil || *out.Hit.VoidedBy != jackpottest.Supervisor {
		t.Fatalf("approve the void: %+v %v", out.Hit, err)
	}
	m, twin := out.Pool.Meters, meters(t, svc, "twin")
	if m.Displayed != 10_001_039 || m.Reserve != 310 || m.HouseFunded != 10_000_000 || m.Resets != 0 || m.Hits["royal_flush"].Count != 0 || m.Hits["royal_flush"].Paid != 0 {
		t.Fatalf("after the void: %+v", m)
	}
	if m.Displayed != twin.Displayed || m.Reserve != twin.Reserve || m.Overflow != twin.Overflow || m.HouseFunded != twin.HouseFunded ||
		m.CarryDisplayed != twin.CarryDisplayed || m.CarryReserve != twin.CarryReserve || m.Contributed != twin.Contributed {
		t.Fatalf("the void leaves the meters as if the hit never happened:\n got %+v\ntwin %+v", m, twin)
	}
	es, _ := allEntries(ctx, st, "p")
	var signed []string
	for _, e := range es[pr.ID:] {
		signedBy(t, e, jackpottest.Supervisor, jackpottest.Controller, pr.ID)
		signed = append(signed, string(e.Kind))
	}
	if fmt.Sprint(signed) != "[hit_void reset_void]" {
		t.Fatalf("the void's entries: %v", signed)
	}
	if _, _, err := svc.Approve(ctx, "p", pr.ID, Controller2, "v-ok-2"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("approving the void twice: %v", err)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testDualControlCorrection: a round that contributed only (3 x 500:
// 259 to the displayed meter, 77 to the reserve) voided with its rule
// (R28) on a supervisor's proposal: nothing moves until the controller
// approves; then displayed 10,000,000 and reserve 0 again.
func testDualControlCorrection(t *testing.T, st pools.Store) {
	ctx, _, svc := mbsPool(t, st)
	apply(t, svc, "p", lockRound("T1", "r1", false))
	corr := jackpot.Change{Kind: jackpot.ProposeCorrection, Correction: &jackpot.Correction{Table: "T1", Round: "r1", Reason: "two cards exposed", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}}
	if _, _, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeCorrection, Correction: &jackpot.Correction{Table: "T1", Round: "nope", Reason: "x", Rules: []string{"r"}}}, jackpottest.Supervisor, "c-0"); fault.KindOf(err) != fault.NotFound {
		t.Fatalf("an unknown round is refused when proposed: %v", err)
	}
	p, pr, _, err := svc.Propose(ctx, "p", corr, jackpottest.Supervisor, "c-1")
	if err != nil || p.Meters.Displayed != 10_000_259 || p.Meters.Reserve != 77 {
		t.Fatalf("propose: %+v %v", p.Meters, err)
	}
	out, _, err := svc.Approve(ctx, "p", pr.ID, jackpottest.Controller, "c-ok")
	if err != nil || out.Correction == nil || out.Pool.Meters.Displayed != 10_000_000 || out.Pool.Meters.Reserve != 0 || out.Correction.Difference.Displayed != -259 {
		t.Fatalf("approve: %+v %v", out.Correction, err)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testDualControlOnePersonTwoRoles: in the stack a principal is an IAM
// role session, so one person holding the admin and the controller roles
// signs as two principals, arn:...:assumed-role/<admin role>/alice and
// .../<controller role>/alice. Dual control counts people: alice's
// controller session cannot approve alice's proposal, through the
// proposal or both signatures at once (403, nothing moves); bob's can,
// and the reserve is exactly 50,000 more.
func testDualControlOnePersonTwoRoles(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	aliceAdmin, aliceCtl, bobCtl := session("admin", "alice"), session("controller", "alice"), session("controller", "bob")
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), aliceAdmin); err != nil {
		t.Fatal(err)
	}
	adj := jackpot.Adjustment{Meter: "reserve", Amount: 50_000, Reason: "reserve top-up approved by finance"}
	_, pr, _, err := svc.Propose(ctx, "p", jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &adj}, aliceAdmin, "prop-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Approve(ctx, "p", pr.ID, aliceCtl, "ok-alice"); fault.KindOf(err) != fault.Forbidden {
		t.Fatalf("alice's controller session approves alice's proposal: %v, want Forbidden", err)
	}
	if _, _, err := svc.Adjust(ctx, "p", adj, aliceAdmin, aliceCtl, "direct-alice"); fault.KindOf(err) != fault.Forbidden {
		t.Fatalf("alice signs twice at once: %v, want Forbidden", err)
	}
	if m := meters(t, svc, "p"); m.Reserve != 0 {
		t.Fatalf("a refused approval moved the reserve: %d", m.Reserve)
	}
	res, _, err := svc.Approve(ctx, "p", pr.ID, bobCtl, "ok-bob")
	if err != nil || res.Pool.Meters.Reserve != 50_000 {
		t.Fatalf("bob approves: %+v %v", res.Pool.Meters, err)
	}
	es, _ := allEntries(ctx, st, "p")
	signedBy(t, es[len(es)-1], aliceAdmin, bobCtl, pr.ID)
	jackpottest.MustReconcile(t, svc, "p")
}

// session is person's IAM session of the stack's role for role, acting as
// it: arn:aws:sts::ACCOUNT:assumed-role/<role's IAM role>/<person>.
func session(role, person string) jackpot.Actor {
	return jackpot.Actor{ID: "arn:aws:sts::123456789012:assumed-role/tablesettle-prod-Role" + strings.ToUpper(role[:1]) + role[1:] + "-1A/" + person, Role: role}
}
