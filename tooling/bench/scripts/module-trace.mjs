// Preload for the gateway: records which of the packages below are loaded (ESM resolutions and
// CommonJS requires); at SIGUSR2 appends them and process.memoryUsage() to EL_MOD_LOG. With
// EL_STACK=1, the stack of each first load goes to /tmp/el-h/stacks.log. Used for docs/operations.md
// "Memory budget": node --import ./tooling/bench/scripts/module-trace.mjs apps/server/dist/main.js
import Module, { register } from 'node:module';
import { isMainThread, MessageChannel } from 'node:worker_threads';
import { appendFileSync } from 'node:fs';
const WATCH = ['@modelcontextprotocol', '/zod/', '/ioredis/', '/ajv/', '/ajv-formats/', '/yaml/', '/undici/'];
const seen = new Set();
const note = (u) => { for (const w of WATCH) if (u.includes("node_modules") && u.includes(w)) { if (!seen.has(w) && process.env.EL_STACK) appendFileSync(process.env.EL_STACK_LOG ?? '/tmp/module-trace-stacks.log', w + " " + u + "\n" + new Error().stack.split("\n").slice(2, 80).join("\n") + "\n"); seen.add(w); } };
if (isMainThread) {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (u) => note(u)); port1.unref();
  register('data:text/javascript,' + encodeURIComponent(`let port; export function initialize(d){port=d.port;} export async function resolve(s,c,n){const r=await n(s,c); port.postMessage(r.url + " <- " + c.parentURL); return r;}`), { data: { port: port2 }, transferList: [port2] });
  const load = Module._load;
  Module._load = function (request, parent, ...rest) { try { note(Module._resolveFilename(request, parent)); } catch {} return load.call(this, request, parent, ...rest); };
  process.on('SIGUSR2', () => {
    const m = process.memoryUsage();
    appendFileSync(process.env.EL_MOD_LOG ?? '/tmp/module-trace.log', `loaded ${[...seen].join(' ') || '(none)'} | heapUsed ${(m.heapUsed/1048576).toFixed(1)} MiB heapTotal ${(m.heapTotal/1048576).toFixed(1)} rss ${(m.rss/1048576).toFixed(1)} MiB\n`);
  });
}
