// What a miss's embedding costs beyond the forward pass: the encoder as the gateway uses it
// (`embed([text])` on the main thread, answered by the inference thread, no memo) against the same
// inference run directly on this thread (tokeniser + onnxruntime run, pair features fetched),
// alternated text by text:
//   node --import tsx bench/hop.ts [--texts 400] [--niceness 19]
// Prints the median and p90 wall time per text of each, and the CPU per text of the main thread, of
// the busiest other thread (the inference thread, on the thread side) and of the rest, over unique
// public sentences (the first lines of qqp-dev, as bench:fidelity reads). Linux only (schedstat).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '../src/index.js';
import { createInference } from '../src/worker/inference.js';

const { values } = parseArgs({ options: { texts: { type: 'string', default: '400' }, niceness: { type: 'string', default: '19' } } });
const lines = readFileSync(join(import.meta.dirname, '../../../../shared/data/semcache/qqp-dev.jsonl'), 'utf8').split('\n').slice(0, 4000).filter(Boolean);
const sentences = [...new Set(lines.flatMap((l) => Object.values(JSON.parse(l) as { a: string; b: string }).slice(0, 2)))];
const count = Number(values.texts);
const encoder = createSentenceEncoder({ cacheSize: 0, niceness: Number(values.niceness) });
await encoder.ready;
const direct = await createInference({ modelDir: undefined, maxTokens: 256, weights: 'int8', maxBatchTokens: 512, intraOpNumThreads: 1, selfCheck: false, pairModel: true, pairContext: true, niceness: 0 });
const sides = {
  thread: async (text: string) => {
    await encoder.embed([text]);
  },
  direct: async (text: string) => {
    await direct.runWithPairFeatures([text]);
  },
};
// Each thread's CPU from /proc/self/task/<tid>/schedstat (ns on the CPU), so the inference thread's and the
// main thread's shares of the thread path are apart; the other threads (V8's, libuv's) are summed as "other".
const mainTid = readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]!;
const threadTimes = () => new Map(readdirSync('/proc/self/task').map((tid) => [tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6]));
type Side = { wall: number[]; main: number; others: Map<string, number> };
const samples: Record<keyof typeof sides, Side> = { thread: { wall: [], main: 0, others: new Map() }, direct: { wall: [], main: 0, others: new Map() } };
for (let i = 0; i < 100; i++) for (const run of Object.values(sides)) await run(sentences[i]!);
const BLOCK = 20;
for (let i = 0; i < count; i += BLOCK) {
  // Alternated in blocks of 20 texts (the order flipped each block); each side gets its own texts (no memo).
  for (const name of (i / BLOCK) % 2 ? (['direct', 'thread'] as const) : (['thread', 'direct'] as const)) {
    const before = threadTimes();
    for (let k = i; k < i + BLOCK; k++) {
      const started = performance.now();
      await sides[name](sentences[200 + 2 * k + (name === 'thread' ? 0 : 1)]!);
      samples[name].wall.push(performance.now() - started);
    }
    for (const [tid, ms] of threadTimes()) {
      const used = ms - (before.get(tid) ?? 0);
      if (tid === mainTid) samples[name].main += used;
      else samples[name].others.set(tid, (samples[name].others.get(tid) ?? 0) + used);
    }
  }
}
for (const [name, s] of Object.entries(samples)) {
  const sorted = [...s.wall].sort((a, b) => a - b);
  const busiest = [...s.others.values()].sort((a, b) => b - a);
  const rest = busiest.slice(1).reduce((a, b) => a + b, 0);
  console.log(`${name.padEnd(6)}: wall median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)} ms, p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(3)}; CPU a text: main thread ${(s.main / count).toFixed(3)} ms, busiest other thread ${((busiest[0] ?? 0) / count).toFixed(3)}, the rest ${(rest / count).toFixed(3)}`);
}
await encoder.close();
