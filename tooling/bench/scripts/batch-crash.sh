#!/bin/sh
# sh tooling/bench/scripts/batch-crash.sh [lines] [kill at] (from the repository's root, built): a
# batch of `lines` chat lines (default 10000) run by the gateway itself on a new embedded data
# directory with the shipped defaults, against the mock upstream; the gateway is killed with
# SIGKILL once `kill at` lines completed (default a third) and started again on the same data, and
# the bench checks that every line is answered exactly once in the output and billed exactly once
# in the ledger. Ports 19291/19292 (gateway) and 19293 (mock upstream); the directory is removed.
set -e
LINES=${1:-10000}
KILL_AT=${2:-$((LINES / 3))}
WORK=$(mktemp -d)
KEY=sk-svc-BatchCrash-5c8e1a7d93f2b4Kp7r1
node tooling/mock-upstream/dist/main.js --port 19293 > "$WORK/mock.log" 2>&1 &
MOCK=$!
start_gateway() {
  SVC_DATA_DIR="$WORK/data" PORT=19291 CONTROL_PORT=19292 SVC_MASTER_KEY=$KEY LOG_LEVEL=warn \
    OPENAI_BASE_URL=http://127.0.0.1:19293/v1 OPENAI_API_KEY=sk-up SVC_CACHE_TTL_SECS=0 SVC_BATCH_NATIVE=0 \
    sh scripts/start.sh >> "$WORK/gateway.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 120); do curl -sf http://127.0.0.1:19291/health > /dev/null 2>&1 && return 0; sleep 1; done
  echo "the gateway did not start" >&2; cat "$WORK/gateway.log" >&2; exit 1
}
trap 'kill $PID $MOCK 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
start_gateway
FIRST=$PID
node tooling/bench/dist/batch-bench.js --url http://127.0.0.1:19291 --control-url http://127.0.0.1:19292 --key $KEY \
  --lines "$LINES" --pid "$FIRST" --kill-at "$KILL_AT" --probe-rps 0 &
BENCH=$!
# The bench kills the first gateway; start the next on the same data directory once it is gone.
while kill -0 "$FIRST" 2>/dev/null; do sleep 0.2; done
echo "gateway $FIRST is gone; starting again on the same data"
start_gateway
wait $BENCH
