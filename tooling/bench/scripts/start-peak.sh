#!/bin/bash
# The gateway's start, as `pnpm start` runs it (scripts/malloc.env, scripts/gc-flags.sh), on a fresh
# embedded data directory: VmRSS sampled every 20 ms from exec until 5 s after /ready first answers.
#   tooling/bench/scripts/start-peak.sh ROOT OUT [NAME=VALUE...]   (e.g. SVC_SENTENCE_ENCODER=hashed)
# Writes OUT (the samples, "ms rss_kB") and prints one line: ready ms, VmHWM at ready + 5 s (the
# start's peak), VmRSS then, MB. ROOT is a built checkout (its apps/server/dist).
set -u
ROOT=$1; OUT=$2; shift 2; cd "$ROOT" || exit 1
DATA=$(mktemp -d); PORT=${PORT:-19280}; CONTROL=$((PORT + 1))
. scripts/malloc-env.sh
env -i PATH="$PATH" HOME="$HOME" MALLOC_ARENA_MAX="$MALLOC_ARENA_MAX" MALLOC_TRIM_THRESHOLD_="$MALLOC_TRIM_THRESHOLD_" \
  SVC_DATA_DIR="$DATA" PORT=$PORT CONTROL_PORT=$CONTROL HOST=127.0.0.1 SVC_MASTER_KEY=sk-master-peak-1234567890123456789012 "$@" \
  node $(sh scripts/gc-flags.sh) apps/server/dist/main.js > "$OUT.log" 2>&1 &
GATEWAY=$!
T0=$(date +%s%N); READY=0; : > "$OUT"
while kill -0 $GATEWAY 2> /dev/null; do
  t=$((($(date +%s%N) - T0) / 1000000))
  echo "$t $(awk '/VmRSS/{print $2}' /proc/$GATEWAY/status 2> /dev/null)" >> "$OUT"
  if [ $READY = 0 ] && curl -sf -m 0.2 http://127.0.0.1:$PORT/ready > /dev/null; then READY=$t; fi
  if [ $READY != 0 ] && [ $t -gt $((READY + 5000)) ]; then break; fi
  sleep 0.02
done
echo "ready_ms $READY hwm_MB $(awk '/VmHWM/{printf "%.0f", $2/1024}' /proc/$GATEWAY/status) rss_MB $(awk '/VmRSS/{printf "%.0f", $2/1024}' /proc/$GATEWAY/status)" | tee -a "$OUT"
kill $GATEWAY; wait $GATEWAY 2> /dev/null; rm -rf "$DATA"
