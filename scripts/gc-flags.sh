#!/bin/sh
# Prints the gateway's V8 garbage-collection flags for node's command line, for the CPUs this
# process may run on (`nproc` reads the affinity mask, so `taskset -c 1 sh scripts/gc-flags.sh`
# answers for a gateway pinned to one CPU), capped by the cgroup's CPU quota where one is set (a
# container given `--cpus 1` or a Kubernetes CPU limit of 1 still sees every CPU of the host in
# its affinity mask; the quota is what it gets). The argument names the cgroup v2 `cpu.max` file
# to read (default /sys/fs/cgroup/cpu.max: "max 100000" or "<quota> <period>" in µs).
# scripts/start.sh (and so `pnpm start`), the Dockerfile's CMD and the bench's svc use it. On one
# CPU, V8's four helper threads can only take turns with the main thread: the old generation's
# concurrent marking (35-85 ms of their CPU a cycle under proxy load) then holds the event loop
# for 20-40 ms, so the gateway collects on its main thread (`--single-threaded-gc`: marking in
# increments between requests, the same CPU in all); with more CPUs, V8's defaults.
# docs/operations.md, "Memory budget"; docs/benchmarks.md, 2026-12-05.
cpus=$(nproc 2> /dev/null || echo 2)
quota_file=${1:-/sys/fs/cgroup/cpu.max}
if [ -r "$quota_file" ]; then
  read -r quota period < "$quota_file" || true
  case "$quota$period" in
    *[!0-9]* | '') ;;
    *) [ "$period" -gt 0 ] && [ $(((quota + period - 1) / period)) -lt "$cpus" ] && cpus=$(((quota + period - 1) / period)) ;;
  esac
fi
[ "$cpus" -gt 1 ] || echo --single-threaded-gc
