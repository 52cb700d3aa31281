package poolstest

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// sameInstants checks, at the end of a case, that the meters as they
// stood at an instant and the shift report, which the service reads from
// the end of the ledger back to the instant (jackpot.Stamps), are what
// the whole ledger gives, at the times the entries are stamped with, a
// nanosecond either side of them, and before the pool. It checks too that
// the pool's stamps are its ledger's (every commit keeps them, the store
// writes them as they are, a sharded store with the rounds it folds in),
// and, cutting the ledger at
// every entry those stamps allow for each instant, that the head's sum
// and the tail (jackpot.TailLedger) give what the whole ledger gives.
func sameInstants(t *testing.T, st pools.Store, ids ...string) {
	t.Helper()
	if t.Failed() {
		return
	}
	ctx := context.Background()
	now := time.Now()
	svc := pools.NewService(st, func() time.Time { return now }, 1)
	for _, id := range ids {
		if err := svc.Fold(ctx, id); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		p, err := svc.Get(ctx, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		ledger := wholeLedger(t, st, id)
		if int64(len(ledger)) > p.Seq {
			ledger = ledger[:p.Seq]
		}
		if p.Stamps != jackpot.StampsOf(ledger) || p.Stamps.Through != p.Seq {
			t.Fatalf("%s: the pool's stamps %+v, its ledger's %+v (%d entries)", id, p.Stamps, jackpot.StampsOf(ledger), p.Seq)
		}
		var instants []time.Time
		for _, e := range ledger {
			instants = append(instants, e.At.Add(-1), e.At, e.At.Add(1))
		}
		instants = append(instants, ledger[0].At.Add(-time.Hour))
		slices.SortFunc(instants, func(a, b time.Time) int { return a.Compare(b) })
		instants = slices.CompactFunc(instants, time.Time.Equal)
		end := instants[len(instants)-1].Add(time.Hour)
		// Through the service (a store round trip each): at most 30 of
		// them, evenly spread.
		step := max(len(instants)/30, 1)
		for i := 0; i < len(instants); i += step {
			at := instants[i]
			got, err := svc.MetersAt(ctx, id, at)
			want, werr := jackpot.MetersAt(id, ledger, at)
			if err != nil || werr != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: meters as of %s: %v %v\n got %+v\nwant %+v", id, at, err, werr, got, want)
			}
			for _, to := range []time.Time{at.Add(1), end} {
				got, err := svc.Report(ctx, id, at, to)
				want, werr := jackpot.ShiftReport(p, ledger, at, to)
				if err != nil || werr != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: report (%s, %s]: %v %v\n got %+v\nwant %+v", id, at, to, err, werr, got, want)
				}
			}
		}
		// Every cut the stamps allow, in memory.
		for _, at := range instants {
			wantAt, _ := jackpot.MetersAt(id, ledger, at)
			wantReport, _ := jackpot.ShiftReport(p, ledger, at, end)
			var hits []jackpot.Entry
			for j, e := range ledger {
				if p.Stamps.Settled(e, at) {
					l, err := jackpot.TailLedger(p, hits, ledger[j:])
					if err != nil {
						t.Fatalf("%s: the ledger cut at entry %d: %v", id, e.Seq, err)
					}
					got, err := l.MetersAt(id, at)
					if err != nil || !reflect.DeepEqual(got, wantAt) {
						t.Fatalf("%s: meters as of %s, cut at entry %d: %v\n got %+v\nwant %+v", id, at, e.Seq, err, got, wantAt)
					}
					rep, err := l.ShiftReport(p, at, end)
					if err != nil || !reflect.DeepEqual(rep, wantReport) {
						t.Fatalf("%s: report from %s, cut at entry %d: %v\n got %+v\nwant %+v", id, at, e.Seq, err, rep, wantReport)
					}
				}
				if e.Kind.AboutHit() {
					hits = append(hits, e)
				}
			}
		}
	}
}

// wholeLedger reads pool id's whole ledger, oldest first.
func wholeLedger(t *testing.T, st pools.Store, id string) []jackpot.Entry {
	t.Helper()
	var ledger []jackpot.Entry
	for after := int64(0); ; {
		es, err := st.Ledger(context.Background(), id, after, 1000)
		if err != nil {
			t.Fatalf("%s: ledger: %v", id, err)
		}
		ledger = append(ledger, es...)
		if len(es) < 1000 {
			return ledger
		}
		after = es[len(es)-1].Seq
	}
}
