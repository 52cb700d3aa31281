// Command load (its own module, run from test/load) drives tablesettle with seeded, realistic requests at a fixed
// rate for a bounded time, checks every answer against the local engine, and
// reports throughput, latency percentiles and every error by kind.
//
//	go run . [-url http://127.0.0.1:8080] [-rate 200] [-duration 5s] [-seed 1]
//	go run . -stage-url https://abc123.execute-api.ap-southeast-1.amazonaws.com -sigv4 -region ap-southeast-1
//	go run . -scenario pools -serve ../../bin/tablesettle -dynamodb http://127.0.0.1:PORT -shards 16 -rate 170 -duration 5m
//
// The pools scenario (pools.go, docs/scale.md "Open loop through serve")
// starts serve itself, with a principals file of its own: one wide-area
// pool linked to -tables table ids, each table posting rounds as its own
// principal, one Straight Flush per -hit-every rounds; it checks the pool's
// meters against its own sums to the minor unit and reconciles the pool.
//
// Without -stage-url, only a literal loopback address is accepted, and the
// dialer refuses any other address: load never leaves the machine by accident.
// It exits 1 when any request failed or any answer was wrong.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// MaxDuration bounds one run: a load test is a measurement, not a siege.
const MaxDuration = 10 * time.Minute

// MaxRate bounds the request rate per second.
const MaxRate = 5000

// Options are the command's flags.
type Options struct {
	URL      string
	StageURL string
	Scenario string
	Rate     int
	Duration time.Duration
	Seed     uint64
	SigV4    bool
	Region   string
	Timeout  time.Duration
	Wait     time.Duration

	// The pools scenario's.
	Serve      ServeOptions
	Tables     int
	HitEvery   int
	MaxWorkers uint64
	Warmup     int
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	code, err := run(ctx, os.Args[1:], os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
	}
	os.Exit(code)
}

func parseFlags(args []string, stderr io.Writer) (Options, error) {
	var o Options
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.URL, "url", "http://127.0.0.1:8080", "base URL of a local server (loopback only)")
	fs.StringVar(&o.StageURL, "stage-url", "", "base URL of a deployed stage (the stack's ApiUrl output); the only way to target a non-loopback host")
	fs.StringVar(&o.Scenario, "scenario", "settle", "what to send: "+strings.Join(append(scenarioNames(), poolsScenario), ", "))
	fs.IntVar(&o.Rate, "rate", 200, "requests per second")
	fs.DurationVar(&o.Duration, "duration", 5*time.Second, "how long to attack (at most 10m)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the generated requests: the same seed sends the same requests")
	fs.BoolVar(&o.SigV4, "sigv4", false, "sign requests with SigV4 (execute-api) using the default AWS credential chain")
	fs.StringVar(&o.Region, "region", os.Getenv("AWS_REGION"), "AWS region of the stage, for -sigv4")
	fs.DurationVar(&o.Timeout, "timeout", 10*time.Second, "per-request timeout")
	fs.DurationVar(&o.Wait, "wait", 0, "wait up to this long for the target to accept connections before attacking")
	fs.StringVar(&o.Serve.Binary, "serve", "", "pools: the tablesettle binary to start (serve), on a free loopback port")
	fs.StringVar(&o.Serve.DynamoDB, "dynamodb", "", "pools: DynamoDB Local's endpoint for serve -dynamodb (empty: serve's embedded store)")
	fs.IntVar(&o.Serve.Shards, "shards", 16, "pools: serve -shards (contribution shards per pool; 0: none)")
	fs.IntVar(&o.Tables, "tables", 10000, "pools: table ids table-00000 ... linked to the pool, one principal each")
	fs.IntVar(&o.HitEvery, "hit-every", 2000, "pools: one round in this many has a Straight Flush (0: none)")
	fs.Uint64Var(&o.MaxWorkers, "max-workers", 50, "pools: most rounds in flight at once (a round due while all are busy waits, and its wait counts; 50, the pools function's reserved concurrency, as make load-pools)")
	fs.IntVar(&o.Warmup, "warmup", 300, "pools: rounds sent to another pool first, not measured (DynamoDB Local's JIT)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.Rate < 1 || o.Rate > MaxRate {
		return o, fmt.Errorf("-rate %d: want 1 to %d", o.Rate, MaxRate)
	}
	if o.Duration <= 0 || o.Duration > MaxDuration {
		return o, fmt.Errorf("-duration %s: want more than 0 and at most %s", o.Duration, MaxDuration)
	}
	if o.Timeout <= 0 {
		return o, fmt.Errorf("-timeout %s: want more than 0", o.Timeout)
	}
	if o.Scenario == poolsScenario {
		return o, checkPoolsFlags(o)
	}
	if _, ok := scenarios[o.Scenario]; !ok {
		return o, fmt.Errorf("-scenario %q: want one of %s", o.Scenario, strings.Join(append(scenarioNames(), poolsScenario), ", "))
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	o, err := parseFlags(args, os.Stderr)
	if err != nil {
		return 2, err
	}
	if o.Scenario == poolsScenario {
		return runPools(ctx, o, stdout)
	}
	target, err := ResolveTarget(o.URL, o.StageURL)
	if err != nil {
		return 2, err
	}
	var signer *Signer
	if o.SigV4 {
		if signer, err = NewSigner(ctx, o.Region); err != nil {
			return 2, err
		}
	}
	if o.Wait > 0 {
		if err := waitForTarget(ctx, target, o.Wait); err != nil {
			return 1, err
		}
	}
	rep, err := Attack(ctx, target, scenarios[o.Scenario], o, signer)
	if err != nil {
		return 1, err
	}
	rep.WriteTo(stdout)
	if rep.Failed() > 0 || rep.Requests == 0 {
		return 1, fmt.Errorf("%d of %d requests failed", rep.Failed(), rep.Requests)
	}
	return 0, nil
}

