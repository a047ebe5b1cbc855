#!/bin/sh
# Prints the gateway's V8 garbage-collection flags for node's command line, for the CPUs this
# process may run on (`nproc` reads the affinity mask, so `taskset -c 1 sh scripts/gc-flags.sh`
# answers for a gateway pinned to one CPU), capped by the cgroup's CPU quota where one is set (a
# container given `--cpus 1` or a Kubernetes CPU limit of 1 still sees every CPU of the host in
# its affinity mask; the quota is what it gets): cgroup v2's `cpu.max` ("max 100000" or "<quota>
# <period>" in µs), else cgroup v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us` (-1: no quota). An
# argument names a file of cgroup v2's form to read instead (tests; a missing file: no quota).
# scripts/start.sh (and so `pnpm start`), the Dockerfile's CMD and the bench's svc use it. On one
# CPU, V8's four helper threads can only take turns with the main thread: the old generation's
# concurrent marking (35-85 ms of their CPU a cycle under proxy load) then holds the event loop
# for 20-40 ms, so the gateway collects on its main thread (`--single-threaded-gc`: marking in
# increments between requests, the same CPU in all); with more CPUs, V8's concurrent collector.
# Always: 8 MiB semi-spaces (`--max-semi-space-size=8`, a 16 MiB young generation instead of
# Node 20's 32 MiB): the young generation fills and empties under load, and its pages count in
# the process's peak RSS; half of it lowers the bench's peak (~20-35 MB in three pairs) and the
# ceiling of the proxy load's, at the same CPU a request and p99 within the bench's spread
# (docs/benchmarks.md, "2026-12-06 afternoon: the start's peak and the load's").
# Always: WebAssembly compiled without loop unrolling and peeling (`--no-wasm-loop-unrolling
# --no-wasm-loop-peeling`). V8 compiles a hot Wasm function again with TurboFan on a helper thread,
# and the graph of a large one (undici's llhttp parser at the first proxied request, PGlite's
# largest functions under the ledger's writes) took a zone of up to 29 MB, freed at once but counted in the
# process's peak; without the two loop passes the largest is ~22 MB and the compiles take a third
# less CPU; the load's peak -6 to -10 MiB, CPU a request x1.03 at the median of eight pairs,
# inside the spread (docs/benchmarks.md, "2026-12-06 evening: where the bench's peak is set").
# Always: no allocation-site pretenuring (`--no-allocation-site-pretenuring`). Under proxy load V8
# came, in about six runs of ten, to allocate some request-lived objects straight in the old
# generation; dead there until the next mark-compact, they kept through the remembered set the
# young objects they point to, so every scavenge promoted whole requests: ~9 KB promoted a request
# instead of ~1, scavenges of 2.6-8.8 ms instead of ~1 (each run's median), mark-compacts of 5-37 ms
# and +59 to +63 MB of peak RSS in the alternated pairs.
# Without it, 0.4 KB a request in every run, and the process's CPU a request x0.83-1.06 in seven
# alternated pairs (no cost where the run without it was of the good kind)
# (docs/benchmarks.md, "2026-12-07: what holds the loop for more than 5 ms").
# docs/operations.md, "Memory budget"; docs/benchmarks.md, 2026-12-05 to 2026-12-07.
# Prints "<quota> <period>" of this process's cgroup, or nothing.
cpu_quota() {
  if [ $# -gt 0 ]; then cat "$1" 2> /dev/null; return 0; fi
  if [ -r /sys/fs/cgroup/cpu.max ]; then cat /sys/fs/cgroup/cpu.max; return 0; fi
  for dir in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
    if [ -r "$dir/cpu.cfs_quota_us" ]; then echo "$(cat "$dir/cpu.cfs_quota_us") $(cat "$dir/cpu.cfs_period_us")"; return 0; fi
  done
}
cpus=$(nproc 2> /dev/null || echo 2)
read -r quota period << EOF
$(cpu_quota "$@")
EOF
case "$quota$period" in
  *[!0-9]* | '') ;;
  *) [ "$period" -gt 0 ] && [ $(((quota + period - 1) / period)) -lt "$cpus" ] && cpus=$(((quota + period - 1) / period)) ;;
esac
flags="--max-semi-space-size=8 --no-wasm-loop-unrolling --no-wasm-loop-peeling --no-allocation-site-pretenuring"
[ "$cpus" -gt 1 ] || flags="$flags --single-threaded-gc"
echo "$flags"
