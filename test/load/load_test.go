package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The same seed replays the same requests; another seed sends others.
func TestScenariosAreSeeded(t *testing.T) {
	for name, sc := range scenarios {
		t.Run(name, func(t *testing.T) {
			same, differ := 0, 0
			for i := uint64(0); i < 50; i++ {
				a, b, c := sc.Request(7, i), sc.Request(7, i), sc.Request(8, i)
				if a.Label != b.Label || a.Path != b.Path || !bytes.Equal(a.Body, b.Body) {
					t.Fatalf("request %d differs between two calls with seed 7:\n%s\n%s", i, a.Body, b.Body)
				}
				if bytes.Equal(a.Body, c.Body) {
					same++
				} else {
					differ++
				}
				if !json.Valid(a.Body) {
					t.Fatalf("request %d: body is not JSON: %s", i, a.Body)
				}
			}
			if differ < 45 {
				t.Errorf("seeds 7 and 8 gave %d identical of 50 requests", same)
			}
		})
	}
}

func TestResolveTargetRefusesNonLoopback(t *testing.T) {
	for _, tc := range []struct {
		url, stage string
		ok, remote bool
	}{
		{"http://127.0.0.1:8080", "", true, false},
		{"http://127.0.0.1:8080/", "", true, false},
		{"http://[::1]:9000", "", true, false},
		{"http://127.0.0.2:8080", "", true, false},
		{"http://localhost:8080", "", false, false}, // names are not resolved
		{"http://10.0.0.1:8080", "", false, false},
		{"https://example.execute-api.ap-southeast-1.amazonaws.com", "", false, false},
		{"ftp://127.0.0.1", "", false, false},
		{"http://127.0.0.1:8080?x=1", "", false, false},
		{"", "https://abc.execute-api.ap-southeast-1.amazonaws.com", true, true},
		{"", "http://abc.execute-api.ap-southeast-1.amazonaws.com", false, false}, // a remote stage needs TLS
	} {
		got, err := ResolveTarget(tc.url, tc.stage)
		if (err == nil) != tc.ok {
			t.Errorf("ResolveTarget(%q, %q): err %v, want ok=%v", tc.url, tc.stage, err, tc.ok)
			continue
		}
		if err == nil && got.Remote != tc.remote {
			t.Errorf("ResolveTarget(%q, %q): Remote %v, want %v", tc.url, tc.stage, got.Remote, tc.remote)
		}
	}
}

