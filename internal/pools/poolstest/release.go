package poolstest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// testThirtyDue: issue 13 defect 1. Thirty RWS Straight Flushes held at
// once (reported in the reverse of their dealing order) are all paid when
// their window closes, in dealt order, each 10% of the pool as the
// previous left it (R3, R6, R7, R21), before the next round contributes.
func testThirtyDue(t *testing.T, st pools.Store) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	if _, _, err := svc.Create(ctx, "rws", jackpottest.RWSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const n = 30
	const rws = "rws-mlp-csp-v2"
	for i := range n {
		dealt := jackpottest.T0.Add(time.Duration(n-i) * time.Millisecond) // the last reported was dealt first
		r := jackpottest.RoundOf(rws, fmt.Sprintf("T%02d", i), "r1", dealt, 500, []int{1, 2, 3}, jackpottest.StraightFlush(rws, 1, 1, 500))
		if res, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil || res.Payouts[0].Status != "held" {
			t.Fatalf("round %d: %+v %v", i, res.Payouts, err)
		}
	}
	before, err := svc.Get(ctx, "rws")
	if err != nil {
		t.Fatal(err)
	}
	// 30 rounds of 3 x 500 at 17.33%: 30 x 2,599,500 / 10,000 = 7,798.5.
	if before.Meters.Displayed != 10_007_798 || len(before.Held) != n {
		t.Fatalf("before the window closes: %+v held %d", before.Meters, len(before.Held))
	}
	clock.Advance(3 * time.Second)
	after := jackpottest.RoundOf(rws, "T99", "r1", clock.Now(), 500, []int{1, 2, 3})
	if _, _, err := svc.ApplyRound(ctx, "rws", after, "", ""); err != nil {
		t.Fatal(err)
	}
	es, err := allEntries(ctx, st, "rws")
	if err != nil {
		t.Fatal(err)
	}
	pool := before.Meters.Displayed
	var paid []string
	contributedAt := -1
	for i, e := range es {
		if e.Seq <= before.Seq {
			continue
		}
		switch e.Kind {
		case jackpot.KindHit:
			want := pool / 10 // 10% of the pool as it stands, rounded down (R3)
			if e.Paid != want || contributedAt >= 0 {
				t.Fatalf("hit %d (%s) paid %d, want %d, before the contribution", len(paid), e.Table, e.Paid, want)
			}
			pool -= want
			paid = append(paid, e.Table)
		case jackpot.KindContribution:
			contributedAt = i
		}
	}
	if len(paid) != n {
		t.Fatalf("%d of %d due hits paid: %v", len(paid), n, paid)
	}
	for i, table := range paid {
		if want := fmt.Sprintf("T%02d", n-1-i); table != want {
			t.Fatalf("payment %d went to %s, want %s (dealt order, R7)", i, table, want)
		}
	}
	// The first is 1,000,779, the last 10% of what 29 payments left.
	if first := es[before.Seq].Paid; first != 1_000_779 {
		t.Fatalf("the first payment %d, want 1,000,779", first)
	}
	p, _ := svc.Get(ctx, "rws")
	if p.Meters.Displayed != pool+260 || len(p.Held) != 0 {
		t.Fatalf("after: displayed %d, want %d + the round's 260; held %d", p.Meters.Displayed, pool, len(p.Held))
	}
	jackpottest.MustReconcile(t, svc, "rws")
}

// readsFail is a store whose reads fail (a throttled or partitioned
// DynamoDB) while its writes still report what they meet.
type readsFail struct{ pools.Store }

func (readsFail) Pool(context.Context, string) (jackpot.Pool, error) {
	return jackpot.Pool{}, errors.New("read timed out")
}

// testCreateRetriedWhileReadsFail: issue 13 defect 2. POST /v1/pools
// retried while the store's reads fail answers the pool or "retry", never
// "exists with other settings".
func testCreateRetriedWhileReadsFail(t *testing.T, st pools.Store) {
	ctx := context.Background()
	if _, _, err := service(st, jackpottest.NewClock(jackpottest.T0)).Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	_, _, err := service(readsFail{st}, jackpottest.NewClock(jackpottest.T0)).Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin)
	if fault.KindOf(err) != fault.Unavailable {
		t.Fatalf("a retried create while reads fail: %v, want unavailable", err)
	}
}

// testMetersAt: issue 13 item 3. The meters as they stood at an instant:
// at the opening 10,000,000; after the first round 10,000,259 and the
// reserve 77; after the Royal round the reset pool 10,000,000 plus the
// remainder.
func testMetersAt(t *testing.T, st pools.Store) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	apply(t, svc, "p", lockRound("T1", "r1", false))
	clock.Advance(time.Second)
	apply(t, svc, "p", lockRound("T1", "r2", true))
	for _, c := range []struct {
		name               string
		at                 time.Time
		displayed, reserve int64
		through            int64
	}{
		{"before the pool", jackpottest.T0.Add(-time.Second), 0, 0, 0},
		{"at the opening", jackpottest.T0, 10_000_000, 0, 1},
		{"between the rounds", jackpottest.T0.Add(1500 * time.Millisecond), 10_000_259, 77, 2},
		{"after the Royal", jackpottest.T0.Add(3 * time.Second), 10_000_000, 0, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := svc.MetersAt(ctx, "p", c.at)
			if err != nil {
				t.Fatal(err)
			}
			if int64(got.Meters.Displayed) != c.displayed || int64(got.Meters.Reserve) != c.reserve || got.ThroughSeq != c.through {
				t.Fatalf("%+v", got)
			}
		})
	}
}
