#!/bin/sh
# sh tooling/bench/scripts/upload-memory.sh [MiB] (from the repository's root, built): one upload
# of a MiB-sized JSONL file (default 90) to a fresh gateway on a new embedded data directory, then
# its download; prints the gateway's VmRSS and VmHWM (peak) before and after each, the upload's
# time, and whether the download is the same bytes. Ports 19281/19282; the directory is removed.
set -e
MIB=${1:-90}
WORK=$(mktemp -d)
KEY=sk-svc-UploadMemory-7f3a9c2e41b8d5Qx9w2
python3 -c "
import json, sys
line = json.dumps({'custom_id': 'x' * 8, 'method': 'POST', 'url': '/v1/chat/completions', 'body': {'model': 'openai/gpt-4o-mini', 'messages': [{'role': 'user', 'content': 'y' * 400}]}}) + '\n'
with open(sys.argv[1], 'w') as f:
    f.write(line * ($MIB * 1024 * 1024 // len(line)))
" "$WORK/upload.jsonl"
SVC_DATA_DIR="$WORK/data" PORT=19281 CONTROL_PORT=19282 SVC_MASTER_KEY=$KEY LOG_LEVEL=warn sh scripts/start.sh > "$WORK/gateway.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 120); do curl -sf http://127.0.0.1:19281/health > /dev/null 2>&1 && break; sleep 1; done
sleep 3
mib() { awk -v key="$1:" '$1 == key { print int($2 / 1024) }' "/proc/$PID/status"; }
echo "before: VmRSS $(mib VmRSS) MiB, VmHWM $(mib VmHWM) MiB"
START=$(date +%s.%N)
curl -sf -o "$WORK/file.json" -H "authorization: Bearer $KEY" -F purpose=batch -F "file=@$WORK/upload.jsonl" http://127.0.0.1:19281/v1/files
echo "upload of $(stat -c %s "$WORK/upload.jsonl") bytes: $(echo "$(date +%s.%N) - $START" | bc) s; VmRSS $(mib VmRSS) MiB, VmHWM $(mib VmHWM) MiB"
ID=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['id'])" "$WORK/file.json")
curl -sf -o "$WORK/download" -w "download: %{time_total} s; " -H "authorization: Bearer $KEY" "http://127.0.0.1:19281/v1/files/$ID/content"
echo "VmRSS $(mib VmRSS) MiB, VmHWM $(mib VmHWM) MiB"
cmp -s "$WORK/download" "$WORK/upload.jsonl" && echo "download: the same bytes" || echo "download: DIFFERENT bytes"
