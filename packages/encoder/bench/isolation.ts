// Does request handling wait behind embeddings when both share one core? Run it pinned:
//   taskset -c 1 pnpm --filter @svc/encoder bench:isolation [--seconds 6] [--rounds 2]
// A stand-in for the gateway's request path on the main thread: every 5 ms (200 per second) a
// 0.3 ms synchronous task, its latency measured from when it was due to when it finished. It runs
// alone, then beside an encoder embedding without pause at nice 0, then at nice 19 (the default),
// in alternating rounds so the machine's other load weighs on both alike. Reports p50/p99/max
// latency of the tasks and the encoder's texts/s in each phase.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createSentenceEncoder, type SentenceEncoder } from '@svc/encoder';
import { benchSentences } from './sentences.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '6' }, rounds: { type: 'string', default: '2' } } });
const seconds = Number(values.seconds);
const PERIOD_MS = 5;
const TASK_MS = 0.3;

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Runs the periodic task for `seconds`; latencies in ms. */
async function requestPath(): Promise<number[]> {
  const latencies: number[] = [];
  const start = performance.now();
  let due = start;
  while (due - start < seconds * 1000) {
    due += PERIOD_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    spin(TASK_MS);
    latencies.push(performance.now() - due);
  }
  return latencies;
}

/** Embeds batches of 8 until `stop` is set; returns how many texts it embedded. */
async function embedUntil(encoder: SentenceEncoder, texts: string[], stop: { done: boolean }): Promise<number> {
  let count = 0;
  while (!stop.done) {
    await encoder.embed(texts.slice(count % 1000, (count % 1000) + 8));
    count += 8;
  }
  return count;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const results = new Map<string, { latencies: number[]; texts: number }>();
function record(label: string, latencies: number[], texts: number): void {
  const entry = results.get(label) ?? { latencies: [], texts: 0 };
  entry.latencies.push(...latencies);
  entry.texts += texts;
  results.set(label, entry);
}

const texts = benchSentences(1100);
const encoders = { 0: createSentenceEncoder({ cacheSize: 0, niceness: 0 }), 19: createSentenceEncoder({ cacheSize: 0, niceness: 19 }) };
await Promise.all([encoders[0].ready, encoders[19].ready]);
for (const e of Object.values(encoders)) await e.embed(texts.slice(0, 8));
const nice = (e: SentenceEncoder) => e.status().niceness ?? 'unchanged (refused)';
console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')}; ${PERIOD_MS} ms period, ${TASK_MS} ms task, ${seconds} s per phase, ${values.rounds} rounds; inference threads at nice ${nice(encoders[0])} and ${nice(encoders[19])}`);
for (let round = 0; round < Number(values.rounds); round++) {
  record('alone', await requestPath(), 0);
  for (const nice of [0, 19] as const) {
    const stop = { done: false };
    const embedding = embedUntil(encoders[nice], texts, stop);
    const latencies = await requestPath();
    stop.done = true;
    record(`beside the encoder at nice ${nice}`, latencies, await embedding);
  }
}
console.log('| phase | tasks | p50 ms | p99 ms | max ms | encoder texts/s |\n|---|---:|---:|---:|---:|---:|');
for (const [label, { latencies, texts: count }] of results) {
  const sorted = latencies.sort((a, b) => a - b);
  const rate = count / (seconds * Number(values.rounds));
  console.log(`| ${label} | ${sorted.length} | ${quantile(sorted, 0.5).toFixed(2)} | ${quantile(sorted, 0.99).toFixed(2)} | ${sorted.at(-1)!.toFixed(2)} | ${count === 0 ? '–' : rate.toFixed(0)} |`);
}
await Promise.all(Object.values(encoders).map((e) => e.close()));
