package hand

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand/tablegen"
)

// The benchmarks rank random hands dealt in advance from a seeded source,
// so that no dealing happens in the timed loop. 1<<16 hands of 7 cards are
// 448 KB: more than L1 and L2 hold, like a real stream of hands. Each
// reports evals/s and, for the fast evaluators, x_reference: how many times
// faster than the plain reference evaluator in the same run (the 5-card
// reference for Eval5; for Eval7, the reference's best of 21 fives, which is
// how the plain evaluator ranked seven cards). `make bench` runs them on
// one core.
//
// The per-hand benchmarks loop as OMPEval's benchmark does
// (../shared/bench/ompeval/bench.cpp): over the dealt hands in order, again
// and again, each pass a loop of its own (loopEval7 and the like) that
// holds nothing but the hands, its index and the sum, so that the timed
// loop does the same work per hand as the peer's. Before 28 Nov 2026 they
// indexed hands[i&(benchHands-1)] for i up to b.N in the benchmark
// function itself: a mask, a bounds check and b.N read back after every
// hand, and the benchmark's own variables live across the loop, none of
// which OMPEval's loop pays (docs/evaluator-inlining.md).

const benchHands = 1 << 16

var benchDeal = sync.OnceValues(func() ([][5]card.Card, [][7]card.Card) {
	rng := rand.New(rand.NewPCG(2026, 11))
	h5 := make([][5]card.Card, benchHands)
	h7 := make([][7]card.Card, benchHands)
	for i := range benchHands {
		h5[i] = [5]card.Card(deal(rng, 5))
		h7[i] = [7]card.Card(deal(rng, 7))
	}
	return h5, h7
})

var sink Value

// start begins the timed part of a benchmark and returns the process CPU
// time at that moment.
func start(b *testing.B) time.Duration {
	b.ReportAllocs()
	b.ResetTimer()
	return cpuTime()
}

// report ends the timed part and reports evals/s (wall clock) and
// evals/cpu-s (CPU time: on a shared machine, the time the benchmark had a
// core). It returns the CPU-time rate, or the wall-clock one where CPU time
// cannot be read.
func report(b *testing.B, cpu0 time.Duration) float64 {
	b.StopTimer()
	wall := float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(wall, "evals/s")
	if cpu := cpuTime() - cpu0; cpu > 0 && cpu0 > 0 {
		rate := float64(b.N) / cpu.Seconds()
		b.ReportMetric(rate, "evals/cpu-s")
		return rate
	}
	return wall
}

func BenchmarkEval5(b *testing.B) {
	h5, _ := benchDeal()
	ref := referenceRate(5)
	var s Value
	c0 := start(b)
	for n := b.N; n > 0; n -= benchHands {
		s += loopEval5(h5[:min(n, benchHands)])
	}
	b.ReportMetric(report(b, c0)/ref, "x_reference")
	sink = s
}

func BenchmarkEval7(b *testing.B) {
	_, h7 := benchDeal()
	ref := referenceRate(7)
	var s Value
	c0 := start(b)
	for n := b.N; n > 0; n -= benchHands {
		s += loopEval7(h7[:min(n, benchHands)])
	}
	b.ReportMetric(report(b, c0)/ref, "x_reference")
	sink = s
}

// loopEval5, loopEval6, loopEval7, loopPartial7 and loopEval3 are one pass
// of the per-hand benchmarks: each hand ranked with one call (inlined where
// the evaluator inlines), the values summed. They are calls themselves
// (go:noinline), once per 65,536 hands, so that the loop keeps only its own
// few variables in registers.
//
//go:noinline
func loopEval5(hs [][5]card.Card) (s Value) {
	for i := range hs {
		h := &hs[i]
		s += Eval5(h[0], h[1], h[2], h[3], h[4])
	}
	return s
}

//go:noinline
func loopEval6(hs [][7]card.Card) (s Value) {
	for i := range hs {
		h := &hs[i]
		s += Eval6(h[0], h[1], h[2], h[3], h[4], h[5])
	}
	return s
}

//go:noinline
func loopEval7(hs [][7]card.Card) (s Value) {
	for i := range hs {
		h := &hs[i]
		s += Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
	}
	return s
}

//go:noinline
func loopPartial7(hs [][7]card.Card) (s Value) {
	for i := range hs {
		h := &hs[i]
		s += Partial{}.Add(h[0]).Add(h[1]).Add(h[2]).Add(h[3]).Add(h[4]).Add(h[5]).Add(h[6]).Value()
	}
	return s
}

//go:noinline
func loopEval3(hs [][5]card.Card) (s Value3) {
	for i := range hs {
		h := &hs[i]
		s += Eval3(h[0], h[1], h[2])
	}
	return s
}

