package poolstest

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// testMetersAtSkewedWriters: issue 13 item 3 (the meters as they stood at
// an instant, for RWS 5.18.1 and disputes). Two writers whose clocks
// differ by 5 s share the pool: the one ahead commits r1 at T1 with a
// Straight Flush at T0+10s (10% of 10,000,259: 1,000,025, R3; displayed
// 9,000,234), then the one behind commits r1 at T2 at T0+5s (260). The
// meters as of T0+7s are the ledger as it stood then: a prefix of it, the
// opening alone (displayed 10,000,000, through entry 1), never the later
// T2 contribution without the Straight Flush committed before it
// (displayed 10,000,260, a meter the pool never showed).
func testMetersAtSkewedWriters(t *testing.T, st pools.Store) {
	ctx := tableCtx()
	clock := jackpottest.NewClock(jackpottest.T0)
	ahead, behind := service(st, clock), service(st, jackpottest.NewClock(jackpottest.T0.Add(5*time.Second)))
	defer sameInstants(t, st, "p")
	if _, _, err := ahead.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	res := applyAs(ctx, t, ahead, "p", jackpottest.RoundOf(ssp, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3}, jackpottest.StraightFlush(ssp, 1, 1, 500)))
	if len(res.Payouts) != 1 || res.Payouts[0].Amount != 1_000_025 {
		t.Fatalf("the Straight Flush: %+v", res.Payouts)
	}
	applyAs(ctx, t, behind, "p", jackpottest.RoundOf(ssp, "T2", "r1", jackpottest.T0, 500, []int{1, 2, 3}))
	if m := meters(t, ahead, "p"); m.Displayed != 9_000_494 {
		t.Fatalf("displayed %d, want 9,000,494", m.Displayed)
	}
	for _, c := range []struct {
		at         time.Time
		displayed  money.Amount
		throughSeq int64
	}{
		{jackpottest.T0.Add(7 * time.Second), 10_000_000, 1},
		{jackpottest.T0.Add(10 * time.Second), 9_000_494, 4},
	} {
		got, err := foldThen(t, ahead, "p").MetersAt(ctx, "p", c.at)
		if err != nil {
			t.Fatal(err)
		}
		if got.Meters.Displayed != c.displayed || got.ThroughSeq != c.throughSeq || got.Entries != c.throughSeq {
			t.Fatalf("as of %s: displayed %d through %d (%d entries); want %d through %d", c.at.Format(time.TimeOnly), got.Meters.Displayed, got.ThroughSeq, got.Entries, c.displayed, c.throughSeq)
		}
	}
	jackpottest.MustReconcile(t, ahead, "p")
}

// testMetersAt: issue 13 item 3. The meters as they stood at an instant:
// at the opening 10,000,000; after the first round 10,000,259 and the
// reserve 77; after the Royal round the reset pool 10,000,000 plus the
// remainder.
func testMetersAt(t *testing.T, st pools.Store) {
	ctx, clock, svc := mbsPool(t, st)
	defer sameInstants(t, st, "p")
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
			got, err := foldThen(t, svc, "p").MetersAt(ctx, "p", c.at)
			if err != nil {
				t.Fatal(err)
			}
			if int64(got.Meters.Displayed) != c.displayed || int64(got.Meters.Reserve) != c.reserve || got.ThroughSeq != c.through {
				t.Fatalf("%+v", got)
			}
		})
	}
}

