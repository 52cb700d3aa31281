package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/lambdaapp"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// Every generated round is one the engine accepts (a 422 in a load run
// would be the generator's fault), all five rulesets take their turn, and
// the rounds exercise folds, declines, progressive wagers and wins.
func TestGeneratedRoundsAreValidAndVaried(t *testing.T) {
	perRuleset := map[string]int{}
	var folds, declined, progressive, voids, wins, jackpots int
	for i := uint64(0); i < 1000; i++ {
		r := GenerateRound(42, i)
		perRuleset[r.Ruleset]++
		s, err := settle.Settle(r)
		if err != nil {
			b, _ := json.Marshal(r)
			t.Fatalf("round %d refused: %v\n%s", i, err, b)
		}
		if s.Void {
			voids++
		}
		for _, p := range s.Positions {
			switch p.Outcome {
			case settle.OutcomeFolded:
				folds++
			case settle.OutcomeDeclined:
				declined++
			case settle.OutcomeWin:
				wins++
			}
			if len(p.Jackpot) > 0 {
				jackpots++
			}
		}
		for _, p := range r.Positions {
			if p.Wagers["progressive"]+p.Wagers["progressivePlayer"] > 0 {
				progressive++
			}
		}
	}
	if len(perRuleset) != 5 {
		t.Fatalf("rulesets %v, want all five", perRuleset)
	}
	for id, n := range perRuleset {
		if n != 200 {
			t.Errorf("%s: %d rounds of 1000, want 200", id, n)
		}
	}
	if folds == 0 || declined == 0 || progressive == 0 || wins == 0 || jackpots == 0 {
		t.Errorf("folds %d declined %d progressive %d wins %d jackpot-eligible %d: want some of each", folds, declined, progressive, wins, jackpots)
	}
	if voids != 0 {
		t.Errorf("%d void rounds: the generator deals from one deck and should make none", voids)
	}
}

// settleServer answers like the settle operation, through the local
// engine, optionally corrupting the answer.
func settleServer(t *testing.T, corrupt func(*settle.Settlement)) *httptest.Server {
	return httptest.NewServer(settleHandler(corrupt))
}

func settleHandler(corrupt func(*settle.Settlement)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var round settle.Round
		if r.URL.Path != SettlePath || json.Unmarshal(body, &round) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		s, err := settle.Settle(round)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		if corrupt != nil {
			corrupt(&s)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(s)
	})
}

func TestSettleAttackChecksAnswers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt func(*settle.Settlement)
		kind    string
	}{
		{"right", nil, ""},
		{"totals off by a cent", func(s *settle.Settlement) { s.Totals.Returned++ }, "mismatch: totals"},
		{"a line's rule dropped", func(s *settle.Settlement) { s.Positions[0].Lines[0].Rules = nil }, "mismatch: lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := settleServer(t, tc.corrupt)
			defer srv.Close()
			tg, err := ResolveTarget(srv.URL, "")
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Attack(context.Background(), tg, settleScenario{}, Options{Rate: 50, Duration: 200 * time.Millisecond, Seed: 9, Timeout: 2 * time.Second}, nil)
			if err != nil {
				t.Fatal(err)
			}
			// 50/s for 200 ms is 10 requests; a starved machine may send
			// fewer before the attack's time is up, never more.
			if rep.Requests < 1 || rep.Requests > 10 {
				t.Fatalf("%d requests, want 1 to 10", rep.Requests)
			}
			if tc.kind == "" {
				if rep.OK != rep.Requests {
					t.Errorf("errors %v", rep.Errors)
				}
				return
			}
			if rep.Errors[tc.kind] != rep.Requests {
				t.Errorf("errors %v, want %d x %q", rep.Errors, rep.Requests, tc.kind)
			}
		})
	}
}

// The work one settle invocation does besides HTTP: decode the round,
// settle it, encode the answer. Its ns/op is the compute the cost estimate
// in docs/performance.md starts from; BenchmarkRoundJSONOnly (decode + encode, no
// settlement) is the baseline of the same run.
func BenchmarkSettleRoundJSON(b *testing.B) {
	bodies := benchBodies(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var r settle.Round
		if err := json.Unmarshal(bodies[i%len(bodies)], &r); err != nil {
			b.Fatal(err)
		}
		s, err := settle.Settle(r)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRoundJSONOnly(b *testing.B) {
	bodies := benchBodies(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var r settle.Round
		if err := json.Unmarshal(bodies[i%len(bodies)], &r); err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(r); err != nil {
			b.Fatal(err)
		}
	}
}

func benchBodies(b *testing.B) [][]byte {
	var out [][]byte
	for i := uint64(0); i < 500; i++ {
		body, _ := json.Marshal(GenerateRound(1, i))
		out = append(out, body)
	}
	return out
}

// The settle function's whole handler, as Lambda runs it: an API Gateway
// HTTP API (2.0) event in, through the api-proxy adapter, huma's
// validation, settlement and the JSON log line, a response out. Its ns/op
// is the in-process part of a warm invocation's billed duration (the rest
// is the Runtime API round trip).
func BenchmarkSettleLambdaHandler(b *testing.B) {
	bodies := benchBodies(b)
	deps := httpapi.Deps{Logger: lambdaapp.Logger(io.Discard, "info")}
	h := lambdaapp.New(deps, httpapi.GroupSettle)
	ev := func(body []byte) events.APIGatewayV2HTTPRequest {
		return events.APIGatewayV2HTTPRequest{
			Version: "2.0", RouteKey: "POST " + SettlePath, RawPath: SettlePath,
			Headers: map[string]string{"content-type": "application/json"},
			Body:    string(body),
			RequestContext: events.APIGatewayV2HTTPRequestContext{
				RequestID: "bench", Stage: "$default",
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", Path: SettlePath, Protocol: "HTTP/1.1", SourceIP: "127.0.0.1"},
			},
		}
	}
	evs := make([]events.APIGatewayV2HTTPRequest, len(bodies))
	for i, body := range bodies {
		evs[i] = ev(body)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		resp, err := h(ctx, evs[i%len(evs)])
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d, err %v: %s", resp.StatusCode, err, resp.Body)
		}
	}
}
