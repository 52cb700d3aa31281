package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// Outcome is what became of one request.
type Outcome struct {
	Label   string
	Latency time.Duration
	// Kind is "" for a right answer, else the error's kind: "status 503",
	// "transport: connection refused", "mismatch: total", ...
	Kind string
}

// Report sums up a run.
type Report struct {
	Scenario string
	Target   string
	Seed     uint64
	Rate     int
	Duration time.Duration // the attack's planned length
	Elapsed  time.Duration // first request sent to last answer received

	Requests int
	OK       int
	ByLabel  map[string]int
	Errors   map[string]int
	// Latencies of every request, sorted ascending (errors included: a slow
	// 5xx is still slow).
	Latencies []time.Duration
}

// Add records one outcome.
func (r *Report) Add(o Outcome) {
	if r.ByLabel == nil {
		r.ByLabel = map[string]int{}
		r.Errors = map[string]int{}
	}
	r.Requests++
	r.ByLabel[o.Label]++
	r.Latencies = append(r.Latencies, o.Latency)
	if o.Kind == "" {
		r.OK++
	} else {
		r.Errors[o.Kind]++
	}
}

// Close sorts the latencies; call it once after the last Add.
func (r *Report) Close() { slices.Sort(r.Latencies) }

// Percentile is the nearest-rank p-th percentile (0 < p <= 100) of the
// latencies: the smallest latency with at least p% of requests at or below
// it. Zero when there were no requests.
func (r *Report) Percentile(p float64) time.Duration {
	n := len(r.Latencies)
	if n == 0 {
		return 0
	}
	k := int(p / 100 * float64(n))
	if float64(k) < p/100*float64(n) {
		k++ // ceil
	}
	k = max(k, 1)
	return r.Latencies[min(k, n)-1]
}

// Throughput is right answers per second of elapsed time.
func (r *Report) Throughput() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.OK) / r.Elapsed.Seconds()
}

// Failed is the number of requests that did not get a right answer.
func (r *Report) Failed() int { return r.Requests - r.OK }

// WriteTo prints the report in a fixed layout (the test pins it).
func (r *Report) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "scenario    %s\n", r.Scenario)
	fmt.Fprintf(&b, "target      %s\n", r.Target)
	fmt.Fprintf(&b, "seed        %d\n", r.Seed)
	fmt.Fprintf(&b, "attack      %d req/s for %s\n", r.Rate, r.Duration)
	fmt.Fprintf(&b, "requests    %d in %s\n", r.Requests, r.Elapsed.Round(time.Millisecond))
	for _, l := range sortedKeys(r.ByLabel) {
		fmt.Fprintf(&b, "  %-26s %d\n", l, r.ByLabel[l])
	}
	fmt.Fprintf(&b, "throughput  %.1f right answers/s\n", r.Throughput())
	fmt.Fprintf(&b, "latency     p50 %s  p90 %s  p99 %s  max %s\n",
		fmtDur(r.Percentile(50)), fmtDur(r.Percentile(90)), fmtDur(r.Percentile(99)), fmtDur(r.Percentile(100)))
	fmt.Fprintf(&b, "right       %d of %d (each answer checked against the local engine)\n", r.OK, r.Requests)
	if len(r.Errors) == 0 {
		fmt.Fprintf(&b, "errors      none\n")
	} else {
		fmt.Fprintf(&b, "errors      %d\n", r.Failed())
		kinds := sortedKeys(r.Errors)
		sort.SliceStable(kinds, func(i, j int) bool { return r.Errors[kinds[i]] > r.Errors[kinds[j]] })
		for _, k := range kinds {
			fmt.Fprintf(&b, "  %-40s %d\n", k, r.Errors[k])
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Microsecond).String()
}

func sortedKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TransportKind names a transport error (vegeta hands it over as text) by
// its cause, without the addresses and ports that would make every error a
// kind of its own.
func TransportKind(msg string) string {
	for _, k := range []struct{ sub, kind string }{
		{errNotLoopback.Error(), "refused non-loopback address"},
		{"connection refused", "connection refused"},
		{"connection reset", "connection reset"},
		{"Client.Timeout", "timeout"},
		{"deadline exceeded", "timeout"},
		{"i/o timeout", "timeout"},
		{"EOF", "connection closed early"},
		{"no such host", "no such host"},
		{"tls:", "tls"},
	} {
		if strings.Contains(msg, k.sub) {
			return "transport: " + k.kind
		}
	}
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return "transport: " + msg
}

// StatusKind names a non-2xx answer.
func StatusKind(code int) string { return fmt.Sprintf("status %d", code) }
