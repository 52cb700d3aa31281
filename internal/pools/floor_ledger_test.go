package pools_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// The floor pages the ledger oldest first (after) or newest first
// (before), each entry's money signed (issue 24 item 7): the opening seed
// (ruling R21) +the reset amount, a contribution what it credited.
func TestFloorLedgerPages(t *testing.T) {
	s := jackpottest.MBSSettings()
	svc, _, _ := openPool(t, "p", s)
	ctx := context.Background()
	for i := range 3 {
		r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "T1", fmt.Sprint("r", i), jackpottest.T0, s.Unit, []int{1})
		if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := svc.Get(ctx, "p")
	seqs := func(pg pools.FloorLedger) []int64 {
		out := []int64{}
		for _, e := range pg.Entries {
			out = append(out, e.Seq)
		}
		return out
	}
	next := func(pg pools.FloorLedger) int64 {
		if pg.Next == nil {
			return 0
		}
		return *pg.Next
	}
	asc, err := svc.FloorLedger(ctx, "p", "asc", 0, 0, 2)
	if err != nil || fmt.Sprint(seqs(asc)) != "[1 2]" || next(asc) != 2 {
		t.Fatalf("asc: %v %v next %d", err, seqs(asc), next(asc))
	}
	if e := asc.Entries[0]; e.Kind != jackpot.KindOpening || e.Amount != s.Reset {
		t.Errorf("opening: %s %d, want +%d", e.Kind, e.Amount, s.Reset)
	}
	if e := asc.Entries[1]; e.Kind != jackpot.KindContribution || e.Amount <= 0 {
		t.Errorf("contribution: %s %d", e.Kind, e.Amount)
	}
	n := p.Seq
	desc, _ := svc.FloorLedger(ctx, "p", "desc", 0, 0, 2)
	if fmt.Sprint(seqs(desc)) != fmt.Sprint([]int64{n, n - 1}) || next(desc) != n-1 {
		t.Fatalf("desc: %v next %d (seq %d)", seqs(desc), next(desc), n)
	}
	last, _ := svc.FloorLedger(ctx, "p", "desc", 0, 3, 5)
	if fmt.Sprint(seqs(last)) != "[2 1]" || last.Next != nil {
		t.Fatalf("desc before 3: %v next %d", seqs(last), next(last))
	}
	if _, err := svc.FloorLedger(ctx, "nope", "asc", 0, 0, 2); err == nil {
		t.Error("an unknown pool was read")
	}
}
