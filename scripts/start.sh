#!/bin/sh
# The gateway as one process: what `pnpm start` runs (build first when the sources are newer than
# dist/), then this shell becomes the gateway (exec), so nothing stays resident beside it. Under
# `pnpm start` pnpm itself stays as the parent, ~90 MB (docs/operations.md "Memory budget");
# `sh scripts/start.sh` alone leaves one process. Arguments go to the gateway (a role: all,
# inference, control-plane). The malloc settings of scripts/malloc.env apply unless the
# environment sets them; node's GC flags for the CPUs it has come from scripts/gc-flags.sh.
set -e
cd "$(dirname "$0")/.."
. scripts/malloc-env.sh
node scripts/ensure-built.mjs @svc/server
# shellcheck disable=SC2046 # the flags are words, and there may be none
exec node $(sh scripts/gc-flags.sh) apps/server/dist/main.js "$@"
