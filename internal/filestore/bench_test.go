package filestore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/filestore"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// BenchmarkFileStoreThroughput is the baseline of issue 23: rounds per
// second to one pool with 100,000 rounds of history in the JSON file
// store, by 1 and 8 writers, the same rounds as internal/sqlite's
// BenchmarkStoreThroughput (run in the same make bench-store before this
// store was removed; the figures are in docs/store.md).
func BenchmarkFileStoreThroughput(b *testing.B) {
	const history, n = 100_000, 16
	for _, writers := range []int{1, 8} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			for range b.N {
				dir := b.TempDir()
				writeHistory(b, dir, history)
				st, err := filestore.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				fi, _ := os.Stat(st.Path())
				svc := pools.NewService(st, time.Now, 1)
				ctx := context.Background()
				var next, failed atomic.Int64
				var wg sync.WaitGroup
				start := time.Now()
				for range writers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							i := int(next.Add(1)) - 1
							if i >= n {
								return
							}
							if _, _, err := svc.ApplyRound(ctx, "bench", benchRound(history+i, time.Now()), "", ""); err != nil {
								failed.Add(1)
							}
						}
					}()
				}
				wg.Wait()
				if failed.Load() > 0 {
					b.Fatalf("%d rounds failed", failed.Load())
				}
				b.ReportMetric(float64(n)/time.Since(start).Seconds(), "rounds/s")
				b.ReportMetric(float64(fi.Size())/1e6, "file-MB")
			}
		})
	}
}

const benchRuleset = "mbs-megalink-ssp-v6"

// benchRound is internal/sqlite's benchRound.
func benchRound(i int, at time.Time) jackpot.Round {
	var hits []jackpot.Hit
	if i%50 == 7 {
		hits = append(hits, jackpottest.StraightFlush(benchRuleset, 1, 1, 500))
	}
	return jackpottest.RoundOf(benchRuleset, "t"+strconv.Itoa(i%8), "r"+strconv.Itoa(i), at, 500, []int{1, 2, 3}, hits...)
}

// writeHistory writes the store's file with pool "bench" after n rounds,
// applied in memory.
func writeHistory(tb testing.TB, dir string, n int) {
	tb.Helper()
	p, es, err := jackpot.Standard().New("bench", jackpottest.MBSSettings(), jackpottest.Admin, jackpottest.T0)
	if err != nil {
		tb.Fatal(err)
	}
	recs := map[string]jackpot.RoundRecord{}
	for i := range n {
		at := jackpottest.T0.Add(time.Duration(i) * time.Second)
		r := benchRound(i, at)
		q, out, res, err := jackpot.Apply(p, r, at)
		if err != nil {
			tb.Fatal(err)
		}
		es = append(es, out...)
		k := jackpot.RoundKey(r.Table, r.Round)
		recs[k] = jackpot.RoundRecord{Pool: p.ID, Key: k, Table: r.Table, Round: r.Round, Fingerprint: jackpot.Fingerprint(r), Result: res, FirstSeq: p.Seq + 1}
		p = q
	}
	b, err := json.Marshal(map[string]any{"format": 1, "pools": map[string]any{"bench": map[string]any{"pool": p, "ledger": es, "records": recs}}})
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, filestore.FileName), b, 0o644); err != nil {
		tb.Fatal(err)
	}
}