// poolsScenario names the pools scenario, which is not a Scenario: it
// starts serve, makes its pool and principals, and checks the money after.
const poolsScenario = "pools"

// checkPoolsFlags checks the pools scenario's flags.
func checkPoolsFlags(o Options) error {
	switch {
	case o.Serve.Binary == "":
		return errors.New("-scenario pools needs -serve (the tablesettle binary): it starts serve with principals of its own")
	case o.URL != "http://127.0.0.1:8080" || o.StageURL != "" || o.SigV4:
		return errors.New("-scenario pools runs against the serve it starts (-serve), not -url, -stage-url or -sigv4")
	case o.Tables < 1 || o.Tables > 100000:
		return fmt.Errorf("-tables %d: want 1 to 100000", o.Tables)
	case o.HitEvery < 0:
		return fmt.Errorf("-hit-every %d: want 0 (none) or more", o.HitEvery)
	case o.Serve.Shards < 0:
		return fmt.Errorf("-shards %d: want 0 or more", o.Serve.Shards)
	case o.MaxWorkers < 1:
		return errors.New("-max-workers: want at least 1")
	case o.Warmup < 0:
		return fmt.Errorf("-warmup %d: want 0 or more", o.Warmup)
	}
	if o.Serve.DynamoDB != "" {
		return checkLoopbackEndpoint(o.Serve.DynamoDB)
	}
	return nil
}

// waitForTarget polls until the target accepts a TCP connection.
func waitForTarget(ctx context.Context, t Target, limit time.Duration) error {
	host := t.Base.Host
	if t.Base.Port() == "" {
		port := "80"
		if t.Base.Scheme == "https" {
			port = "443"
		}
		host = net.JoinHostPort(t.Base.Hostname(), port)
	}
	deadline := time.Now().Add(limit)
	for {
		d := net.Dialer{Timeout: time.Second}
		c, err := d.DialContext(ctx, "tcp", host)
		if err == nil {
			return c.Close()
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s did not accept connections within %s: %v", host, limit, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// seqFragment marks each request's URL with its index. The fragment is
// never sent (nor signed), but vegeta hands the URL back with the result, so
// the checker can rebuild request i from (seed, i) without shared state.
const seqFragment = "#i="

// Targeter returns the vegeta targeter of a run: request i of the scenario,
// signed when signer is not nil.
func Targeter(ctx context.Context, t Target, sc Scenario, seed uint64, signer *Signer) vegeta.Targeter {
	var next atomic.Uint64
	base := t.Base.String()
	return func(tgt *vegeta.Target) error {
		i := next.Add(1) - 1
		req := sc.Request(seed, i)
		tgt.Method = req.Method
		tgt.URL = base + req.Path + seqFragment + strconv.FormatUint(i, 10)
		tgt.Body = req.Body
		tgt.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}}
		if signer != nil {
			hr, err := http.NewRequestWithContext(ctx, req.Method, base+req.Path, nil)
			if err != nil {
				return err
			}
			hr.Header = tgt.Header.Clone()
			if err := signer.Sign(ctx, hr, req.Body); err != nil {
				return fmt.Errorf("signing: %w", err)
			}
			tgt.Header = hr.Header
		}
		return nil
	}
}

// Judge turns one vegeta result into an outcome: transport error, status,
// or the scenario's check of the answer.
func Judge(sc Scenario, seed uint64, res *vegeta.Result) Outcome {
	o := Outcome{Latency: res.Latency}
	i, ok := seqOf(res.URL)
	if !ok {
		o.Label, o.Kind = "?", "internal: result without a sequence number"
		return o
	}
	req := sc.Request(seed, i)
	o.Label = req.Label
	switch {
	case res.Code == 0:
		o.Kind = TransportKind(res.Error)
	case res.Code < 200 || res.Code > 299:
		o.Kind = StatusKind(int(res.Code))
	default:
		o.Kind = req.Check(int(res.Code), res.Body)
	}
	return o
}

func seqOf(u string) (uint64, bool) {
	k := strings.LastIndex(u, seqFragment)
	if k < 0 {
		return 0, false
	}
	i, err := strconv.ParseUint(u[k+len(seqFragment):], 10, 64)
	return i, err == nil
}

// Attack runs the scenario against t at o.Rate for o.Duration and reports.
func Attack(ctx context.Context, t Target, sc Scenario, o Options, signer *Signer) (*Report, error) {
	if o.Duration <= 0 || o.Duration > MaxDuration {
		return nil, fmt.Errorf("duration %s out of bounds", o.Duration)
	}
	atk := vegeta.NewAttacker(
		vegeta.Client(t.Client(o.Timeout, 256)),
		vegeta.Workers(16),
		vegeta.MaxWorkers(512),
	)
	rep := &Report{Scenario: sc.Name(), Target: t.Base.String(), Seed: o.Seed, Rate: o.Rate, Duration: o.Duration}
	results := atk.Attack(Targeter(ctx, t, sc, o.Seed, signer), vegeta.Rate{Freq: o.Rate, Per: time.Second}, o.Duration, "tablesettle-"+sc.Name())
	var first, last time.Time
	for {
		select {
		case <-ctx.Done():
			atk.Stop()
			for range results { // drain
			}
			return nil, errors.New("interrupted")
		case res, ok := <-results:
			if !ok {
				rep.Elapsed = last.Sub(first)
				rep.Close()
				return rep, nil
			}
			if first.IsZero() || res.Timestamp.Before(first) {
				first = res.Timestamp
			}
			if end := res.End(); end.After(last) {
				last = end
			}
			rep.Add(Judge(sc, o.Seed, res))
		}
	}
}
