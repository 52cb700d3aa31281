package jackpot_test

import (
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
)

// TestProposalsBounded: a pool holds at most MaxOpenProposals open (they
// live in its item); the next is refused (409) until one expires, and an
// expired one is closed by the next proposal with a proposal_expired
// entry. No proposal moves a meter.
func TestProposalsBounded(t *testing.T) {
	p, _, err := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	if err != nil {
		t.Fatal(err)
	}
	ch := jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &jackpot.Adjustment{Meter: "reserve", Amount: 1, Reason: "x"}}
	for i := 0; i < jackpot.MaxOpenProposals; i++ {
		if p, _, _, _, err = jackpot.Propose(p, ch, ops, t0); err != nil {
			t.Fatalf("proposal %d: %v", i+1, err)
		}
	}
	if _, _, _, _, err := jackpot.Propose(p, ch, ops, t0); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("proposal %d: %v, want a conflict", jackpot.MaxOpenProposals+1, err)
	}
	q, es, pr, expired, err := jackpot.Propose(p, ch, ops, t0.Add(jackpot.DefaultProposalTTL))
	if err != nil || len(expired) != jackpot.MaxOpenProposals || len(q.Proposals) != 1 || q.Proposals[0].ID != pr.ID {
		t.Fatalf("after the expiry: %v, %d expired, %d open", err, len(expired), len(q.Proposals))
	}
	if len(es) != jackpot.MaxOpenProposals+1 || es[0].Kind != jackpot.KindProposalExpired || es[len(es)-1].Kind != jackpot.KindProposal {
		t.Fatalf("entries: %d", len(es))
	}
	if q.Meters.Reserve != 0 || q.Meters.Displayed != 10_000_000 {
		t.Fatalf("proposals moved a meter: %+v", q.Meters)
	}
	if !pr.ExpiresAt.Equal(t0.Add(jackpot.DefaultProposalTTL).Add(30 * time.Minute)) {
		t.Fatalf("expires at %v", pr.ExpiresAt)
	}
}

// Issue 24 "errors worded in money, not cents": what a proposed
// adjustment will do is stated in the pool's currency, signed, its
// thousands grouped (the proposal's ledger note and the 409 refusing its
// double).
func TestDescribeInMoney(t *testing.T) {
	for _, c := range []struct {
		cur    money.Currency
		amount money.Amount
		want   string
	}{
		{"SGD", 150000, "adjust the reserve meter by +SGD 1,500.00"},
		{"SGD", -1475, "adjust the reserve meter by -SGD 14.75"},
		{"JPY", 1234567, "adjust the reserve meter by +JPY 1,234,567"},
	} {
		ch := jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &jackpot.Adjustment{Meter: "reserve", Amount: c.amount, Reason: "x"}}
		if got := ch.Describe(c.cur); got != c.want {
			t.Errorf("%s %d: %q, want %q", c.cur, c.amount, got, c.want)
		}
	}
}
