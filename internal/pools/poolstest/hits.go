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

// atTheEnd calls check with each of pools ids as a case left it (what
// its shards hold folded in) and its ledger up to its Seq, and with a
// service on a clock stopped at now, unless the case failed.
func atTheEnd(t *testing.T, st pools.Store, ids []string, check func(svc *pools.Service, now time.Time, p jackpot.Pool, ledger []jackpot.Entry)) {
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
		ledger, err := allEntries(ctx, st, id)
		if err != nil {
			t.Fatalf("%s: ledger: %v", id, err)
		}
		if int64(len(ledger)) > p.Seq {
			ledger = ledger[:p.Seq]
		}
		reconciles(t, p, ledger)
		check(svc, now, p, ledger)
	}
}

// sameHitHistory checks, at the end of a case that left hits of every
// kind in pools ids, that the floor's hit history and jackpot slips read
// from the store's entries about hits alone (pools.HitLedger, page by page
// from the newest) are what the whole ledger gives: for every table and
// every limit, and with pages of 1, 2, 3 and the default 64 entries. It
// checks too that the entries about hits (jackpot.Kind.AboutHit) are all
// jackpot.AllHits reads. A store without a HitLedger passes trivially (it
// is read whole).
func sameHitHistory(t *testing.T, st pools.Store, ids ...string) {
	t.Helper()
	atTheEnd(t, st, ids, func(_ *pools.Service, now time.Time, p jackpot.Pool, ledger []jackpot.Entry) {
		ctx, id := context.Background(), p.ID
		var about []jackpot.Entry
		tables := []string{""}
		for _, e := range ledger {
			if e.Kind.AboutHit() {
				about = append(about, e)
				if !slices.Contains(tables, e.Table) {
					tables = append(tables, e.Table)
				}
			}
		}
		all := jackpot.AllHits(p, ledger, "", 0, now)
		if !reflect.DeepEqual(jackpot.AllHits(p, about, "", 0, now), all) {
			t.Fatalf("%s: the entries about hits tell another history than the ledger", id)
		}
		if len(all) == 0 {
			t.Fatalf("%s: no hit to check the history with", id)
		}
		for _, page := range []int{1, 2, 3, 0} {
			svc := pools.NewService(st, func() time.Time { return now }, 1)
			svc.HitPage = page
			for _, table := range tables {
				for limit := 1; limit <= len(all)+1; limit++ {
					got, err := svc.Hits(ctx, p, "all", table, limit)
					if want := jackpot.AllHits(p, ledger, table, limit, now); err != nil || !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: hits of table %q, limit %d, pages of %d: %v\n got %+v\nwant %+v", id, table, limit, page, err, got, want)
					}
				}
			}
			for _, h := range all {
				slip, err := svc.Slip(ctx, id, h.Seq)
				if h.State != jackpot.StatePaid {
					if err == nil {
						t.Fatalf("%s: a slip for hit %d, which is %s", id, h.Seq, h.State)
					}
					continue
				}
				if want := jackpot.SlipOf(p, h); err != nil || !reflect.DeepEqual(slip, want) {
					t.Fatalf("%s: slip of hit %d, pages of %d: %v\n got %+v\nwant %+v", id, h.Seq, page, err, slip, want)
				}
			}
		}
	})
}

