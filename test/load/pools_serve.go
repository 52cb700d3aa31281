package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/dynamo"
)

// ServeOptions say how the pools scenario starts `tablesettle serve`.
type ServeOptions struct {
	Binary   string // the tablesettle binary
	DynamoDB string // DynamoDB Local's endpoint ("": the embedded store)
	Shards   int    // -shards, passed explicitly whatever serve's default
}

// runPools runs the pools scenario: it writes a principals file (an
// admin, a controller and one table principal per table), starts serve on
// a free loopback port with it (on DynamoDB Local, in a table of its own,
// with o.Shards contribution shards), attacks, checks, counts the write
// units from the items written, stops serve and reports.
func runPools(ctx context.Context, o Options, stdout io.Writer) (int, error) {
	dir, err := os.MkdirTemp("", "tablesettle-pools-")
	if err != nil {
		return 1, err
	}
	defer os.RemoveAll(dir)
	entries, creds := NewPoolsPrincipals(o.Tables)
	principals := filepath.Join(dir, "principals.json")
	if err := auth.WriteFile(principals, entries); err != nil {
		return 1, err
	}
	port, err := freePort()
	if err != nil {
		return 1, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	table := fmt.Sprintf("tablesettle-pools-%d", time.Now().UnixNano())
	args := []string{"serve", "-addr", addr, "-data", dir, "-principals", principals}
	if o.Serve.DynamoDB != "" {
		args = append(args, "-dynamodb", o.Serve.DynamoDB, "-table", table, "-shards", strconv.Itoa(o.Serve.Shards))
	}
	logPath := filepath.Join(dir, "serve.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return 1, err
	}
	defer logFile.Close()
	cmd := exec.Command(o.Serve.Binary, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return 1, fmt.Errorf("start serve: %w", err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			_ = cmd.Process.Signal(syscall.SIGTERM)
			_ = cmd.Wait()
		}
	}
	defer stop()
	fail := func(err error) (int, error) {
		stop()
		if b, rerr := os.ReadFile(logPath); rerr == nil {
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			fmt.Fprintf(os.Stderr, "load: the last lines of serve's log:\n%s\n", strings.Join(lines[max(0, len(lines)-20):], "\n"))
		}
		return 1, err
	}
	target, err := ResolveTarget("http://"+addr, "")
	if err != nil {
		return fail(err)
	}
	if err := waitForTarget(ctx, target, 60*time.Second); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "serve       %s %s (%d table principals; load average %s)\n", o.Serve.Binary, strings.Join(args, " "), o.Tables, loadAverage())
	var selfBefore syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &selfBefore)
	po := PoolsOptions{Rate: o.Rate, Duration: o.Duration, Seed: o.Seed, Tables: o.Tables,
		HitEvery: o.HitEvery, Timeout: o.Timeout, MaxWorkers: o.MaxWorkers, Warmup: o.Warmup}
	if o.Serve.DynamoDB != "" {
		po.AfterAttack = func(rep *PoolsReport) (err error) {
			rep.WRU, err = countWRU(ctx, dynamo.LocalClient(o.Serve.DynamoDB), table, poolsPoolID, rep.Sent, o.Serve.Shards)
			return err
		}
	}
	rep, err := PoolsAttack(ctx, target, creds, po)
	if err != nil {
		return fail(err)
	}
	stop()
	var self syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	if ps := cmd.ProcessState; ps != nil && rep.Sent > 0 {
		serveCPU := ps.UserTime() + ps.SystemTime()
		driverCPU := time.Duration(self.Utime.Nano()+self.Stime.Nano()-selfBefore.Utime.Nano()-selfBefore.Stime.Nano()) * time.Nanosecond
		rep.CPU = fmt.Sprintf("cpu         serve %s in all (%s a round, warm-up and checks included); the driver %s (%s a round); DynamoDB Local the rest of 2 cores\n",
			serveCPU.Round(time.Millisecond), (serveCPU / time.Duration(rep.Sent+o.Warmup)).Round(time.Microsecond*10),
			driverCPU.Round(time.Millisecond), (driverCPU / time.Duration(rep.Sent)).Round(time.Microsecond*10))
	}
	rep.WriteTo(stdout)
	fmt.Fprintf(stdout, "load avg    %s (after the run; %d CPUs)\n", loadAverage(), runtime.NumCPU())
	if !rep.Errorless() || rep.CentsOff || !rep.ReconcileOK {
		return 1, fmt.Errorf("%d of %d rounds scheduled failed or were not sent; cents off: %v; reconcile ok: %v", rep.Scheduled-rep.OK, rep.Scheduled, rep.CentsOff, rep.ReconcileOK)
	}
	return 0, nil
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// loadAverage is the machine's 1, 5 and 15 minute load averages.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// checkLoopbackEndpoint refuses a DynamoDB endpoint off this machine.
func checkLoopbackEndpoint(ep string) error {
	u, err := url.Parse(ep)
	if err != nil || u.Scheme != "http" || !isLoopbackHost(u.Hostname()) {
		return fmt.Errorf("-dynamodb %q: want DynamoDB Local on a loopback address (http://127.0.0.1:PORT)", ep)
	}
	return nil
}