// testReportFromTheEnd: issue 24 item 8 (the shift report), read from the
// end of the ledger back to its start (jackpot.Stamps). The report lists
// as liabilities the hits open at its end that were committed before its
// start, which the read back does not reach: a Royal under the jackpot
// lock (10,000,519: the meter after r1's 259 and r2's own 260, R3)
// pending from T0+2s, confirmed at T0+4s and paid at T0+6s, and an RWS
// Royal held from T0+2s for the ten minutes of its settle window (R7), still
// held when the case ends. One round a second between them.
func testReportFromTheEnd(t *testing.T, st pools.Store) {
	defer sameInstants(t, st, "p", "rws")
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	s := jackpottest.RWSSettings()
	s.SettleWindowMS = 600_000
	for id, s := range map[string]jackpot.Settings{"p": LockedSettings(), "rws": s} {
		if _, _, err := svc.Create(ctx, id, s, jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	const rws = "rws-mlp-csp-v2"
	at := func(ms int64) time.Time { return jackpottest.T0.Add(time.Duration(ms) * time.Millisecond) }
	var royal int64
	for i := 1; i <= 7; i++ {
		clock.Advance(time.Second)
		switch i {
		case 2:
			res := apply(t, svc, "p", lockRound("T1", "r2", true))
			hits, err := svc.LockedHits(ctx, "p", "T1")
			if len(res.Payouts) != 1 || res.Payouts[0].Status != jackpot.StatePending || err != nil || len(hits) != 1 || hits[0].Amount != 10_000_519 {
				t.Fatalf("the Royal: %+v %+v %v", res.Payouts, hits, err)
			}
			royal = hits[0].Seq
			held := jackpottest.RoundOf(rws, "T2", "r2", clock.Now(), 500, []int{1}, jackpottest.Royal(rws, 1, 1, 500))
			if res := apply(t, svc, "rws", held); len(res.Payouts) != 1 || res.Payouts[0].Status != "held" {
				t.Fatalf("the held Royal: %+v", res.Payouts)
			}
		case 4:
			if _, _, _, err := svc.Confirm(ctx, "p", royal, jackpottest.Supervisor, "confirm"); err != nil {
				t.Fatal(err)
			}
		case 6:
			if _, _, _, err := svc.MarkPaid(ctx, "p", royal, jackpottest.Cage, "pay"); err != nil {
				t.Fatal(err)
			}
		default:
			apply(t, svc, "p", lockRound("T1", fmt.Sprint("r", i), false))
			apply(t, svc, "rws", jackpottest.RoundOf(rws, "T2", fmt.Sprint("r", i), clock.Now(), 500, []int{1}))
		}
	}
	for _, c := range []struct {
		from, to           int64 // milliseconds after T0
		pending, confirmed int
		rounds             int64
	}{
		{2500, 3500, 1, 0, 1},
		{4500, 5500, 0, 1, 1},
		{2500, 5500, 0, 1, 2},
		{6500, 7500, 0, 0, 1},
	} {
		r, err := foldThen(t, svc, "p").Report(ctx, "p", at(c.from), at(c.to))
		if err != nil {
			t.Fatal(err)
		}
		l := r.Liabilities
		if len(l.Pending) != c.pending || len(l.Confirmed) != c.confirmed || r.Contributed.Rounds != c.rounds || len(r.Hits) != 0 {
			t.Fatalf("(T0+%dms, T0+%dms]: %d pending, %d confirmed, %d rounds, %d hits; want %d, %d, %d and none",
				c.from, c.to, len(l.Pending), len(l.Confirmed), r.Contributed.Rounds, len(r.Hits), c.pending, c.confirmed, c.rounds)
		}
		if want := int64(10_000_519) * int64(c.pending+c.confirmed); int64(l.Total) != want {
			t.Fatalf("(T0+%dms, T0+%dms]: liabilities %d, want %d", c.from, c.to, l.Total, want)
		}
		held, err := foldThen(t, svc, "rws").Report(ctx, "rws", at(c.from), at(c.to))
		if err != nil || len(held.Liabilities.Held) != 1 || held.Liabilities.Held[0].Hand != "royal_flush" || held.Liabilities.Total != 0 {
			t.Fatalf("rws (T0+%dms, T0+%dms]: %v %+v", c.from, c.to, err, held.Liabilities)
		}
	}
}

// testStampsAdopted: a pool written before stamps were kept (its document
// without them, written here by a commit of the pool with none) answers
// the meters as they stood from its whole ledger, as before: 10,000,259
// and a reserve of 77 between its rounds (testMetersAt). Its stamps are
// then written, in a commit of the pool on its version with no entry, so
// its next instants are read from the end of its ledger.
func testStampsAdopted(t *testing.T, st pools.Store) {
	ctx, clock, svc := mbsPool(t, st)
	defer sameInstants(t, st, "p")
	for i := 1; i <= 3; i++ {
		clock.Advance(time.Second)
		apply(t, svc, "p", lockRound("T1", fmt.Sprint("r", i), false))
	}
	p, err := svc.Get(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	legacy := p
	legacy.Version++
	legacy.Stamps = jackpot.Stamps{}
	if err := st.Commit(ctx, jackpot.Commit{PrevVersion: p.Version, Pool: legacy}); err != nil {
		t.Fatal(err)
	}
	got, err := foldThen(t, svc, "p").MetersAt(ctx, "p", jackpottest.T0.Add(1500*time.Millisecond))
	if err != nil || got.Meters.Displayed != 10_000_259 || got.Meters.Reserve != 77 || got.ThroughSeq != 2 {
		t.Fatalf("as of T0+1.5s: %v %+v", err, got)
	}
	q, err := svc.Get(ctx, "p")
	if err != nil || q.Version != legacy.Version+1 || q.Stamps.Through != q.Seq || q.Seq != p.Seq || !reflect.DeepEqual(q.Meters, p.Meters) {
		t.Fatalf("after the whole read: %v: version %d, stamps %+v, seq %d; want version %d, stamps through %d and the meters as they were",
			err, q.Version, q.Stamps, q.Seq, legacy.Version+1, p.Seq)
	}
}