// sameInstants checks, at the end of a case, that the meters as they
// stood at an instant and the shift report, which the service reads from
// the end of the ledger back to the instant (jackpot.Stamps), are what
// the whole ledger gives, at the times the entries are stamped with, a
// nanosecond either side of them, and before the pool. It checks too that
// the pool's stamps are its ledger's (every commit keeps them, the store
// writes them as they are, a sharded store with the rounds it folds in),
// and, cutting the ledger at every entry those stamps allow for each
// instant, that the head's sum and the tail (jackpot.TailLedger) give
// what the whole ledger gives.
func sameInstants(t *testing.T, st pools.Store, ids ...string) {
	t.Helper()
	atTheEnd(t, st, ids, func(svc *pools.Service, _ time.Time, p jackpot.Pool, ledger []jackpot.Entry) {
		ctx, id := context.Background(), p.ID
		if !reflect.DeepEqual(p.Stamps, jackpot.StampsOf(ledger)) || p.Stamps.Through != p.Seq {
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
			got, err := foldThen(t, svc, id).MetersAt(ctx, id, at)
			want, werr := jackpot.MetersAt(id, ledger, at)
			if err != nil || werr != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: meters as of %s: %v %v\n got %+v\nwant %+v", id, at, err, werr, got, want)
			}
			for _, to := range []time.Time{at.Add(1), end} {
				got, err := foldThen(t, svc, id).Report(ctx, id, at, to)
				want, werr := jackpot.ShiftReport(p, ledger, at, to)
				if err != nil || werr != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: report (%s, %s]: %v %v\n got %+v\nwant %+v", id, at, to, err, werr, got, want)
				}
				if err := got.Reconciles(); err != nil {
					t.Fatalf("%s: %v", id, err)
				}
			}
		}
		// Every cut the stamps allow, in memory, with the range ending a
		// nanosecond after its start (the hits as they stood then) and
		// after the last entry.
		for _, at := range instants {
			wantAt, _ := jackpot.MetersAt(id, ledger, at)
			tos := []time.Time{at.Add(1), end}
			var wantReports []jackpot.Report
			for _, to := range tos {
				r, _ := jackpot.ShiftReport(p, ledger, at, to)
				wantReports = append(wantReports, r)
			}
			var hits []jackpot.Entry
			for j, e := range ledger {
				if p.Stamps.Settled(e, at) {
					l, err := jackpot.TailLedger(p, 1, hits, ledger[j:])
					if err != nil {
						t.Fatalf("%s: the ledger cut at entry %d: %v", id, e.Seq, err)
					}
					got, err := l.MetersAt(id, at)
					if err != nil || !reflect.DeepEqual(got, wantAt) {
						t.Fatalf("%s: meters as of %s, cut at entry %d: %v\n got %+v\nwant %+v", id, at, e.Seq, err, got, wantAt)
					}
					// A report reads the head's hits from the first that
					// can be open at its end on.
					from := jackpot.OpenFrom(p, ledger[j:])
					i := slices.IndexFunc(hits, func(h jackpot.Entry) bool { return h.Seq >= from })
					if i < 0 {
						i = len(hits)
					}
					bounded, err := jackpot.TailLedger(p, from, hits[i:], ledger[j:])
					if err != nil {
						t.Fatalf("%s: the ledger cut at entry %d, hits from %d: %v", id, e.Seq, from, err)
					}
					if got, err := bounded.MetersAt(id, at); err != nil || !reflect.DeepEqual(got, wantAt) {
						t.Fatalf("%s: meters as of %s, cut at entry %d, no hits of the head: %v\n got %+v\nwant %+v", id, at, e.Seq, err, got, wantAt)
					}
					for _, l := range []jackpot.Ledger{l, bounded} {
						for k, to := range tos {
							rep, err := l.ShiftReport(p, at, to)
							if err != nil || !reflect.DeepEqual(rep, wantReports[k]) {
								t.Fatalf("%s: report (%s, %s], cut at entry %d, hits from %d: %v\n got %+v\nwant %+v", id, at, to, e.Seq, l.HitsFrom, err, rep, wantReports[k])
							}
						}
					}
				}
				if e.Kind.AboutHit() {
					hits = append(hits, e)
				}
			}
		}
	})
}

// reconciles checks, at the end of every case that looks at its pools
// (atTheEnd), that the shift report's reconciliation holds (issue 35 item
// 5): for each meter, opening + contributions + seeds and resets + hits +
// adjustments + corrections = closing, to the minor unit, over the ranges
// from before the pool, and from each instant an entry is stamped with,
// to the next such instant and to an hour after the last.
func reconciles(t *testing.T, p jackpot.Pool, ledger []jackpot.Entry) {
	t.Helper()
	if len(ledger) == 0 {
		return
	}
	instants := []time.Time{ledger[0].At.Add(-time.Hour)}
	for _, e := range ledger {
		instants = append(instants, e.At)
	}
	slices.SortFunc(instants, func(a, b time.Time) int { return a.Compare(b) })
	instants = slices.CompactFunc(instants, time.Time.Equal)
	end := instants[len(instants)-1].Add(time.Hour)
	for i, from := range instants {
		tos := []time.Time{end}
		if i+1 < len(instants) {
			tos = append(tos, instants[i+1])
		}
		for _, to := range tos {
			r, err := jackpot.ShiftReport(p, ledger, from, to)
			if err != nil {
				t.Fatalf("%s: report (%s, %s]: %v", p.ID, from, to, err)
			}
			if err := r.Reconciles(); err != nil {
				t.Fatalf("%s: %v\n%+v", p.ID, err, r.Reconciliation)
			}
		}
	}
}

// reconcilesAtTheEnd checks the reconciliation of pools ids' shift reports
// at the end of a case (reconciles) and nothing else.
func reconcilesAtTheEnd(t *testing.T, st pools.Store, ids ...string) {
	t.Helper()
	atTheEnd(t, st, ids, func(*pools.Service, time.Time, jackpot.Pool, []jackpot.Entry) {})
}
