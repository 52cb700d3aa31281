package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/dynamo/dynamotest"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/lambdaapp"
	"github.com/tablesettle/tablesettle/internal/pools"
)

const rws = "rws-mlp-csp-v2"

// localTable creates a fresh table on DynamoDB Local and points the
// function's own AWS configuration at it (AWS_ENDPOINT_URL_DYNAMODB), as
// it would reach DynamoDB. make test runs DynamoDB Local
// (test/dynamodb-local.sh); a plain go test without it skips.
func localTable(t *testing.T) (table string, getenv func(string) string, tables *pools.Service, clock *jackpottest.Clock) {
	t.Helper()
	table, ep := dynamotest.FunctionTable(t, "tablesettle-sweep")
	client := dynamo.LocalClient(ep)
	getenv = func(k string) string {
		return map[string]string{"LOG_LEVEL": "info", "TABLESETTLE_TABLE": table}[k]
	}
	// The tables' rounds were dealt an hour ago: every 5 s window has
	// closed by the sweep's clock (the wall clock).
	clock = jackpottest.NewClock(time.Now().Add(-time.Hour).Truncate(time.Millisecond))
	tables = pools.NewService(dynamo.New(client, table), clock.Now, 1)
	return table, getenv, tables, clock
}

// holdRoyals opens an RWS pool with a settle window of window and deals a
// held Royal at each of tables (seat 1, one SGD 5 wager each), all at the
// clock's time.
func holdRoyals(t *testing.T, svc *pools.Service, clock *jackpottest.Clock, id string, window time.Duration, tables ...string) {
	t.Helper()
	ctx := context.Background()
	s := jackpottest.RWSSettings()
	s.SettleWindowMS = window.Milliseconds()
	if _, _, err := svc.Create(ctx, id, s, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		r := jackpottest.RoundOf(rws, tb, tb+"-r1", clock.Now(), 500, []int{1}, jackpottest.Royal(rws, 1, 1, 500))
		res, _, err := svc.ApplyRound(ctx, id, r, "", "")
		if err != nil || len(res.Payouts) != 1 || res.Payouts[0].Status != "held" {
			t.Fatalf("%s at %s: %+v, %v; want the Royal held", id, tb, res.Payouts, err)
		}
	}
}

// scheduled is the sample EventBridge scheduled event, events/sweep.
func scheduled(t *testing.T) events.EventBridgeEvent {
	t.Helper()
	b, err := os.ReadFile("../../events/sweep/scheduled.json")
	if err != nil {
		t.Fatal(err)
	}
	var ev events.EventBridgeEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.DetailType != "Scheduled Event" || ev.Source != "aws.events" {
		t.Fatalf("events/sweep/scheduled.json is not a scheduled event: %+v", ev)
	}
	return ev
}

// logLines decodes the handler's JSON log lines.
func logLines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// hitEntries are the pool's hit entries (one per payment) by the held
// entry each paid (R7: HeldSeq).
func hitEntries(t *testing.T, svc *pools.Service, id string) map[int64][]jackpot.Entry {
	t.Helper()
	es, err := svc.Ledger(context.Background(), id, 0, 10000)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64][]jackpot.Entry{}
	for _, e := range es {
		if e.Kind == jackpot.KindHit {
			out[e.HeldSeq] = append(out[e.HeldSeq], e)
		}
	}
	return out
}

// TestScheduledEvent (ruling R7, the scheduled sweep): the sample
// EventBridge event, fed to the handler main gives lambda.Start, pays the
// held Royal of a pool nobody reads, SGD 1 x 500 x 17.33% = 86 credited,
// SGD 100,000.86, recorded as the service's clock, and logs it; a Royal
// whose window has not closed stays held; the next minute's event pays
// nothing and writes nothing.
func TestScheduledEvent(t *testing.T) {
	_, getenv, tables, clock := localTable(t)
	holdRoyals(t, tables, clock, "rws", 5*time.Second, "T1")
	// A pool whose Royal was dealt now, its window closing in 10 minutes
	// (the longest a window may be).
	later := pools.NewService(tables.Store, time.Now, 2)
	holdRoyals(t, later, jackpottest.NewClock(time.Now()), "later", 10*time.Minute, "T2")

	var logs bytes.Buffer
	h, err := handler(getenv, &logs)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ev := scheduled(t)
	rep, err := h(ctx, ev)
	if err != nil || rep != (lambdaapp.SweepReport{Pools: 1, Paid: 1}) {
		t.Fatalf("sweep: %+v, %v; want one Royal paid from one pool", rep, err)
	}
	p, err := tables.Get(ctx, "rws")
	if err != nil || len(p.Held) != 0 || len(p.LastHits) != 1 || p.LastHits[0].Paid != 10_000_086 {
		t.Fatalf("rws after the sweep: held %+v, last hits %+v, %v", p.Held, p.LastHits, err)
	}
	hits := hitEntries(t, tables, "rws")
	if len(hits) != 1 {
		t.Fatalf("hit entries %+v, want one", hits)
	}
	for held, es := range hits {
		if len(es) != 1 || es[0].Actor == nil || *es[0].Actor != pools.Clock {
			t.Fatalf("the payment %+v, want one, by the service's clock", es)
		}
		// Every entry of the release, not only the payment, is the
		// service's clock's (issue 33 item 5).
		all, err := tables.Ledger(ctx, "rws", held, 100)
		if err != nil || len(all) == 0 {
			t.Fatalf("the release's entries: %d, %v", len(all), err)
		}
		for _, e := range all {
			if e.Actor == nil || *e.Actor != pools.Clock {
				t.Errorf("entry %d (%s) of the release by %+v, want the service's clock", e.Seq, e.Kind, e.Actor)
			}
		}
	}
	if q, err := tables.Get(ctx, "later"); err != nil || len(q.Held) != 1 {
		t.Fatalf("later: held %+v, %v; want its Royal still held", q.Held, err)
	}
	var paid []map[string]any
	for _, l := range logLines(t, logs.Bytes()) {
		if l["msg"] == "held hit paid" {
			paid = append(paid, l)
		}
	}
	if len(paid) != 1 || paid[0]["pool"] != "rws" || paid[0]["table"] != "T1" || paid[0]["round"] != "T1-r1" || paid[0]["seat"] != 1.0 ||
		paid[0]["hand"] != "royal_flush" || paid[0]["amount"] != "SGD 100,000.86" || paid[0]["minor_units"] != 10_000_086.0 || paid[0]["event_id"] != ev.ID {
		t.Fatalf("logged %v; want the Royal of rws T1/T1-r1 seat 1, SGD 100,000.86, under event %s", paid, ev.ID)
	}

	v := p.Version
	logs.Reset()
	if rep, err := h(ctx, ev); err != nil || rep != (lambdaapp.SweepReport{}) {
		t.Fatalf("the next run: %+v, %v; want nothing paid", rep, err)
	}
	if q, _ := tables.Get(ctx, "rws"); q.Version != v {
		t.Fatalf("the next run wrote: version %d, was %d", q.Version, v)
	}
	if strings.Contains(logs.String(), "held hit paid") {
		t.Fatalf("the next run logged a payment: %s", logs.String())
	}
}

