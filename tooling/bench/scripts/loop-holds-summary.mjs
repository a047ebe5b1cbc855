// Summary of a `PROBE=loop-holds request-cost.sh` run (with its --trace-gc-nvp): one JSON line (the 1 ms histogram's p50 / p99 / max; per request
// the main thread's and the process's CPU; the gaps over HOLD_MS, and how many of those over 5 ms
// had a GC inside them; the ten longest gaps with the main thread's CPU, their GCs and the requests
// served in them), and <out>/holds.txt with every gap over 5 ms.
//   node loop-holds-summary.mjs <out dir> [process CPU ticks over the window] [VmHWM kB]
import { readFileSync, writeFileSync } from 'node:fs';

const [out, ticksArg = '0', hwmArg = '0'] = process.argv.slice(2);
const probe = JSON.parse(readFileSync(`${out}/probe.json`, 'utf8'));
const load = JSON.parse(readFileSync(`${out}/ac.json`, 'utf8'));
// perf_hooks.constants: NODE_PERFORMANCE_GC_MINOR 1, MAJOR 4, INCREMENTAL 8, WEAKCB 16.
const kindName = { 1: 'scavenge', 4: 'mark-compact', 8: 'incremental', 16: 'weak-cb' };
const inside = (h) => probe.gcs.filter((g) => g.at + g.ms >= h.at && g.at <= h.at + h.gap);
const describe = (h) => {
  const gcs = inside(h);
  const gcMs = gcs.reduce((sum, g) => sum + g.ms, 0);
  const kinds = gcs.map((g) => `${kindName[g.kind] ?? g.kind} ${g.ms}`).join(', ');
  return { ...h, gcMs: Math.round(gcMs * 100) / 100, gcs: kinds };
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};
const over5 = probe.holds.filter((h) => h.gap > 5).map(describe);
const requests = load.requests.total;
const gcOf = (kind) => probe.gcs.filter((g) => g.kind === kind).map((g) => g.ms);
// With --trace-gc-nvp: the main isolate's (the one that allocated most in the window) bytes
// allocated and promoted a request, and what each scavenge copied (promoted + kept young), KB.
const nvp = new Map();
let inWindow = false;
for (const line of readFileSync(`${out}/svc.log`, 'utf8').split('\n')) {
  if (line.startsWith('PROBE start')) inWindow = true;
  else if (line.startsWith('PROBE stop')) inWindow = false;
  else if (inWindow && line.includes(' allocated=')) {
    const isolate = /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];
    const field = (key) => Number(new RegExp(` ${key}=([\\d.]+)`).exec(line)?.[1] ?? 0);
    const rows = nvp.get(isolate) ?? [];
    rows.push({
      scavenge: / gc=s /.test(line),
      pause: field('pause'),
      allocated: field('allocated'),
      promoted: field('promoted'),
      survived: field('new_space_survived'),
      marking: field('incremental'),
      sizeAfter: field('total_size_after'),
    });
    nvp.set(isolate, rows);
  }
}
const mainGcs = [...nvp.values()].sort((a, b) => b.reduce((n, r) => n + r.allocated, 0) - a.reduce((n, r) => n + r.allocated, 0))[0] ?? [];
const kbPerReq = (bytes) => Math.round((bytes / 1024 / load.requests.total) * 100) / 100;
const heap = mainGcs.length
  ? {
      allocKBperReq: kbPerReq(mainGcs.reduce((n, r) => n + r.allocated, 0)),
      promotedKBperReq: kbPerReq(mainGcs.reduce((n, r) => n + r.promoted, 0)),
      copiedKBperScavengeMedian: Math.round(median(mainGcs.filter((r) => r.scavenge).map((r) => r.promoted + r.survived)) / 1024),
      markCompactPausesMs: mainGcs.filter((r) => !r.scavenge).map((r) => r.pause),
      // Each old-generation cycle: its incremental marking steps + the mark-compact's pause, ms.
      markingMs: mainGcs.filter((r) => !r.scavenge).map((r) => Math.round(r.marking + r.pause)),
      // The old generation's growth between two scavenges, summed (promoted + allocated old: maps, large objects), KB a request.
      oldGrowthKBperReq: kbPerReq(mainGcs.reduce((n, r, i) => (i > 0 && r.scavenge && mainGcs[i - 1].scavenge ? n + r.sizeAfter - mainGcs[i - 1].sizeAfter : n), 0)),
    }
  : undefined;
// The gaps over 10 ms split by who had the CPU: the main thread itself, the process's other threads
// (the store and encoder threads, V8's and libuv's helpers) and the rest of the gap, which on a
// gateway pinned to one CPU (PIN=1) is other processes on that CPU (on several CPUs the other
// threads may have run beside the main thread, so there the split is an upper bound for them).
const over10 = probe.holds.filter((h) => h.gap > 10);
const sumOf = (key) => Math.round(over10.reduce((n, h) => n + h[key], 0));
const gapsOver10 = { count: over10.length, gapMs: sumOf('gap'), mainMs: sumOf('run'), otherThreadsMs: sumOf('others') };
gapsOver10.outsideMs = gapsOver10.gapMs - gapsOver10.mainMs - gapsOver10.otherThreadsMs;
const summary = {
  requests,
  gapsOver10,
  non2xx: load.non2xx,
  p99Ms: load.latency.p99,
  loopDelay: probe.loopDelay,
  mainCpuUsPerReq: Math.round((probe.mainRunMs * 1000) / requests),
  processCpuUsPerReq: Math.round((Number(ticksArg) * 10_000) / requests),
  peakRssMB: Math.round(Number(hwmArg) / 1024),
  scavenges: gcOf(1).length,
  scavengeMedianMs: median(gcOf(1)),
  scavengeMaxMs: Math.max(0, ...gcOf(1)),
  markCompacts: gcOf(4).map((ms) => ms),
  heap,
  holdsOver5: over5.length,
  holdsOver5WithGc: over5.filter((h) => h.gcMs > 0).length,
  holdsOver5MainRan5: over5.filter((h) => h.run >= 5).length,
  holdsOver5OthersRan3: over5.filter((h) => h.others >= 3).length,
  maxMainRunInHoldMs: Math.max(0, ...probe.holds.map((h) => h.run)),
  longest: [...over5].sort((a, b) => b.gap - a.gap).slice(0, 10),
};
console.log(JSON.stringify(summary));
writeFileSync(`${out}/summary.json`, JSON.stringify(summary, null, 1));
writeFileSync(`${out}/holds.txt`, over5.map((h) => JSON.stringify(h)).join('\n'));