// countWRU reads back every item of the pool and counts what its rounds
// cost on AWS, where a transactional write costs 2 write request units per
// started KB of each item written (of the item after the update): each
// round record once; for each round beside the pool its shard; for each
// commit of the pool item (its version: the serial path, the hits, the
// folds) the pool item, every shard written back, and the ledger entries
// (each once). Sizes are those at the end (the pool item only grows with
// its last hits, so its count is an upper bound). Cancelled transactions
// and the seals of shards are not counted.
func countWRU(ctx context.Context, client *dynamodb.Client, table, pool string, rounds, shards int) (string, error) {
	in := &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		KeyConditionExpression:    aws.String("pk = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "POOL#" + pool}}}
	wru := func(size int) int64 { return 2 * int64((size+1023)/1024) }
	var poolSize, shardMax, recMaxBeside, recMaxSerial, ledgerN, ledgerItems int
	var beside, serial, shardItems, recWRU, ledgerWRU, version int64
	for {
		page, err := client.Query(ctx, in)
		if err != nil {
			return "", fmt.Errorf("count WRU: %w", err)
		}
		for _, it := range page.Items {
			sk := it["sk"].(*types.AttributeValueMemberS).Value
			size := dynamo.ItemSize(it)
			switch {
			case sk == "POOL":
				poolSize = size
				if v, ok := it["version"].(*types.AttributeValueMemberN); ok {
					version, _ = strconv.ParseInt(v.Value, 10, 64)
				}
			case strings.HasPrefix(sk, "SHARD#"):
				shardItems++
				shardMax = max(shardMax, size)
			case strings.HasPrefix(sk, "LEDGER#"):
				// One entry, or a fold's n entries in one item.
				ledgerItems++
				ledgerN++
				if v, ok := it["n"].(*types.AttributeValueMemberN); ok {
					n, _ := strconv.ParseInt(v.Value, 10, 64)
					ledgerN += int(n) - 1
				}
				ledgerWRU += wru(size)
			case strings.HasPrefix(sk, "REC#round/"):
				recWRU += wru(size)
				if _, ok := it["shard"]; ok {
					beside++
					recMaxBeside = max(recMaxBeside, size)
				} else {
					serial++
					recMaxSerial = max(recMaxSerial, size)
				}
			}
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	total := recWRU + beside*wru(shardMax) + version*(wru(poolSize)+shardItems*wru(shardMax)) + ledgerWRU
	var b strings.Builder
	fmt.Fprintf(&b, "WRU         %d round records: %d beside the pool (record <= %d B, shard <= %d B: %d WRU a round), %d on the serial path (record <= %d B)\n",
		beside+serial, beside, recMaxBeside, shardMax, wru(recMaxBeside)+wru(shardMax), serial, recMaxSerial)
	fmt.Fprintf(&b, "            %d commits of the pool item (%d B, with %d shards of <= %d B written back: %d WRU each), %d ledger entries in %d items (%d WRU)\n",
		version, poolSize, shardItems, shardMax, wru(poolSize)+shardItems*wru(shardMax), ledgerN, ledgerItems, ledgerWRU)
	if rounds > 0 {
		fmt.Fprintf(&b, "            in all about %d WRU on AWS: %.2f WRU a round (-shards %d)\n", total, float64(total)/float64(rounds), shards)
	}
	return b.String(), nil
}
