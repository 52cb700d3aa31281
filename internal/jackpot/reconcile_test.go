package jackpot_test

import (
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
)

// TestReconcileChecksAReversalAgainstItsOriginal: issue 21 item 2, ruling
// R28. A void's refund carries the wagers and rate sums of the
// contribution it takes back (-500, -866,500 and -258,500): reconcile is
// ok. A refund whose sums are not the original's is reported, naming the
// entry it reverses.
func TestReconcileChecksAReversalAgainstItsOriginal(t *testing.T) {
	const ssp = "mbs-megalink-ssp-v6"
	p, ledger, err := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	if err != nil {
		t.Fatal(err)
	}
	p, es, _, err := jackpot.Apply(p, jackpottest.RoundOf(ssp, "T1", "R1", t0, 500, []int{1}), t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range es {
		es[i].Commit = "c1" // as the service stamps its commit
	}
	ledger = append(ledger, es...)
	p, es, _, err = jackpot.Correct(p, ledger, "c1", jackpot.Correction{Table: "T1", Round: "R1", Reason: "two cards exposed", Rules: []string{ssp + " 5.4"}}, jackpottest.Controller, t0)
	if err != nil {
		t.Fatal(err)
	}
	ledger = append(ledger, es...)
	refund := ledger[len(ledger)-1]
	if refund.WagerAmount != -500 || refund.RateSum != -866_500 || refund.RateSumReserve != -258_500 || refund.HitSeq != 2 {
		t.Fatalf("the refund: %+v", refund)
	}
	if rec := jackpot.Reconcile(p, ledger); !rec.OK {
		t.Fatalf("%+v %v", rec.Differences, rec.Problems)
	}
	tampered := append([]jackpot.Entry(nil), ledger...)
	tampered[len(tampered)-1].Wagers, tampered[len(tampered)-1].WagerAmount = -2, -1000
	rec := jackpot.Reconcile(p, tampered)
	found := false
	for _, pr := range rec.Problems {
		found = found || strings.Contains(pr, "a reversal of entry 2")
	}
	if rec.OK || !found {
		t.Fatalf("a refund that is not its original's: %+v %v", rec.Differences, rec.Problems)
	}
}

// TestReconcileChecksLastAndHeldHits: the pool's last hits and held RWS
// hits (R7) are what the ledger says; a pool that lost one is reported.
func TestReconcileChecksLastAndHeldHits(t *testing.T) {
	const rs = "rws-mlp-csp-v2"
	p, ledger, _ := jackpot.New("p", jackpottest.RWSSettings(), ops, t0)
	r := jackpottest.RoundOf(rs, "t", "r1", t0, 500, []int{1, 2}, jackpottest.StraightFlush(rs, 1, 1, 500), jackpottest.FourOfAKind(rs, 2, 2, 500))
	p, es, _, err := jackpot.Apply(p, r, t0)
	if err != nil {
		t.Fatal(err)
	}
	ledger = append(ledger, es...)
	if rec := jackpot.Reconcile(p, ledger); !rec.OK || len(p.Held) != 1 || len(p.LastHits) != 1 {
		t.Fatalf("%v held %d last %d", rec.Problems, len(p.Held), len(p.LastHits))
	}
	lost := p
	lost.Held = nil
	if rec := jackpot.Reconcile(lost, ledger); rec.OK {
		t.Fatal("a pool that dropped its held hit reconciles")
	}
	lost = p
	lost.LastHits = nil
	if rec := jackpot.Reconcile(lost, ledger); rec.OK {
		t.Fatal("a pool that dropped its last hit reconciles")
	}
}
