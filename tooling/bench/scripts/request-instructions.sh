#!/bin/bash
# Instructions of the gateway's main thread per proxied request, independent of the machine's load
# (issue #34): the gateway under callgrind (threads apart, `node --single-threaded` so that V8's
# compiler and GC work stays on the thread that causes it), the mock upstream, W requests of warm-up
# (default 2000), then N measured at C connections (default 16), x-intelligence-mode MODE (proxy).
# SIGUSR2 makes the preload call process.cpuUsage(), and `--dump-before=uv_getrusage` dumps the
# main thread there: <out>/cg.<pid>.3-01 is the measured window when nothing else called it first
# (the script prints every part; the window is the last-but-one of thread 1). Slow: ~6 min for
# 2,000 + 1,000 requests. The hashed encoder (ENCODER=minilm for the shipped one; proxy mode never
# embeds). NODE_FLAGS adds node flags (e.g. a V8 flag to compare). Per-category sums of a window:
# request-instructions-categories.py.
#   USER=root LOGNAME=root tooling/bench/scripts/request-instructions.sh <repo root> <out dir> <N> [mode]
set -eu
WT=$1; OUT=$2; N=$3; MODE=${4:-proxy}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"; rm -f "$OUT"/cg.*
cd "$WT"
P0=${P0:-25951}; PM=$P0; PG=$((P0 + 1)); PC=$((P0 + 2))
node tooling/mock-upstream/dist/main.js --port $PM --tokens 16 > "$OUT/mock.log" 2>&1 &
MOCK=$!
DATA=$(mktemp -d)
KEY=sk-svc-bench-0123456789abcdef0123456789abcdef
env MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072 PORT=$PG CONTROL_PORT=$PC HOST=127.0.0.1 SVC_DATA_DIR=$DATA SVC_MASTER_KEY=$KEY \
  OPENAI_API_KEY=mock OPENAI_BASE_URL=http://127.0.0.1:$PM/v1 SVC_MOCK_PROVIDER=0 SVC_SENTENCE_ENCODER=${ENCODER:-hashed} \
  valgrind --tool=callgrind --separate-threads=yes --dump-instr=no --dump-before=uv_getrusage --callgrind-out-file="$OUT/cg.%p" \
  node --single-threaded ${NODE_FLAGS:-} -r "$HERE/instructions-mark.cjs" apps/server/dist/main.js > "$OUT/svc.log" 2>&1 &
SVC=$!
trap 'kill -INT $SVC 2> /dev/null || true; kill $MOCK 2> /dev/null || true; rm -rf "$DATA"' EXIT
for _ in $(seq 1 1200); do curl -sf http://127.0.0.1:$PG/ready > /dev/null && break; sleep 0.5; done
AC=$WT/tooling/bench/node_modules/.bin/autocannon
BODY='{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"Say hello"}]}'
load() {
  "$AC" -c "${C:-16}" -a "$1" -t 120 -m POST -H "content-type: application/json" -H "authorization: Bearer $KEY" \
    -H "x-intelligence-mode: $MODE" -b "$BODY" -j http://127.0.0.1:$PG/v1/chat/completions 2> /dev/null
}
load "${W:-2000}" > "$OUT/warm.json"
sleep 2
kill -USR2 $SVC; sleep 3
load "$N" > "$OUT/ac.json"
sleep 2
kill -USR2 $SVC; sleep 3
kill -INT $SVC; wait $SVC || true
node -e 'const r=require(process.argv[1]);console.log("requests",r.requests.total,"non2xx",r.non2xx,"errors",r.errors)' "$OUT/ac.json"
for f in "$OUT"/cg.*; do echo "$(basename "$f") $(grep -m1 '^totals:' "$f" || true)"; done | sort -V