// BenchmarkEval5All, BenchmarkEval6All and BenchmarkEval7All are
// BenchmarkEval5's, Eval6's and Eval7's hands through the bulk forms: the
// same hands, in the same order, 1<<16 to a call (fewer in the last call
// when b.N is not a multiple).
func BenchmarkEval5All(b *testing.B) {
	h5, _ := benchDeal()
	benchAll(b, h5, Eval5All)
}

func BenchmarkEval6All(b *testing.B) {
	_, h7 := benchDeal()
	h6 := make([][6]card.Card, len(h7))
	for i, h := range h7 {
		h6[i] = [6]card.Card(h[:6])
	}
	benchAll(b, h6, Eval6All)
}

func BenchmarkEval7All(b *testing.B) {
	_, h7 := benchDeal()
	benchAll(b, h7, Eval7All)
}

func benchAll[H any](b *testing.B, hands []H, all func([]H, []Value)) {
	out := make([]Value, len(hands))
	c0 := start(b)
	for n := b.N; n > 0; n -= len(hands) {
		m := min(n, len(hands))
		all(hands[:m], out[:m])
	}
	report(b, c0)
	var s Value
	for _, v := range out {
		s += v
	}
	sink = s
}

func BenchmarkEval6(b *testing.B) {
	_, h7 := benchDeal()
	var s Value
	c0 := start(b)
	for n := b.N; n > 0; n -= benchHands {
		s += loopEval6(h7[:min(n, benchHands)])
	}
	report(b, c0)
	sink = s
}

// BenchmarkPartial7 is OMPEval's benchmark loop in Go: an empty hand plus
// the seven cards, then evaluate (Partial's Add and Value inline, as
// OMPEval's operator+ and evaluate do).
func BenchmarkPartial7(b *testing.B) {
	_, h7 := benchDeal()
	var s Value
	c0 := start(b)
	for n := b.N; n > 0; n -= benchHands {
		s += loopPartial7(h7[:min(n, benchHands)])
	}
	report(b, c0)
	sink = s
}

// BenchmarkBest7 is the slice API that also finds the five cards used.
func BenchmarkBest7(b *testing.B) {
	_, h7 := benchDeal()
	var s Value
	c0 := start(b)
	for i := 0; i < b.N; i++ {
		v, _ := Best(h7[i&(benchHands-1)][:])
		s += v
	}
	report(b, c0)
	sink = s
}

func BenchmarkEval3(b *testing.B) {
	h5, _ := benchDeal()
	var s Value3
	c0 := start(b)
	for n := b.N; n > 0; n -= benchHands {
		s += loopEval3(h5[:min(n, benchHands)])
	}
	report(b, c0)
	sink = Value(s)
}

// BenchmarkReferenceEval5 and BenchmarkReferenceEval7 are the baselines:
// the plain evaluator, and its best of 21 fives for seven cards.
func BenchmarkReferenceEval5(b *testing.B) {
	h5, _ := benchDeal()
	var s refValue
	c0 := start(b)
	for i := 0; i < b.N; i++ {
		h := &h5[i&(benchHands-1)]
		s += refEval5(h[0], h[1], h[2], h[3], h[4])
	}
	report(b, c0)
	sink = Value(s)
}

func BenchmarkReferenceEval7(b *testing.B) {
	_, h7 := benchDeal()
	var s refValue
	c0 := start(b)
	for i := 0; i < b.N; i++ {
		s += refBest(h7[i&(benchHands-1)][:])
	}
	report(b, c0)
	sink = Value(s)
}

var refRates sync.Map // 5 or 7 -> evals per CPU second (or wall second)

// referenceRate times the reference evaluator over the benchmark hands
// once per run, for at least half a second (testing.Benchmark cannot run
// inside a benchmark), and returns its rate as report does.
func referenceRate(n int) float64 {
	if r, ok := refRates.Load(n); ok {
		return r.(float64)
	}
	h5, h7 := benchDeal()
	var s refValue
	evals := 0
	t0, c0 := time.Now(), cpuTime()
	for time.Since(t0) < 500*time.Millisecond {
		for i := range benchHands {
			if n == 5 {
				h := &h5[i]
				s += refEval5(h[0], h[1], h[2], h[3], h[4])
			} else {
				s += refBest(h7[i][:])
			}
		}
		evals += benchHands
	}
	sink = Value(s)
	rate := float64(evals) / time.Since(t0).Seconds()
	if cpu := cpuTime() - c0; cpu > 0 && c0 > 0 {
		rate = float64(evals) / cpu.Seconds()
	}
	refRates.Store(n, rate)
	return rate
}

// BenchmarkTableBuild is what building the tables at start-up would cost.
// The evaluator does not: tables_gen.go holds them as compile-time data, so
// a process pays nothing before its first evaluation.
func BenchmarkTableBuild(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := tablegen.Build(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/build")
	b.ReportMetric(float64(tableBytes()+card.NumCards*int(unsafe.Sizeof(pairMasks[0]))), "table_bytes")
}
