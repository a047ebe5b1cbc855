#!/bin/bash
# One-off profile of a built svc under load (not part of pnpm bench): mock upstream and autocannon
# on CPU 0, svc on CPU 1 with its shipped defaults (ENCODER=hashed sets SVC_SENTENCE_ENCODER for a
# variant), 2 s warm-up then <seconds> measured at
# 16 connections with x-intelligence-mode <mode> (proxy: every request upstream; full: the same
# body every time, so exact-cache hits). Writes <out>/*.cpuprofile, <out>/window (the measured
# run's CLOCK_MONOTONIC seconds), <out>/ac.json; prints CPU ticks, requests and peak RSS.
#   tooling/bench/scripts/profile-svc.sh <repo root> <proxy|full> <out dir> [seconds]
#   PROF=--no-warnings ...   to run without the profiler (RSS and CPU without its overhead)
set -eu
WT=$1; MODE=$2; OUT=$3; SECS=${4:-8}
mkdir -p "$OUT"; rm -f "$OUT"/*.cpuprofile
cd "$WT"
taskset -c 0 node tooling/mock-upstream/dist/main.js --port 19901 --tokens 16 > "$OUT/mock.log" 2>&1 &
MOCK=$!
DATA=$(mktemp -d)
KEY=sk-svc-bench-0123456789abcdef0123456789abcdef
env PORT=19902 CONTROL_PORT=19903 HOST=127.0.0.1 SVC_DATA_DIR=$DATA SVC_MASTER_KEY=$KEY OPENAI_API_KEY=mock \
  OPENAI_BASE_URL=http://127.0.0.1:19901/v1 SVC_MOCK_PROVIDER=0 ${ENCODER:+SVC_SENTENCE_ENCODER=$ENCODER} \
  taskset -c 1 node ${PROF:---cpu-prof --cpu-prof-dir=$OUT} apps/server/dist/main.js > "$OUT/svc.log" 2>&1 &
SVC=$!
for _ in $(seq 1 120); do curl -sf http://127.0.0.1:19902/ready > /dev/null && break; sleep 0.5; done
AC=$WT/tooling/bench/node_modules/.bin/autocannon
BODY='{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"Say hello"}]}'
load() {
  taskset -c 0 "$AC" -c 16 -d "$1" -m POST -H "content-type: application/json" -H "authorization: Bearer $KEY" \
    -H "x-intelligence-mode: $MODE" -b "$BODY" -j http://127.0.0.1:19902/v1/chat/completions 2> /dev/null
}
load 2 > /dev/null
U0=$(cut -d' ' -f1 /proc/uptime); T0=$(awk '{print $14+$15}' "/proc/$SVC/stat")
load "$SECS" > "$OUT/ac.json"
U1=$(cut -d' ' -f1 /proc/uptime); T1=$(awk '{print $14+$15}' "/proc/$SVC/stat")
echo "$U0 $U1" > "$OUT/window"
echo "cpu ticks $((T1 - T0)); requests, non-2xx, p99 ms: $(node -e 'const r=require(process.argv[1]);console.log(r.requests.total, r.non2xx, r.latency.p99)' "$OUT/ac.json")"
grep -E "VmHWM|VmRSS" "/proc/$SVC/status"
kill -INT $SVC; wait $SVC || true; kill $MOCK; rm -rf "$DATA"
