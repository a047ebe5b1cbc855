// Medians of ttft-trace.cjs's records (ms): request start to the upstream request's write, the
// upstream's wait, its first bytes to our first write holding a token, the writes up to it, and
// in cache and full mode the encoder's round trip and what comes before and after it.
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
  return { upOut, upstream: upIn - upOut, firstBytesToToken: token - upIn, writes, withoutUpstream: token - (upIn - upOut), sent, encoder: back - sent, backToUpOut: upOut - back };
});
const out = { records: records.length };
for (const key of ['upOut', 'upstream', 'firstBytesToToken', 'writes', 'withoutUpstream', 'sent', 'encoder', 'backToUpOut']) out[key] = median(spans.map((s) => s[key]));
console.log(JSON.stringify(out));
