package lambdaapp

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// Auditor is a Sweeper that also keeps the ledger verifiable (issue 34
// items 2 and 6): it publishes every pool's checkpoint and reconciles
// every pool from its latest verified checkpoint.
type Auditor interface {
	PublishCheckpoints(ctx context.Context) error
	AuditPools(ctx context.Context) ([]jackpot.Reconciliation, error)
}

// MetricNamespace and MetricLedgerMismatches are the CloudWatch metric the
// sweep emits on every run through embedded metric format log lines: the
// number of pools whose ledger does not reconcile (0 when all do); the
// alarm in infra/ fires on any value above 0.
const (
	MetricNamespace        = "tablesettle"
	MetricLedgerMismatches = "LedgerMismatches"
)

// emf is the embedded metric format's "_aws" member declaring one count
// metric, without dimensions, at now.
func emf(now time.Time, metric string) map[string]any {
	return map[string]any{
		"Timestamp": now.UnixMilli(),
		"CloudWatchMetrics": []any{map[string]any{
			"Namespace":  MetricNamespace,
			"Dimensions": [][]string{{}},
			"Metrics":    []any{map[string]any{"Name": metric, "Unit": "Count"}},
		}},
	}
}

// audit publishes the checkpoints and reconciles every pool, logging one
// EMF line with the number of pools that differ, and one error line a
// pool naming its problems (each names the seq at fault).
func audit(ctx context.Context, a Auditor, logger *slog.Logger, ev events.EventBridgeEvent, now time.Time) (int, error) {
	perr := a.PublishCheckpoints(ctx)
	rs, aerr := a.AuditPools(ctx)
	bad := 0
	for _, r := range rs {
		if !r.OK {
			bad++
			logger.Error("ledger mismatch", "event_id", ev.ID, "pool", r.Pool, "from", r.From, "entries", r.Entries, "problems", r.Problems, "differences", r.Differences)
		}
	}
	logger.Info("ledger audit", "_aws", emf(now, MetricLedgerMismatches), MetricLedgerMismatches, bad, "pools", len(rs), "event_id", ev.ID)
	return bad, errors.Join(perr, aerr)
}

// Sweeper pays the held hits that are due (pools.Service.SweepHeld, the
// call the local server's ticker makes every second).
type Sweeper interface {
	SweepHeld(ctx context.Context) ([]pools.Released, error)
}

// SweepHandler is what the scheduled sweep (functions/sweep) hands to
// lambda.Start: an EventBridge scheduled event in, what it paid out.
type SweepHandler func(context.Context, events.EventBridgeEvent) (SweepReport, error)

// Folder folds the rounds committed beside the pools whose epoch has been
// open long enough (pools.Service.FoldDue; issue 34: reads never fold).
type Folder interface {
	FoldDue(ctx context.Context) ([]string, error)
}

// SweepReport is the sweep's answer (the Lambda console and a test see it;
// EventBridge discards it): how many held hits it paid, from how many
// pools, and how many pools' contribution shards it folded.
type SweepReport struct {
	Pools  int `json:"pools"`
	Paid   int `json:"paid"`
	Folded int `json:"folded,omitempty"`
	// Mismatches is the number of pools whose ledger did not reconcile
	// (an Auditor's run; the metric LedgerMismatches).
	Mismatches int `json:"mismatches"`
}

// Sweep returns the handler of the scheduled sweep: every event releases
// the held RWS hits whose settle window has closed (ruling R7), of every
// pool, through svc, and logs one line per hit it paid (pool, table,
// round, seat, hand, amount in the pool's currency, ledger sequence) and
// one line for the run. A hit another reader or sweep paid first is not
// logged here: it is paid once, by whoever committed first. A store that
// failed is an error (the function's Errors alarm; the next minute's run
// tries again), after every other pool was swept.
func Sweep(svc Sweeper, logger *slog.Logger) SweepHandler {
	return func(ctx context.Context, ev events.EventBridgeEvent) (SweepReport, error) {
		var rep SweepReport
		var ferr error
		if f, ok := svc.(Folder); ok {
			// The rounds committed beside a quiet pool reach its ledger
			// here (a busy pool's writers fold it themselves).
			var folded []string
			folded, ferr = f.FoldDue(ctx)
			rep.Folded = len(folded)
			for _, id := range folded {
				logger.Info("shards folded", "event_id", ev.ID, "pool", id)
			}
		}
		released, err := svc.SweepHeld(ctx)
		for _, r := range released {
			rep.Pools++
			for _, p := range r.Paid {
				rep.Paid++
				logger.Info("held hit paid", "event_id", ev.ID, "pool", r.Pool, "table", p.Table, "round", p.Round,
					"seat", p.Seat, "hand", p.Category, "amount", r.Currency.Format(p.Amount), "minor_units", int64(p.Amount),
					"seq", p.Seq, "rules", p.Rules)
			}
		}
		var aerr error
		if a, ok := svc.(Auditor); ok {
			var bad int
			bad, aerr = audit(ctx, a, logger, ev, time.Now())
			rep.Mismatches = bad
			if aerr != nil {
				logger.Error("ledger audit incomplete; the next run tries again", "event_id", ev.ID, "err", aerr.Error())
			}
		}
		if err != nil {
			logger.Error("sweep incomplete; the next run tries again", "event_id", ev.ID, "pools", rep.Pools, "paid", rep.Paid, "err", err.Error())
			return rep, errors.New("sweep: some held hits could not be released (see the log)")
		}
		if ferr != nil {
			logger.Error("fold incomplete; the next run tries again", "event_id", ev.ID, "err", ferr.Error())
			return rep, errors.New("sweep: some pools' shards could not be folded (see the log)")
		}
		if aerr != nil {
			return rep, errors.New("sweep: some pools' ledgers could not be audited (see the log)")
		}
		logger.Info("sweep", "event_id", ev.ID, "scheduled", ev.Time, "pools", rep.Pools, "paid", rep.Paid)
		return rep, nil
	}
}
