// Summary of a request-cost.sh run: prints one JSON line (per request: KB allocated and promoted by
// the main isolate, main-thread and whole-process CPU µs; the window's scavenges and mark-compacts;
// the loop's gaps over 10 ms, those in which the main thread itself ran >= 8 ms, and of those the
// ones no GC overlapped).
//   node request-cost-summary.mjs <out dir> <requests> [process CPU ticks over the window]
import { readFileSync, writeFileSync } from 'node:fs';

const [out, requestsArg, ticksArg = '0'] = process.argv.slice(2);
const requests = Number(requestsArg);
const lines = readFileSync(`${out}/svc.log`, 'utf8').split('\n');
const isolate = (line) => /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];

// The main isolate is the one with the most GCs in the window (the store and encoder threads have their own).
const windowed = [];
let inWindow = false;
for (const line of lines) {
  if (line.startsWith('PROBE start')) inWindow = true;
  else if (line.startsWith('PROBE stop')) inWindow = false;
  else if (inWindow && line.includes('allocated=')) windowed.push(line);
}
const counts = new Map();
for (const line of windowed) counts.set(isolate(line), (counts.get(isolate(line)) ?? 0) + 1);
const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
let allocated = 0;
let promoted = 0;
let scavenges = 0;
let markCompacts = 0;
for (const line of windowed.filter((l) => isolate(l) === main)) {
  allocated += Number(/allocated=(\d+)/.exec(line)?.[1] ?? 0);
  promoted += Number(/promoted=(\d+)/.exec(line)?.[1] ?? 0);
  if (/gc=s\b/.test(line)) scavenges++;
  else markCompacts++;
}
const probe = JSON.parse(readFileSync(`${out}/probe.json`, 'utf8'));
const load = JSON.parse(readFileSync(`${out}/ac.json`, 'utf8'));
const held = probe.stalls.filter((s) => s.run >= 8);
const overlapsGc = (s) => probe.gcs.some((g) => g.at <= s.at && g.at + g.ms >= s.at - s.gap);
const summary = {
  requests: load.requests.total,
  non2xx: load.non2xx,
  allocKBperReq: Math.round((allocated / requests / 1024) * 10) / 10,
  promotedKBperReq: Math.round((promoted / requests / 1024) * 100) / 100,
  scavenges,
  markCompacts,
  mainCpuUsPerReq: Math.round((probe.mainRunMs * 1000) / requests),
  processCpuUsPerReq: Math.round((Number(ticksArg) * 10_000) / requests),
  gapsOver10ms: probe.stalls.length,
  gapsMainRan8ms: held.length,
  gapsMainRan8msNoGc: held.filter((s) => !overlapsGc(s)).length,
  maxMainRunInGapMs: Math.max(0, ...probe.stalls.map((s) => s.run)),
  p99Ms: load.latency.p99,
};
console.log(JSON.stringify(summary));
writeFileSync(`${out}/summary.json`, JSON.stringify(summary));
