#!/bin/bash
# What a streamed request's first token waits for (issue #34): the gateway on its shipped defaults
# pinned to CPU 1 with ttft-trace.cjs preloaded, the mock upstream (1 ms before its first byte) and
# the client on CPU 0; per mode, <requests> unique streamed prompts alternating direct and svc
# (ttft-trace-client.mjs), then the socket spans' medians (ttft-trace-spans.mjs).
#   tooling/bench/scripts/ttft-trace.sh <repo root> <out dir> <requests>     (MODES, default proxy cache full;
#   CPU=1: the gateway's CPU too, every thread and the encoder's round trip split by thread, see ttft-trace.cjs)
set -eu
WT=$1; OUT=$2; N=$3
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"; cd "$WT"
P0=${P0:-27410}; PM=$P0; PG=$((P0 + 1)); PC=$((P0 + 2))
taskset -c 0 node tooling/mock-upstream/dist/main.js --port $PM --tokens 16 --latency-ms 1 > "$OUT/mock.log" 2>&1 &
MOCK=$!
DATA=$(mktemp -d)
KEY=sk-svc-bench-0123456789abcdef0123456789abcdef
env MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072 PORT=$PG CONTROL_PORT=$PC HOST=127.0.0.1 SVC_DATA_DIR=$DATA SVC_MASTER_KEY=$KEY LOG_LEVEL=warn \
  OPENAI_API_KEY=mock OPENAI_BASE_URL=http://127.0.0.1:$PM/v1 SVC_MOCK_PROVIDER=0 TTFT_TRACE_OUT="$OUT/trace.json" TTFT_TRACE_CPU=${CPU:-0} \
  taskset -c 1 node --require "$HERE/ttft-trace.cjs" apps/server/dist/main.js > "$OUT/svc.log" 2>&1 &
SVC=$!
trap 'kill $MOCK 2> /dev/null || true; rm -rf "$DATA"' EXIT
for _ in $(seq 1 240); do curl -sf http://127.0.0.1:$PG/ready > /dev/null && break; sleep 0.5; done
sleep 2
for mode in ${MODES:-proxy cache full}; do taskset -c 0 node "$HERE/ttft-trace-client.mjs" $PM $PG $SVC "$mode" "$N" $((RANDOM * 10)); done
kill -INT $SVC; wait $SVC || true
# One file for every mode: the spans are per mode only when MODES names one.
node "$HERE/ttft-trace-spans.mjs" "$OUT/trace.json"