// Even if a local target's URL were bypassed, the dialer refuses any
// address that is not loopback.
func TestLocalClientDialsOnlyLoopback(t *testing.T) {
	tg, err := ResolveTarget("http://127.0.0.1:1", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tg.Client(time.Second, 1).Get("http://192.0.2.1:80/") // TEST-NET-1, never routed
	if err == nil || !strings.Contains(err.Error(), errNotLoopback.Error()) {
		t.Fatalf("dial to 192.0.2.1: err %v, want %v", err, errNotLoopback)
	}
	if k := TransportKind(err.Error()); k != "transport: refused non-loopback address" {
		t.Errorf("kind %q", k)
	}
}

func TestPercentileNearestRank(t *testing.T) {
	r := &Report{}
	for i := 100; i >= 1; i-- {
		r.Add(Outcome{Label: "x", Latency: time.Duration(i) * time.Millisecond})
	}
	r.Close()
	for _, tc := range []struct {
		p    float64
		want time.Duration
	}{{50, 50 * time.Millisecond}, {90, 90 * time.Millisecond}, {99, 99 * time.Millisecond}, {99.5, 100 * time.Millisecond}, {100, 100 * time.Millisecond}, {0.1, time.Millisecond}} {
		if got := r.Percentile(tc.p); got != tc.want {
			t.Errorf("p%v = %s, want %s", tc.p, got, tc.want)
		}
	}
	if got := (&Report{}).Percentile(50); got != 0 {
		t.Errorf("empty p50 = %s", got)
	}
}

func TestReportFormat(t *testing.T) {
	r := &Report{Scenario: "settle", Target: "http://127.0.0.1:8080", Seed: 3, Rate: 200, Duration: 5 * time.Second, Elapsed: 2 * time.Second}
	for i := 1; i <= 4; i++ {
		r.Add(Outcome{Label: "mbs-ssp-v4", Latency: time.Duration(i) * time.Millisecond})
	}
	r.Add(Outcome{Label: "rws-mlp-csp-v2", Latency: 1500 * time.Microsecond, Kind: "status 500"})
	r.Add(Outcome{Label: "rws-mlp-csp-v2", Latency: 2 * time.Second, Kind: "transport: timeout"})
	r.Add(Outcome{Label: "rws-mlp-csp-v2", Latency: 700 * time.Microsecond, Kind: "status 500"})
	r.Close()
	var b strings.Builder
	r.WriteTo(&b)
	want := `scenario    settle
target      http://127.0.0.1:8080
seed        3
attack      200 req/s for 5s
requests    7 in 2s
  mbs-ssp-v4                 4
  rws-mlp-csp-v2             3
throughput  2.0 right answers/s
latency     p50 2ms  p90 2s  p99 2s  max 2s
right       4 of 7 (each answer checked against the local engine)
errors      3
  status 500                               2
  transport: timeout                       1
`
	if b.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestJudgeKinds(t *testing.T) {
	sc := scenarios["evaluate"]
	url := "http://127.0.0.1:1/v1/hands/evaluate" + seqFragment + "3"
	for _, tc := range []struct {
		res  vegeta.Result
		want string
	}{
		{vegeta.Result{URL: url, Error: "Post \"http://127.0.0.1:1/x\": dial tcp 127.0.0.1:1: connect: connection refused"}, "transport: connection refused"},
		{vegeta.Result{URL: url, Code: 503, Error: "503 Service Unavailable"}, "status 503"},
		{vegeta.Result{URL: url, Code: 200, Body: []byte(`{"category":"royal_flush","rank":1}`)}, "mismatch: category"},
		{vegeta.Result{URL: url, Code: 200, Body: []byte(`not json`)}, "mismatch: undecodable answer"},
		{vegeta.Result{URL: "http://127.0.0.1:1/v1/hands/evaluate", Code: 200}, "internal: result without a sequence number"},
	} {
		if got := Judge(sc, 1, &tc.res).Kind; got != tc.want {
			t.Errorf("Judge(%+v) = %q, want %q", tc.res, got, tc.want)
		}
	}
}

// A short attack on a loopback test server: every request arrives, answers
// are checked, wrong ones are counted as mismatches.
func TestAttackAgainstLoopbackServer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/hands/evaluate" || r.URL.Fragment != "" {
			http.Error(w, "bad request line", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"category":"high_card","rank":0}`)) // wrong for (almost) every hand
	}))
	defer srv.Close()
	tg, err := ResolveTarget(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Rate: 100, Duration: 200 * time.Millisecond, Seed: 1, Timeout: 2 * time.Second}
	rep, err := Attack(context.Background(), tg, scenarios["evaluate"], o, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 100/s for 200 ms is 20 requests; a starved machine may send fewer
	// before the attack's time is up, never more.
	if rep.Requests < 1 || rep.Requests > 20 {
		t.Errorf("%d requests, want 1 to 20 (100/s for 200ms)", rep.Requests)
	}
	mism := 0
	for k, n := range rep.Errors {
		if !strings.HasPrefix(k, "mismatch: ") {
			t.Errorf("unexpected error kind %q x%d", k, n)
		}
		mism += n
	}
	if mism == 0 || rep.OK+mism != rep.Requests {
		t.Errorf("ok %d mismatches %d of %d", rep.OK, mism, rep.Requests)
	}
}

func TestFlagBounds(t *testing.T) {
	for _, args := range [][]string{
		{"-duration", "11m"},
		{"-duration", "0s"},
		{"-rate", "0"},
		{"-rate", "100000"},
		{"-scenario", "nope"},
	} {
		if _, err := parseFlags(args, &strings.Builder{}); err == nil {
			t.Errorf("parseFlags(%q): no error", args)
		}
	}
	o, err := parseFlags(nil, &strings.Builder{})
	if err != nil || o.URL != "http://127.0.0.1:8080" || o.Duration != 5*time.Second || o.Rate != 200 {
		t.Errorf("defaults %+v, %v", o, err)
	}
}
