#!/bin/bash
# What a proxied request costs the gateway, in figures the neighbours' load does not move much: V8
# heap allocated and promoted per request (the main isolate's --trace-gc-nvp lines over the window),
# the main thread's CPU per request (schedstat), the other threads' (the store thread the busiest), the loop's gaps over 10 ms with the main
# thread's own CPU in each (request-probe.cjs). Mock upstream, the gateway on its shipped defaults
# (ENCODER=hashed for the variant) with the malloc settings, 3,000 requests of warm-up, then
# <requests> measured at C connections (default 16), x-intelligence-mode: proxy.
#   tooling/bench/scripts/request-cost.sh <repo root> <out dir> <requests> [node flags...]
#   C=4 ... (connections)   PROBE_HEAP=1 ... (sampling heap profile: <out>/probe.json.heapprofile; PROBE_HEAP=promoted: without
#     what the scavenges collected, i.e. what was promoted or allocated old; heapprofile-sites.mjs reads either)
#   ENV='SVC_LEARN_FLUSH_MS=100' ... (more gateway environment)   RATE=500 ... (measured at that many requests/s, not as fast as it goes)
#   WARM=2400 ... (requests of warm-up, default 3000; the quick bench warms up for 1 s)
#   STORE_IDLE=1 ... (after the warm-up, the store thread under SCHED_IDLE, `chrt -i`: an experiment, root; the store thread is
#     taken to be the busiest in the warm-up of the threads after node's first nine, V8's platform workers and libuv's pool)
#   PIN=1 ... (the bench's placement: the gateway on CPU 1, the mock upstream and autocannon on CPU 0)
#   PROBE=loop-holds ... (what holds the event loop instead: loop-holds-probe.cjs, its summary)
#   AUTOGROUP_NICE=-19 ... (this script's scheduler autogroup at that nice while it runs: on a machine shared with
#     other sessions' work, their processes then rarely take the gateway's CPU, an approximation of a quiet machine;
#     root, and Linux with sched_autogroup_enabled)
set -eu
if [ -n "${AUTOGROUP_NICE:-}" ]; then echo "$AUTOGROUP_NICE" > /proc/$$/autogroup; trap 'echo 0 > /proc/$$/autogroup' EXIT; fi
WT=$1; OUT=$2; N=$3; shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
cd "$WT"
P0=${P0:-23901}; PM=$P0; PG=$((P0 + 1)); PC=$((P0 + 2))
GW=(); UP=()
if [ -n "${PIN:-}" ]; then GW=(taskset -c 1); UP=(taskset -c 0); fi
"${UP[@]}" node tooling/mock-upstream/dist/main.js --port $PM --tokens 16 > "$OUT/mock.log" 2>&1 &
MOCK=$!
DATA=$(mktemp -d)
KEY=sk-svc-bench-0123456789abcdef0123456789abcdef
env MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072 PORT=$PG CONTROL_PORT=$PC HOST=127.0.0.1 SVC_DATA_DIR=$DATA SVC_MASTER_KEY=$KEY \
  OPENAI_API_KEY=mock OPENAI_BASE_URL=http://127.0.0.1:$PM/v1 SVC_MOCK_PROVIDER=0 ${ENCODER:+SVC_SENTENCE_ENCODER=$ENCODER} PROBE_OUT=$OUT/probe.json \
  ${ENV:-} "${GW[@]}" node -r "$HERE/${PROBE:-request}-probe.cjs" --trace-gc-nvp "$@" apps/server/dist/main.js > "$OUT/svc.log" 2>&1 &
SVC=$!
for _ in $(seq 1 240); do curl -sf http://127.0.0.1:$PG/ready > /dev/null && break; sleep 0.5; done
AC=$WT/tooling/bench/node_modules/.bin/autocannon
BODY='{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"Say hello"}]}'
load() {
  "${UP[@]}" "$AC" -c "${C:-16}" -a "$1" ${2:+-R "$2"} -m POST -H "content-type: application/json" -H "authorization: Bearer $KEY" \
    -H "x-intelligence-mode: proxy" -b "$BODY" -j http://127.0.0.1:$PG/v1/chat/completions 2> /dev/null
}
threads() { for t in /proc/$SVC/task/*; do echo "${t##*/} $(sed 's/.*) //' "$t/stat" | awk '{print $12+$13}')"; done; }
threads > "$OUT/warm0.txt"
load "${WARM:-3000}" > /dev/null
if [ -n "${STORE_IDLE:-}" ]; then
  STORE=$(threads | join "$OUT/warm0.txt" - | awk -v main=$SVC '$1 != main {print $1, $3 - $2}' | sort -n | tail -n +10 | sort -k2 -rn | head -1 | cut -d' ' -f1)
  chrt -i -p 0 "$STORE"
  echo "store thread $STORE under SCHED_IDLE"
fi
sleep 1.5
T0=$(awk '{print $14+$15}' "/proc/$SVC/stat"); threads > "$OUT/threads0.txt"
kill -USR2 $SVC; sleep 0.2
load "$N" "${RATE:-}" > "$OUT/ac.json"
kill -USR2 $SVC; sleep 0.5
T1=$(awk '{print $14+$15}' "/proc/$SVC/stat"); threads > "$OUT/threads1.txt"
# The other threads' CPU µs a request, busiest first (the store thread is the busiest under proxy load).
join "$OUT/threads0.txt" "$OUT/threads1.txt" | awk -v n="$N" -v main="$SVC" '$1 != main {printf "%.1f\n", ($3 - $2) * 10000 / n}' | sort -rn | head -4 | paste -sd' ' | sed 's/^/other threads µs a request: /' > "$OUT/threads.txt"
HWM=$(awk '/VmHWM/ {print $2}' "/proc/$SVC/status")
kill -INT $SVC; wait $SVC || true; kill $MOCK || true; rm -rf "$DATA"
cat "$OUT/threads.txt"
if [ "${PROBE:-request}" = request ]; then node "$HERE/request-cost-summary.mjs" "$OUT" "$N" $((T1 - T0))
else node "$HERE/${PROBE}-summary.mjs" "$OUT" $((T1 - T0)) "$HWM"; fi
