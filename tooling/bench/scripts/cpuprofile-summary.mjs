#!/usr/bin/env node
// Summarise a `node --cpu-prof` profile: self time by what it is (Node core, PGlite, undici, each
// @svc package, ...), optionally only inside a time window and as µs per request.
//   node cpuprofile-summary.mjs <file.cpuprofile> ["<from> <to>" (seconds of CLOCK_MONOTONIC,
//   e.g. two reads of /proc/uptime)] [requests] [process CPU ms over the window]
import { readFileSync } from 'node:fs';

const [file, window = '0 1e12', requestsArg = '0', cpuMsArg = '0'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: cpuprofile-summary.mjs <file> ["<from s> <to s>"] [requests] [cpu ms]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const [from, to] = window.split(' ').map(Number);
const requests = Number(requestsArg);
const cpuMs = Number(cpuMsArg);
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));

function kind({ url, functionName: fn }) {
  if (fn === '(idle)') return 'idle';
  if (fn === '(garbage collector)') return 'GC';
  if (/pglite|drizzle|packages\/db\//.test(url) || (/^wasm:/.test(url) && !/00034eea/.test(url)) || fn === 'GenericJSToWasmWrapper') {
    return 'PGlite + drizzle (learn-stage writes)';
  }
  if (/deps.undici/.test(url)) return "Node's built-in undici (Headers/Request/Response, Hono side)";
  if (/undici|00034eea/.test(url)) return 'undici Pool (upstream client, llhttp)';
  if (/hono/.test(url)) return 'Hono + @hono/node-server';
  const lib = url.match(/valibot|ajv|pino|prom-client|opentelemetry/);
  if (lib) return `library: ${lib[0]}`;
  const pkg = url.match(/(packages|apps)\/([^/]+)/);
  if (pkg) return `@svc/${pkg[2]}`;
  if (/^node:/.test(url) || url === '') return 'Node.js core (http, streams, sockets, timers, microtasks)';
  return `other: ${url.slice(-40)}`;
}

const self = new Map();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i];
  if (at < from * 1e6 || at > to * 1e6) return;
  const k = kind(nodes.get(id).callFrame);
  self.set(k, (self.get(k) ?? 0) + profile.timeDeltas[i]);
});
const busy = [...self].reduce((sum, [k, t]) => (k === 'idle' ? sum : sum + t), 0);
const perRequest = requests > 0 && cpuMs > 0 ? (cpuMs * 1000) / requests : 0;
console.log(`busy ${(busy / 1e6).toFixed(1)} s${perRequest ? `, ${perRequest.toFixed(0)} µs CPU per request` : ''}`);
console.log(`| what | share of busy |${perRequest ? ' µs/req |' : ''}\n|---|---:|${perRequest ? '---:|' : ''}`);
for (const [k, t] of [...self].filter(([k]) => k !== 'idle').sort((a, b) => b[1] - a[1])) {
  if (t / busy < 0.005) continue;
  console.log(`| ${k} | ${((100 * t) / busy).toFixed(1)}% |${perRequest ? ` ${Math.round((perRequest * t) / busy)} |` : ''}`);
}
