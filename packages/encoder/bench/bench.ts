// Load time, memory and speed of the built encoder on this machine:
//   pnpm --filter @svc/encoder bench [--threads N] [--texts N] [--max-batch-tokens N]
// Imports the package by name, so it measures dist/ (the script builds it first).
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { benchSentences } from './sentences.js';

const { values } = parseArgs({ options: { threads: { type: 'string', default: '1' }, texts: { type: 'string', default: '2000' }, 'max-batch-tokens': { type: 'string', default: '1024' } } });
const threads = Number(values.threads);
const maxBatchTokens = Number(values['max-batch-tokens']);
const total = Number(values.texts);
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
const rss = () => process.memoryUsage().rss;

const baseline = rss();
const encoder = createSentenceEncoder({ intraOpNumThreads: threads, cacheSize: 0, maxBatchTokens });
await encoder.ready;
console.log(`load: ${encoder.status().loadMs} ms (weights, graph, session, self-check); RSS +${mb(rss() - baseline)} when ready; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`);

const texts = benchSentences(total + 400);
async function timed(label: string, count: number, work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await work();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  // CPU time is the steadier figure on a shared machine: wall time includes waiting for a core.
  console.log(`${label}: ${(ms / count).toFixed(2)} ms/text wall (${Math.round((count / ms) * 1000)} texts/s), ${(cpuMs / count).toFixed(2)} ms/text CPU; RSS +${mb(rss() - baseline)}`);
}

// Warm-up: onnxruntime allocates per shape on first use.
await encoder.embedMany(texts.slice(0, 64));
await timed('one at a time (sequential embed([text]))', 200, async () => {
  for (const text of texts.slice(200, 400)) await encoder.embed([text]);
});
await timed('concurrent single calls (64 at once, micro-batched)', 256, async () => {
  for (let i = 0; i < 4; i++) await Promise.all(texts.slice(400 + i * 64, 400 + (i + 1) * 64).map((t) => encoder.embed([t])));
});
for (const batchSize of [8, 32]) {
  const slice = texts.slice(400, 400 + Math.min(total, 1000));
  await timed(`embedMany, batches of ${batchSize}`, slice.length, () => encoder.embedMany(slice, { batchSize }));
}
await timed(`embedMany of ${total} texts, batches of 64`, total, () => encoder.embedMany(texts.slice(400, 400 + total)));
const long = Array.from({ length: 32 }, (_, i) => `${texts[i]} `.repeat(20));
await timed('256-token texts, batch of 32', long.length, () => encoder.embed(long));
console.log(`RSS +${mb(rss() - baseline)} after the runs (threads: ${threads})`);
await encoder.close();
