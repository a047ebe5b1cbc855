// Medians of ttft-trace.cjs's records (ms): request start to the upstream request's write, the
// upstream's wait, its first bytes to our first write holding a token, the writes up to it, and
// in cache and full mode the encoder's round trip and what comes before and after it. Records taken
// with TTFT_TRACE_CPU=1 add the gateway's CPU (every thread, ms) from the request's start to its
// first token (`cpuToToken`, to set beside `withoutUpstream`), to the upstream request's write, to
// the text's post and from the encoder's answer to the upstream write, and in the encoder's round trip the encoder thread's CPU (the busiest thread in it), the main
// thread's and the other threads'.
//   node ttft-trace-spans.mjs <records.json> [records to skip, default 20]
import { readFileSync } from 'node:fs';

const [file, skipArg] = process.argv.slice(2);
const records = JSON.parse(readFileSync(file, 'utf8')).slice(Number(skipArg ?? 20));
const at = (events, match) => events.find(([name]) => match(name))?.[1];
const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length === 0 ? null : Number(sorted[Math.floor(sorted.length / 2)].toFixed(3));
};
const spans = records.map((events) => {
  const upOut = at(events, (n) => n === 'up-out');
  const upIn = at(events, (n) => n.startsWith('up-in'));
  const token = at(events, (n) => n.startsWith('srv-out') && n.includes('CONTENT'));
  const sent = at(events, (n) => n.startsWith('enc-send'));
  const back = at(events, (n) => n === 'enc-recv');
  const writes = events.filter(([n]) => n.startsWith('srv-out')).length;
  return { upOut, upstream: upIn - upOut, firstBytesToToken: token - upIn, writes, withoutUpstream: token - (upIn - upOut), sent, encoder: back - sent, backToUpOut: upOut - back, ...cpuSpans(events) };
});

/** The CPU fields of a record taken with TTFT_TRACE_CPU=1 (none otherwise). */
function cpuSpans(events) {
  const find = (match) => events.find(([name]) => match(name));
  const firstToken = find((n) => n === 'first-token');
  if (!firstToken) return {};
  const upOut = find((n) => n === 'up-out')?.[2];
  const cpu = { cpuToToken: firstToken[2], cpuToUpOut: upOut };
  const sentAt = find((n) => n.startsWith('enc-send'));
  const backAt = find((n) => n === 'enc-recv');
  if (!sentAt || !backAt) return cpu;
  const [sent, back] = [sentAt[3], backAt[3]];
  cpu.cpuToSent = sentAt[2];
  cpu.cpuAfterEncoder = upOut - backAt[2];
  const used = Object.entries(back).map(([tid, ms]) => [tid, ms - (sent[tid] ?? ms)]);
  const threads = used.filter(([tid]) => tid !== 'main').sort((a, b) => b[1] - a[1]);
  const main = used.find(([tid]) => tid === 'main')?.[1];
  return { ...cpu, encThreadCpu: threads[0]?.[1], mainCpuInEncoder: main, otherCpuInEncoder: threads.slice(1).reduce((sum, [, ms]) => sum + ms, 0) };
}

const out = { records: records.length };
const keys = ['upOut', 'upstream', 'firstBytesToToken', 'writes', 'withoutUpstream', 'sent', 'encoder', 'backToUpOut', 'cpuToToken', 'cpuToUpOut', 'cpuToSent', 'cpuAfterEncoder', 'encThreadCpu', 'mainCpuInEncoder', 'otherCpuInEncoder'];
for (const key of keys) if (spans.some((s) => s[key] !== undefined)) out[key] = median(spans.map((s) => s[key]));
console.log(JSON.stringify(out));
