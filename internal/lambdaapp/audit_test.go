package lambdaapp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

type fakeAuditor struct {
	published int
	rs        []jackpot.Reconciliation
}

func (f *fakeAuditor) SweepHeld(context.Context) ([]pools.Released, error) { return nil, nil }
func (f *fakeAuditor) PublishCheckpoints(context.Context) error            { f.published++; return nil }
func (f *fakeAuditor) AuditPools(context.Context) ([]jackpot.Reconciliation, error) {
	return f.rs, nil
}

// TestSweepAuditsLedger: issue 34 items 2 and 6 on AWS. Each sweep run
// publishes the checkpoints, reconciles every pool from its latest
// checkpoint, and emits the LedgerMismatches metric in CloudWatch's
// embedded metric format (the alarm of infra/ fires above 0), with an
// error line per pool naming the seq at fault.
func TestSweepAuditsLedger(t *testing.T) {
	f := &fakeAuditor{rs: []jackpot.Reconciliation{{Pool: "a", OK: true}, {Pool: "b", From: 11, Problems: []string{"entry 14 is not the entry the checkpoint signed"}}}}
	var logs bytes.Buffer
	rep, err := Sweep(f, Logger(&logs, ""))(context.Background(), events.EventBridgeEvent{ID: "ev-1"})
	if err != nil || rep.Mismatches != 1 || f.published != 1 {
		t.Fatalf("report %+v %v, published %d", rep, err, f.published)
	}
	var sawMetric, sawPool bool
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if aws, ok := m["_aws"].(map[string]any); ok {
			cw := aws["CloudWatchMetrics"].([]any)[0].(map[string]any)
			metric := cw["Metrics"].([]any)[0].(map[string]any)
			if cw["Namespace"] != "tablesettle" || metric["Name"] != "LedgerMismatches" || m["LedgerMismatches"] != 1.0 || aws["Timestamp"] == nil {
				t.Fatalf("EMF line: %s", line)
			}
			sawMetric = true
		}
		if m["msg"] == "ledger mismatch" && m["pool"] == "b" && strings.Contains(line, "entry 14") {
			sawPool = true
		}
	}
	if !sawMetric || !sawPool {
		t.Fatalf("logs:\n%s", logs.String())
	}
	f.rs = f.rs[:1]
	logs.Reset()
	if rep, err := Sweep(f, Logger(&logs, ""))(context.Background(), events.EventBridgeEvent{ID: "ev-2"}); err != nil || rep.Mismatches != 0 || !strings.Contains(logs.String(), `"LedgerMismatches":0`) {
		t.Fatalf("a clean run: %+v %v\n%s", rep, err, logs.String())
	}
}
