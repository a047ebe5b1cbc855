// What each event-loop hold over 5 ms of one or more `PROBE=loop-holds request-cost.sh` runs was made
// of, as a table: every hold goes to the part that took most of it, and the last column counts the
// holds with at least 2 ms of that part. Parts: the main thread's own run less its GC (a turn of the
// loop serving the requests ready at once), scavenges and mark-compact pauses (the main isolate's `gc`
// entries inside the hold), the process's other threads, and the rest of the hold (other processes on
// the CPU). The other threads are told apart by their order of creation in Node 20, whose threads are
// all named `node`: the platform's delayed-task thread, V8's four platform workers (compile jobs; GC
// too without --single-threaded-gc), the inspector's thread, libuv's four pool threads (the access
// log's writes, koffi's async calls), then the workers, of which the busiest is the store thread.
//   node loop-holds-causes.mjs <out dir>...
import { readFileSync } from 'node:fs';

const MIN_HOLD_MS = 5;
const PART_MS = 2;
const dirs = process.argv.slice(2);

/** The parts of each hold over MIN_HOLD_MS of one run, ms. */
function partsOf(probe) {
  const tids = Object.keys(probe.threadsMs).sort((a, b) => Number(a) - Number(b));
  const v8 = new Set(tids.slice(1, 5));
  const pool = new Set(tids.slice(6, 10));
  const workers = tids.slice(10);
  const store = workers.reduce((a, b) => (probe.threadsMs[b] > probe.threadsMs[a] ? b : a), workers[0]);
  const sum = (threads, pick) => Object.entries(threads).reduce((n, [tid, ms]) => (pick(tid) ? n + ms : n), 0);
  return probe.holds
    .filter((h) => h.gap > MIN_HOLD_MS)
    .map((h) => {
      const gcs = probe.gcs.filter((g) => g.at + g.ms >= h.at && g.at <= h.at + h.gap);
      const gcMs = (kind) => gcs.filter((g) => g.kind === kind).reduce((n, g) => n + g.ms, 0);
      const scavenge = gcMs(1);
      const markCompact = gcMs(4);
      const parts = {
        'main thread turn (no GC)': Math.max(0, h.run - scavenge - markCompact),
        scavenge,
        'mark-compact pause': markCompact,
        'store thread': sum(h.threads, (tid) => tid === store),
        "V8's workers (compile jobs)": sum(h.threads, (tid) => v8.has(tid)),
        "libuv's pool": sum(h.threads, (tid) => pool.has(tid)),
        'other threads of the process': sum(h.threads, (tid) => tid !== store && !v8.has(tid) && !pool.has(tid)),
        'other processes': Math.max(0, h.gap - h.run - h.others),
      };
      return { gap: h.gap, parts };
    });
}

const holds = [];
let wallMs = 0;
let requests = 0;
for (const dir of dirs) {
  const probe = JSON.parse(readFileSync(`${dir}/probe.json`, 'utf8'));
  wallMs += probe.wallMs;
  requests += probe.requests;
  holds.push(...partsOf(probe));
}
const per10s = (n) => ((n * 10_000) / wallMs).toFixed(0);
const byLargest = new Map();
const withPart = new Map();
for (const { gap, parts } of holds) {
  const [largest] = Object.entries(parts).sort((a, b) => b[1] - a[1])[0];
  byLargest.set(largest, [...(byLargest.get(largest) ?? []), gap]);
  for (const [part, ms] of Object.entries(parts)) if (ms >= PART_MS) withPart.set(part, (withPart.get(part) ?? 0) + 1);
}
console.log(`${dirs.length} windows, ${(wallMs / 1000).toFixed(1)} s, ${requests} requests, ${holds.length} holds over ${MIN_HOLD_MS} ms (${per10s(holds.length)} per 10 s)`);
console.log(`| the part that took most of the hold | holds per 10 s | hold ms, range (median) | holds with >= ${PART_MS} ms of it, per 10 s |`);
console.log('|---|---|---|---|');
const parts = [...new Set([...byLargest.keys(), ...withPart.keys()])].sort((a, b) => (byLargest.get(b)?.length ?? 0) - (byLargest.get(a)?.length ?? 0));
for (const part of parts) {
  const gaps = [...(byLargest.get(part) ?? [])].sort((a, b) => a - b);
  const range = gaps.length ? `${gaps[0].toFixed(1)}-${gaps.at(-1).toFixed(1)} (${gaps[Math.floor(gaps.length / 2)].toFixed(1)})` : '-';
  console.log(`| ${part} | ${per10s(gaps.length)} | ${range} | ${per10s(withPart.get(part) ?? 0)} |`);
}
