#!/bin/sh
# Prints the gateway's V8 garbage-collection flags for node's command line, for the CPUs this
# process may run on (`nproc` reads the affinity mask, so `taskset -c 1 sh scripts/gc-flags.sh`
# answers for a gateway pinned to one CPU). scripts/start.sh (and so `pnpm start`) and the bench's
# svc use it. On one CPU, V8's four helper threads can only take turns with the main thread: the
# old generation's concurrent marking (35-85 ms of their CPU a cycle under proxy load) then holds
# the event loop for 20-40 ms, so the gateway collects on its main thread (`--single-threaded-gc`:
# marking in increments between requests, the same CPU in all); with more CPUs, V8's defaults.
# docs/operations.md, "Memory budget"; docs/benchmarks.md, 2026-12-05.
[ "$(nproc 2> /dev/null || echo 2)" -gt 1 ] || echo --single-threaded-gc
