// Command tablesettle runs the API on localhost (the host of `make run`)
// and writes the OpenAPI spec (the generator of `make openapi`).
//
//	tablesettle serve [-addr 127.0.0.1:8080] [-data .tablesettle] [-principals FILE] [-dynamodb URL [-table NAME]]
//	tablesettle principals add --id ID --role ROLE [--tables T1,T2] [-file FILE]
//	tablesettle openapi [-out openapi]
//	tablesettle store backup FILE | check | import FILE [-data .tablesettle]
//	tablesettle ledger export -pool ID -out DIR [-data DIR | -url URL -token T]
//	tablesettle ledger verify [-pool ID] (DIR | -data DIR | -url URL -token T)
//
// serve keeps pools in DATA/pools.db (SQLite, internal/sqlite; docs/store.md).
//
// serve authenticates requests by bearer token against a principals file
// (-principals, or TABLESETTLE_PRINCIPALS; default DATA/principals.json,
// created with a fresh token per role when it does not exist).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/tablesettle/tablesettle/internal/analysis"
	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/lambdaapp"
	"github.com/tablesettle/tablesettle/internal/lambdaapp/poolsenv"
	"github.com/tablesettle/tablesettle/internal/localledger"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "tablesettle:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: tablesettle serve|principals|store|ledger|openapi [flags]")
	}
	switch args[0] {
	case "serve":
		return serve(args[1:])
	case "principals":
		return principals(args[1:], os.Stdout)
	case "store":
		return store(args[1:], os.Stdout)
	case "openapi":
		return writeSpec(args[1:])
	case "ledger":
		return ledger(args[1:], os.Stdout)
	}
	return fmt.Errorf("unknown command %q (want serve, principals, store, ledger or openapi)", args[0])
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	data := fs.String("data", ".tablesettle", "directory of the embedded store, DATA/"+sqlite.FileName+" (pools survive restarts)")
	principalsFile := fs.String("principals", os.Getenv(principalsEnv), "principals file (JSON; default DATA/"+defaultPrincipals+", created with a token per role when missing); env "+principalsEnv)
	ddb := fs.String("dynamodb", "", "DynamoDB Local's endpoint (http://127.0.0.1:PORT): keep pools there, in the production store, instead of the embedded one")
	ddbTable := fs.String("table", "tablesettle-local", "the DynamoDB table (with -dynamodb; created when missing)")
	quickCheck := fs.Bool("quick-check", true, "check the embedded store with SQLite's PRAGMA quick_check before serving (reads the whole file: about 9 s per 1,000,000 ledger entries); -quick-check=false starts a big database you have just checked (store check) at once, docs/store.md")
	shards := fs.Int("shards", dynamo.DefaultShards, fmt.Sprintf("with -dynamodb: contribution shards per pool (1-%d: rounds without a hit are committed beside the pool, docs/scale.md; 0: none, every round commits to the pool item)", dynamo.MaxShards))
	shiftsFlag := fs.String("shifts", os.Getenv(poolsenv.ShiftsEnv), "the floor's shift boundaries, a time zone then the shift start times (e.g. \"Asia/Singapore 06:00 14:00 22:00\"; default \""+jackpot.DefaultShifts+"\"): a shift report asked for no range covers the current shift; env "+poolsenv.ShiftsEnv)
	if err := fs.Parse(args); err != nil {
		return err
	}
	shifts, err := jackpot.ParseShifts(*shiftsFlag)
	if err != nil {
		return fmt.Errorf("-shifts: %w", err)
	}
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "shards" })
	if *shards < 0 || *shards > dynamo.MaxShards || (set && *ddb == "") {
		return fmt.Errorf("-shards %d: want 0 to %d, with -dynamodb", *shards, dynamo.MaxShards)
	}
	logger := lambdaapp.Logger(os.Stdout, os.Getenv("LOG_LEVEL"))
	var store pools.Store
	if *ddb != "" {
		st, err := dynamoStore(*ddb, *ddbTable, *shards)
		if err != nil {
			return err
		}
		store = st
	} else {
		var opts []sqlite.Option
		if !*quickCheck {
			opts = append(opts, sqlite.WithoutQuickCheck())
		}
		st, err := openStore(context.Background(), *data, os.Stderr, opts...)
		if err != nil {
			return err
		}
		defer st.Close()
		store = st
	}
	access, err := localAccess(*principalsFile, *data, os.Stderr)
	if err != nil {
		return err
	}
	svc := pools.NewService(store, time.Now, uint64(time.Now().UnixNano()))
	if svc.Signing, err = localledger.Open(*data); err != nil {
		return err
	}
	svc.Shifts = shifts
	handler, _ := httpapi.New(httpapi.Deps{Logger: logger, Pools: svc, Access: access,
		AnalysisCache: analysis.NewCache(256, 16<<20)})
	srv := server(*addr, handler)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go sweepHeld(ctx, svc, time.Second, logger)
	go foldDue(ctx, svc, time.Second, logger)
	go publishCheckpoints(ctx, svc, pools.CheckpointEvery, logger)
	// The scheduled verifier (issue 34 item 6): every pool reconciled from
	// its latest verified checkpoint; a mismatch is logged naming the seq.
	go every(ctx, pools.VerifyEvery, false, logger, "ledger verification failed", svc.VerifyPools)
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	logger.Info("tablesettle listening", "addr", "http://"+*addr, "docs", "http://"+*addr+"/docs")
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}

