// How long a request waits in the first moments after the gateway starts answering: starts the
// built gateway of the checkout DIR on the shipped defaults (its GC flags, a fresh embedded data
// directory), polls /ready every 5 ms and keeps the slowest poll that got an answer (one arriving
// while the loop is held waits for it), then times 20 /health requests 10 ms apart.
//   node tooling/bench/scripts/first-requests.mjs [DIR] [PORT]   (PORT and PORT + 1 must be free)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const dir = process.argv[2] ?? '.';
const port = Number(process.argv[3] ?? 44901);
const flags = execFileSync('sh', [`${dir}/scripts/gc-flags.sh`]).toString().trim().split(' ');
const data = mkdtempSync(join(tmpdir(), 'svc-first-'));
const env = { ...process.env, PORT: String(port), CONTROL_PORT: String(port + 1), SVC_DATA_DIR: data, LOG_LEVEL: 'error' };
const child = spawn('node', [...flags, `${dir}/apps/server/dist/main.js`], { env, stdio: 'ignore' });
const url = `http://127.0.0.1:${port}`;

/** Milliseconds a request to `path` took, and its status (undefined while nothing listens). */
async function timed(path) {
  const start = performance.now();
  try {
    const response = await fetch(`${url}${path}`);
    await response.text();
    return { ms: performance.now() - start, status: response.status };
  } catch {
    return { ms: performance.now() - start, status: undefined };
  }
}

let slowestPoll = 0;
for (;;) {
  const poll = await timed('/ready');
  if (poll.status !== undefined) slowestPoll = Math.max(slowestPoll, poll.ms);
  if (poll.status === 200) break;
  await sleep(5);
}
const health = [];
for (let i = 0; i < 20; i++) {
  health.push((await timed('/health')).ms);
  await sleep(10);
}
const sorted = [...health].sort((a, b) => a - b);
console.log(`slowest /ready poll ${slowestPoll.toFixed(1)} ms; /health first ${health[0].toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms, median ${sorted[10].toFixed(1)} ms`);
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
rmSync(data, { recursive: true, force: true });
