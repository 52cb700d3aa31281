package poolstest

import (
	"fmt"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// testKeysExactlyOnce: every operation that moves money or the lock is
// applied once under its Idempotency-Key (issues 13 and 16): the same key
// with the same request answers the first answer (replayed, the same
// version and hit), even after the pool moved on; the same key with
// another request (another hit, another principal, another reason) is a
// 409; neither moves a meter. The Royal of 10,000,259 at T1 is confirmed
// and paid, the one at T2 (10,000,260) voided on a proposal, round T3/r1
// corrected from three wagers to two (difference -86 displayed, -26
// reserve): each once, the sums below to the minor unit.
func testKeysExactlyOnce(t *testing.T, st pools.Store) {
	ctx := tableCtx()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	if _, _, err := svc.Create(ctx, "p", LockedSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	a := applyAs(ctx, t, svc, "p", lockRound("T1", "r1", true)).Payouts[0]
	b := applyAs(ctx, t, svc, "p", lockRound("T2", "r1", true)).Payouts[0]
	applyAs(ctx, t, svc, "p", lockRound("T3", "r1", false))
	if a.Amount != 10_000_259 || b.Amount != 10_000_260 {
		t.Fatalf("the Royals: %d %d", a.Amount, b.Amount)
	}
	corrected := jackpottest.RoundOf(ssp, "T3", "r1", jackpottest.T0, 500, []int{1, 2})
	corr := jackpot.Correction{Table: "T3", Round: "r1", Corrected: &corrected, Reason: "seat 3's wager was returned"}
	voidB := jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: b.Seq, Reason: "misread"}}
	var proposal int64
	type answer struct {
		version int64
		state   string
	}
	ops := []struct {
		name  string
		first func() (answer, bool, error)
		other func() error
	}{
		{"confirm", func() (answer, bool, error) {
			p, h, r, err := svc.Confirm(ctx, "p", a.Seq, jackpottest.Supervisor, "k-confirm")
			return answer{p.Version, h.State}, r, err
		}, func() error {
			_, _, _, err := svc.Confirm(ctx, "p", a.Seq, jackpot.Actor{ID: "sup:cy", Role: "supervisor"}, "k-confirm")
			return err
		}},
		{"paid", func() (answer, bool, error) {
			p, h, r, err := svc.MarkPaid(ctx, "p", a.Seq, jackpottest.Cage, "k-paid")
			return answer{p.Version, h.State}, r, err
		}, func() error {
			_, _, _, err := svc.MarkPaid(ctx, "p", b.Seq, jackpottest.Cage, "k-paid")
			return err
		}},
		{"propose", func() (answer, bool, error) {
			p, pr, r, err := svc.Propose(ctx, "p", voidB, jackpottest.Supervisor, "k-propose")
			proposal = pr.ID
			return answer{p.Version, pr.State}, r, err
		}, func() error {
			other := voidB
			other.Void = &jackpot.VoidHit{Seq: b.Seq, Reason: "another reason"}
			_, _, _, err := svc.Propose(ctx, "p", other, jackpottest.Supervisor, "k-propose")
			return err
		}},
		{"approve", func() (answer, bool, error) {
			out, r, err := svc.Approve(ctx, "p", proposal, jackpottest.Controller, "k-approve")
			st := ""
			if out.Hit != nil {
				st = out.Hit.State
			}
			return answer{out.Pool.Version, st}, r, err
		}, func() error {
			_, _, err := svc.Approve(ctx, "p", proposal, Controller2, "k-approve")
			return err
		}},
		{"correct", func() (answer, bool, error) {
			res, r, err := svc.Correct(ctx, "p", corr, jackpottest.Supervisor, jackpottest.Controller, "k-correct")
			return answer{res.Version, fmt.Sprint(res.Difference.Displayed, "/", res.Difference.Reserve)}, r, err
		}, func() error {
			other := corr
			other.Reason = "another reason"
			_, _, err := svc.Correct(ctx, "p", other, jackpottest.Supervisor, jackpottest.Controller, "k-correct")
			return err
		}},
	}
	firsts := map[string]answer{}
	for _, op := range ops {
		got, replayed, err := op.first()
		if err != nil || replayed {
			t.Fatalf("%s: %v replayed %v", op.name, err, replayed)
		}
		firsts[op.name] = got
	}
	// The correction's difference: -259 + 173 = -86 displayed, -77 + 51 = -26 reserve.
	if firsts["confirm"].state != jackpot.StateConfirmed || firsts["paid"].state != jackpot.StatePaid || firsts["propose"].state != jackpot.ProposalOpen ||
		firsts["approve"].state != jackpot.StateVoided || firsts["correct"].state != "-86/-26" {
		t.Fatalf("first answers: %+v", firsts)
	}
	settled := meters(t, svc, "p")
	// T1's Royal paid 10,000,259 (reset: reserve 77, house 9,999,923);
	// T2's voided: its 10,000,260 back, its reset reversed (reserve 78
	// back); T3/r1's 260 (carry .85) and 77 (.65) taken back to carries
	// .90 and .10, its two wagers then 174 (173.3 + .90) and 51 (51.7 +
	// .10): displayed 10,000,000 + 260 + 174 = 10,000,434, reserve 78 +
	// 51 = 129, house 19,999,923.
	if settled.Displayed != 10_000_434 || settled.Reserve != 129 || settled.HouseFunded != 19_999_923 || settled.Hits["royal_flush"].Count != 1 || settled.Hits["royal_flush"].Paid != 10_000_259 {
		t.Fatalf("after every operation once: %+v", settled)
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			got, replayed, err := op.first()
			if err != nil || !replayed || got != firsts[op.name] {
				t.Fatalf("the same key again: %+v replayed %v %v; want the first answer %+v", got, replayed, err, firsts[op.name])
			}
			if err := op.other(); fault.KindOf(err) != fault.Conflict {
				t.Fatalf("the key with another request: %v, want 409", err)
			}
		})
	}
	m := meters(t, svc, "p")
	sameMeters(t, "replays and refusals move nothing", m, settled)
	if m.HouseFunded != settled.HouseFunded {
		t.Fatalf("house %d, want %d", m.HouseFunded, settled.HouseFunded)
	}
	jackpottest.MustReconcile(t, svc, "p")
	everyMoveSigned(t, st, "p")
}