// server is the local server's http.Server. It times out idle
// connections, not slow honest clients: a client has ReadHeaderTimeout to
// send its headers and a kept-alive connection is closed after IdleTimeout
// of silence; there is no ReadTimeout or WriteTimeout on the whole request,
// which would cut a slow body and turn into a 503 nobody logged (issue 13).
// The body is the middleware's: it answers 408 when a client sends nothing
// for httpapi.DefaultBodyIdleTimeout or takes over
// httpapi.DefaultBodyReadTimeout in all, and logs why.
func server(addr string, h http.Handler) *http.Server {
	return &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
}

func writeSpec(args []string) error {
	fs := flag.NewFlagSet("openapi", flag.ContinueOnError)
	out := fs.String("out", "openapi", "directory to write openapi.yaml and openapi-3.0.yaml into")
	if err := fs.Parse(args); err != nil {
		return err
	}
	spec31, spec30, err := httpapi.Spec()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "openapi.yaml"), spec31, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(*out, "openapi-3.0.yaml"), spec30, 0o644)
}

// sweepHeld pays, every interval until ctx ends, the held RWS hits whose
// settle window has closed (ruling R7), of every pool the service has seen
// holding one: a held hit is paid at its window's close even with no page
// open (docs/floor.md), and folds the contribution shards whose epoch has
// been open long enough (pools.Service.FoldDue, issue 34: reads never
// fold, so the rounds committed beside a pool reach its ledger here, or
// by its writers, within seconds). On AWS the scheduled function
// functions/sweep makes the same calls every minute.
func sweepHeld(ctx context.Context, svc *pools.Service, interval time.Duration, logger warner) {
	every(ctx, interval, false, logger, "held hits not released; retrying next tick", func(ctx context.Context) error {
		_, err := svc.SweepHeld(ctx)
		return err
	})
}

// foldDue folds, every interval until ctx ends, the contribution shards
// of every pool whose epoch has been open long enough
// (pools.Service.FoldDue).
func foldDue(ctx context.Context, svc *pools.Service, interval time.Duration, logger warner) {
	every(ctx, interval, false, logger, "contribution shards not folded; retrying next tick", func(ctx context.Context) error {
		_, err := svc.FoldDue(ctx)
		return err
	})
}

type warner interface {
	Warn(msg string, args ...any)
}

// every runs step every interval until ctx ends (first at once when now
// is set), logging a failure with what.
func every(ctx context.Context, interval time.Duration, now bool, logger warner, what string, step func(context.Context) error) {
	run := func() {
		if err := step(ctx); err != nil && ctx.Err() == nil {
			logger.Warn(what, "err", err.Error())
		}
	}
	if now {
		run()
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			run()
		}
	}
}

// publishCheckpoints signs, at once and then every interval until ctx
// ends, the checkpoint of every pool with entries its latest checkpoint
// does not cover, and appends it to the witness file beside the database
// (issue 34 items 2 and 5): the latest checkpoint covers every entry
// committed more than 5 s before a read.
func publishCheckpoints(ctx context.Context, svc *pools.Service, interval time.Duration, logger warner) {
	every(ctx, interval, true, logger, "checkpoints not published; retrying next tick", svc.PublishCheckpoints)
}
