#!/bin/bash
# Where a cache or full-mode miss's first token waits (issue #34): the gateway on its shipped
# defaults (MiniLM, the embedded store) with OTEL_EXPORTER_OTLP_ENDPOINT on ttft-stages.mjs's sink,
# the mock upstream, then <requests> unique streamed prompts one at a time in each of MODES
# (default proxy cache full): TTFT p50/p90 and each stage span's start and duration.
#   tooling/bench/scripts/ttft-stages.sh <repo root> <out dir> <requests>     (OTEL=0: no spans)
set -eu
WT=$1; OUT=$2; N=$3
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"; cd "$WT"
P0=${P0:-25971}; PM=$P0; PG=$((P0 + 1)); PC=$((P0 + 2)); PO=$((P0 + 3))
[ "${OTEL:-1}" = 0 ] && PO=0
node tooling/mock-upstream/dist/main.js --port $PM --tokens 16 > "$OUT/mock.log" 2>&1 &
MOCK=$!
DATA=$(mktemp -d)
KEY=sk-svc-bench-0123456789abcdef0123456789abcdef
env MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072 PORT=$PG CONTROL_PORT=$PC HOST=127.0.0.1 SVC_DATA_DIR=$DATA SVC_MASTER_KEY=$KEY LOG_LEVEL=warn \
  OPENAI_API_KEY=mock OPENAI_BASE_URL=http://127.0.0.1:$PM/v1 SVC_MOCK_PROVIDER=0 OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$PO \
  node apps/server/dist/main.js > "$OUT/svc.log" 2>&1 &
SVC=$!
trap 'kill -INT $SVC 2> /dev/null || true; sleep 1; kill $MOCK 2> /dev/null || true; rm -rf "$DATA"' EXIT
for _ in $(seq 1 240); do curl -sf http://127.0.0.1:$PG/ready > /dev/null && break; sleep 0.5; done
sleep 3
for mode in ${MODES:-proxy cache full}; do node "$HERE/ttft-stages.mjs" $PG $PO "$mode" "$N" $((RANDOM * 10)); done
