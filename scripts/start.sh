#!/bin/sh
# The gateway as one process: what `pnpm start` does (build first when the sources are newer than
# dist/), then this shell becomes the gateway (exec), so nothing stays resident beside it. `pnpm
# start` cannot do that: pnpm runs a script as its child and waits for it, ~90 MB of Node that
# lives as long as the gateway (docs/operations.md "Memory budget"). Arguments go to the gateway
# (a role: all, inference, control-plane).
set -e
cd "$(dirname "$0")/.."
node scripts/ensure-built.mjs @svc/server
exec node apps/server/dist/main.js "$@"
