package dynamo_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// BenchmarkRounds measures rounds applied per second to ONE pool on
// DynamoDB Local, by 1 and by 8 concurrent writers (make bench-pools). Every
// round has three unit wagers; one in 50 a Straight Flush. All writers
// contend for the pool's version, so 8 writers show the cost of conflicts
// and retries against the 1-writer baseline of the same run.
func BenchmarkRounds(b *testing.B) {
	ep := endpoint(b)
	warmUp(b, ep)
	for _, writers := range []int{1, 8} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			ctx := context.Background()
			svc := pools.NewService(dynamo.New(dynamo.LocalClient(ep), newTable(b, ep)), time.Now, 1)
			if _, _, err := svc.Create(ctx, "bench", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
				b.Fatal(err)
			}
			var next atomic.Int64
			var failed atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for w := 0; w < writers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1)) - 1
						if i >= b.N {
							return
						}
						var hits []jackpot.Hit
						if i%50 == 7 {
							hits = append(hits, jackpottest.StraightFlush("mbs-megalink-ssp-v6", 1, 1, 500))
						}
						r := jackpottest.RoundOf("mbs-megalink-ssp-v6", fmt.Sprintf("t%d", w), fmt.Sprint(i), time.Now(), 500, []int{1, 2, 3}, hits...)
						if _, _, err := svc.ApplyRound(ctx, "bench", r, "", ""); err != nil {
							failed.Add(1)
						}
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			if failed.Load() > 0 {
				b.Fatalf("%d rounds failed", failed.Load())
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "rounds/s")
			jackpottest.MustReconcile(b, svc, "bench")
		})
	}
}

// warmUp applies a few hundred rounds first: DynamoDB Local runs on the
// JVM and is several times slower until its code is compiled, which would
// otherwise favour whichever case runs second.
func warmUp(b *testing.B, ep string) {
	b.Helper()
	ctx := context.Background()
	svc := pools.NewService(dynamo.New(dynamo.LocalClient(ep), newTable(b, ep)), time.Now, 1)
	if _, _, err := svc.Create(ctx, "warm", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		b.Fatal(err)
	}
	for i := range 300 {
		r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t", fmt.Sprint(i), time.Now(), 500, []int{1, 2, 3})
		if _, _, err := svc.ApplyRound(ctx, "warm", r, "", ""); err != nil {
			b.Fatal(err)
		}
	}
}
