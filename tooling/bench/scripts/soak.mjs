#!/usr/bin/env node
// node tooling/bench/scripts/soak.mjs <repo root> [seconds=600] [connections=8]: issue 16's soak.
// Starts the built gateway on a fresh embedded data directory (SVC_SENTENCE_ENCODER=hashed, the
// in-process mock provider), sends proxy-mode chat requests with autocannon for the whole time,
// and prints the gateway's RSS (VmRSS, /proc) every 30 s: whether memory settles or grows.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [root, seconds = '600', connections = '8'] = process.argv.slice(2);
const require = createRequire(join(root, 'tooling/bench/package.json'));
const autocannon = require('autocannon');
const port = 18_000 + Math.floor(Math.random() * 1000);
const key = 'sk-svc-soak-master-key-0123456789';
const gateway = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
  env: { ...process.env, PORT: String(port), CONTROL_PORT: String(port + 1), SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'soak-')), SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', SVC_MASTER_KEY: key, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${gateway.pid}/status`, 'utf8'))[1]) / 1024;
for (let i = 0; i < 120; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 500));
}
const samples = [];
const started = Date.now();
const timer = setInterval(() => {
  const sample = { s: Math.round((Date.now() - started) / 1000), rssMb: Math.round(rssMb()) };
  samples.push(sample);
  console.log(JSON.stringify(sample));
}, 30_000);
const result = await autocannon({
  url: `http://127.0.0.1:${port}/v1/chat/completions`,
  method: 'POST',
  connections: Number(connections),
  duration: Number(seconds),
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-intelligence-mode': 'proxy' },
  body: JSON.stringify({ model: 'mock/mock-speed', messages: [{ role: 'user', content: 'Say hello in one short sentence.' }] }),
});
clearInterval(timer);
gateway.kill('SIGTERM');
const after = samples.filter((s) => s.s >= 120).map((s) => s.rssMb);
console.log(JSON.stringify({ requests: result.requests.total, non2xx: result.non2xx, rps: Math.round(result.requests.average), firstAfterWarmup: after[0], last: after.at(-1), min: Math.min(...after), max: Math.max(...after) }));