// TestSweepsAndAReaderRace (ruling R7: a held hit is paid exactly once):
// two sweeps (two Lambda instances: the next minute's run started while
// the last still runs) and a reader (the read every floor page makes,
// pools.Service.Fresh) race over 6 pools holding 3 due Royals each. Every
// Royal is paid exactly once (one hit entry per held entry), the pools
// end with the meters of a twin pool released by one sweep alone, and no
// payment is logged by both sweeps.
func TestSweepsAndAReaderRace(t *testing.T) {
	_, getenv, tables, clock := localTable(t)
	ids := []string{"p0", "p1", "p2", "p3", "p4", "p5"}
	for _, id := range append(append([]string{}, ids...), "twin") {
		holdRoyals(t, tables, clock, id, 5*time.Second, "T1", "T2", "T3")
	}
	// The twin: released alone, first.
	ctx := context.Background()
	twin, err := pools.NewService(tables.Store, time.Now, 3).Fresh(ctx, "twin")
	if err != nil || len(twin.Held) != 0 {
		t.Fatalf("twin: %+v, %v", twin.Held, err)
	}

	var logsA, logsB bytes.Buffer
	a, err := handler(getenv, &logsA)
	if err != nil {
		t.Fatal(err)
	}
	b, err := handler(getenv, &logsB)
	if err != nil {
		t.Fatal(err)
	}
	reader := pools.NewService(tables.Store, time.Now, 4)
	ev := scheduled(t)
	start := make(chan struct{})
	var wg sync.WaitGroup
	var repA, repB lambdaapp.SweepReport
	var errA, errB, errR error
	wg.Add(3)
	go func() { defer wg.Done(); <-start; repA, errA = a(ctx, ev) }()
	go func() { defer wg.Done(); <-start; repB, errB = b(ctx, ev) }()
	go func() {
		defer wg.Done()
		<-start
		for i := len(ids) - 1; i >= 0; i-- { // the other way round
			if _, err := reader.Fresh(ctx, ids[i]); err != nil && errR == nil {
				errR = err
			}
		}
	}()
	close(start)
	wg.Wait()
	if errA != nil || errB != nil || errR != nil {
		t.Fatalf("sweep A %v, sweep B %v, reader %v", errA, errB, errR)
	}
	if n := repA.Paid + repB.Paid; n > 3*len(ids) {
		t.Fatalf("the sweeps say they paid %d + %d, more than the %d held", repA.Paid, repB.Paid, 3*len(ids))
	}
	for _, id := range ids {
		p, err := tables.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		hits := hitEntries(t, tables, id)
		if len(p.Held) != 0 || len(hits) != 3 {
			t.Errorf("%s: %d still held, %d held entries paid; want 0 and 3", id, len(p.Held), len(hits))
		}
		for seq, es := range hits {
			if len(es) != 1 {
				t.Errorf("%s: held entry %d paid %d times", id, seq, len(es))
			}
		}
		if !reflect.DeepEqual(p.Meters, twin.Meters) {
			t.Errorf("%s: meters %+v, want the twin's %+v (released by one sweep alone)", id, p.Meters, twin.Meters)
		}
	}
	logged := map[string]int{}
	for _, l := range append(logLines(t, logsA.Bytes()), logLines(t, logsB.Bytes())...) {
		if l["msg"] == "held hit paid" {
			logged[fmt.Sprintf("%v/%v", l["pool"], l["seq"])]++
		}
	}
	for k, n := range logged {
		if n != 1 {
			t.Errorf("payment %s logged %d times by the sweeps", k, n)
		}
	}
	if len(logged) != repA.Paid+repB.Paid {
		t.Errorf("%d payments logged, the sweeps report %d + %d", len(logged), repA.Paid, repB.Paid)
	}
	t.Logf("sweep A paid %d, sweep B paid %d, the reader the other %d", repA.Paid, repB.Paid, 3*len(ids)-repA.Paid-repB.Paid)
}

// TestNeedsTable: without TABLESETTLE_TABLE the function reports a
// configuration error instead of sweeping nothing every minute.
func TestNeedsTable(t *testing.T) {
	if _, err := handler(func(string) string { return "" }, os.Stderr); err == nil {
		t.Fatal("no error without TABLESETTLE_TABLE")
	}
}
