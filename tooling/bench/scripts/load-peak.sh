#!/bin/bash
# The gateway's peak under proxy load apart from its start's: started as `pnpm start` runs it on a
# fresh embedded data directory against the mock upstream, left 5 s after /ready, VmHWM reset
# (`echo 5 > /proc/<pid>/clear_refs`), then autocannon at 16 connections for 10 s in proxy mode
# (REQS=N: N requests instead, so that runs under different machine load do the same work).
#   tooling/bench/scripts/load-peak.sh ROOT OUT [node flag...]   (e.g. --max-semi-space-size=8)
# Prints the start's VmHWM/VmRSS and the load's, with the CPU the gateway used during the load
# (all its threads, utime + stime in clock ticks of 10 ms) and its minor page faults;
# OUT.smaps0/OUT.smaps1 are /proc/<pid>/smaps before and after the load
# (tooling/bench/scripts/smaps-diff.py compares them).
set -u
ROOT=$1; OUT=$2; shift; shift; cd "$ROOT" || exit 1
MOCK_PORT=19100; PORT=19180; CONTROL=19181; KEY=sk-master-peak-1234567890123456789012
node tooling/mock-upstream/dist/main.js --port $MOCK_PORT > /dev/null 2>&1 &
MOCK=$!
DATA=$(mktemp -d)
. scripts/malloc-env.sh
env -i PATH="$PATH" HOME="$HOME" MALLOC_ARENA_MAX="$MALLOC_ARENA_MAX" MALLOC_TRIM_THRESHOLD_="$MALLOC_TRIM_THRESHOLD_" \
  SVC_DATA_DIR="$DATA" PORT=$PORT CONTROL_PORT=$CONTROL HOST=127.0.0.1 SVC_MASTER_KEY=$KEY OPENAI_API_KEY=mock \
  OPENAI_BASE_URL=http://127.0.0.1:$MOCK_PORT/v1 SVC_MOCK_PROVIDER=0 node $(sh scripts/gc-flags.sh) "$@" apps/server/dist/main.js > "$OUT.log" 2>&1 &
GATEWAY=$!
for _ in $(seq 1 240); do curl -sf http://127.0.0.1:$PORT/ready > /dev/null && break; sleep 0.5; done
sleep 5
status() { grep -E 'VmHWM|VmRSS' /proc/$GATEWAY/status | tr -s ' \t' ' ' | tr '\n' ' '; }
echo "start: $(status)" > "$OUT"
cpu_faults() { awk '{print $14 + $15, $10}' /proc/$GATEWAY/stat; }
read -r TICKS0 FAULTS0 <<< "$(cpu_faults)"
cp /proc/$GATEWAY/smaps "$OUT.smaps0"; echo 5 > /proc/$GATEWAY/clear_refs
if [ -n "${REQS:-}" ]; then AMOUNT="-a $REQS"; else AMOUNT="-d 10"; fi
# shellcheck disable=SC2086 # AMOUNT is two words
tooling/bench/node_modules/.bin/autocannon -c 16 $AMOUNT -m POST -H 'content-type: application/json' -H "authorization: Bearer $KEY" \
  -H 'x-intelligence-mode: proxy' -b '{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"Say hello"}]}' \
  http://127.0.0.1:$PORT/v1/chat/completions > "$OUT.ac" 2>&1
read -r TICKS1 FAULTS1 <<< "$(cpu_faults)"
cp /proc/$GATEWAY/smaps "$OUT.smaps1"; echo "load: $(status) cpu_ticks $((TICKS1 - TICKS0)) minflt $((FAULTS1 - FAULTS0))" >> "$OUT"
grep -E 'requests in' "$OUT.ac" >> "$OUT"
cat "$OUT"
kill $GATEWAY $MOCK; wait $GATEWAY 2> /dev/null; rm -rf "$DATA"
