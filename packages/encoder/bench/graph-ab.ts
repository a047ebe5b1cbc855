// This checkout's graph against another checkout's, in one process, on the same weights:
//   node --import tsx bench/graph-ab.ts --base <dir holding that checkout's packages/encoder/src> [--pairs 3] [--runs 400] [--texts 3000]
// (e.g. `git archive main packages/encoder/src | tar -x -C /tmp/base`, with a node_modules link
// to this package's). Both in --weights (int8 by default; --base-weights for the base's) with the shipped pair projection, one onnxruntime session each,
// one intra-op thread, run directly (no worker thread, no tokenizer in the timed loop).
// 1. Outputs: over `texts` public sentences (bench:fidelity's), the cosine of each embedding to the
//    base graph's, and the largest absolute difference of token_states and pair_features.
// 2. Cost, alternated base/new `pairs` times: CPU (process.cpuUsage: onnxruntime computes on the
//    calling thread) and wall per run of one short text, then CPU per text of batches of 32.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import type { WeightFormat } from '../src/model/dense-weights.js';
import { loadModel } from '../src/model/load-model.js';
import { weightsPackageDir } from '../src/model/weights-package.js';
import { pairProjection } from '../src/pair/pair-projection.js';
import { padBatch } from '../src/tokenize/token-batches.js';
import { createWordPiece } from '../src/tokenize/word-piece.js';

const options = { base: { type: 'string' }, pairs: { type: 'string', default: '3' }, runs: { type: 'string', default: '400' }, texts: { type: 'string', default: '3000' }, 'skip-compare': { type: 'boolean', default: false }, weights: { type: 'string', default: 'int8' }, 'base-weights': { type: 'string' }, data: { type: 'string', default: join(import.meta.dirname, '../../../../shared/data/semcache') } } as const;
const { values } = parseArgs({ options });
if (!values.base) throw new Error('--base <dir> is required');
const baseLoad = (await import(resolve(values.base, 'packages/encoder/src/model/load-model.ts'))).loadModel as typeof loadModel;
const projection = pairProjection(384, true);
const sessionOf = async (graph: Uint8Array) =>
  ort.InferenceSession.create(graph, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
const format = values.weights as WeightFormat;
const newModel = await loadModel(weightsPackageDir(), format, projection);
const sessions = { base: await sessionOf((await baseLoad(weightsPackageDir(), (values['base-weights'] ?? format) as WeightFormat, projection)).graph), new: await sessionOf(newModel.graph) };
const tokenizer = createWordPiece(newModel.tokenizerJson, 256);

const lines = (file: string) => readFileSync(join(values.data, file), 'utf8').split('\n').slice(0, 4000).filter(Boolean);
const sentences = [...new Set([...lines('qqp-dev.jsonl'), ...lines('paws-dev.jsonl')].flatMap((l) => Object.values(JSON.parse(l) as { a: string; b: string }).slice(0, 2)))];
const texts = sentences.slice(0, Number(values.texts));
const feedsOf = (batch: readonly string[]) => {
  const padded = padBatch(batch.map((t) => tokenizer.encode(t)));
  const dims = [padded.count, padded.sequence];
  return { input_ids: new ort.Tensor('int64', padded.inputIds, dims), attention_mask: new ort.Tensor('int64', padded.attentionMask, dims) };
};
const outputs = ['embeddings', 'token_states', 'pair_features'];

async function compare(): Promise<void> {
  const cosines: number[] = [];
  const worst = { token_states: 0, pair_features: 0 };
  for (let i = 0; i < texts.length; i += 32) {
    const feeds = feedsOf(texts.slice(i, i + 32));
    const [a, b] = [await sessions.base.run(feeds, outputs), await sessions.new.run(feeds, outputs)];
    const [ea, eb] = [a.embeddings!.data as Float32Array, b.embeddings!.data as Float32Array];
    for (let r = 0; r < ea.length / 384; r++) cosines.push(ea.subarray(r * 384, (r + 1) * 384).reduce((s, x, k) => s + x * eb[r * 384 + k]!, 0));
    // Padded positions are compared too: both graphs compute them the same way.
    for (const name of ['token_states', 'pair_features'] as const) {
      const [x, y] = [a[name]!.data as Float32Array, b[name]!.data as Float32Array];
      for (let k = 0; k < x.length; k++) worst[name] = Math.max(worst[name], Math.abs(x[k]! - y[k]!));
    }
  }
  cosines.sort((p, q) => p - q);
  const mean = cosines.reduce((s, c) => s + c, 0) / cosines.length;
  console.log(`${cosines.length} texts: cosine new to base mean ${mean.toFixed(6)}, p1 ${cosines[Math.floor(cosines.length / 100)]!.toFixed(6)}, min ${cosines[0]!.toFixed(6)}; max |diff| token_states ${worst.token_states.toExponential(2)}, pair_features ${worst.pair_features.toExponential(2)}`);
}

async function cost(session: ort.InferenceSession, batches: ReturnType<typeof feedsOf>[], perRun: number): Promise<{ cpu: number; wall: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const feeds of batches) await session.run(feeds, ['embeddings', 'pair_features']);
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000 / (batches.length * perRun), wall: (performance.now() - started) / (batches.length * perRun) };
}

if (!values['skip-compare']) await compare();
const runs = Number(values.runs);
// Runs are sorted by length like the runner's (planRuns), so a batch of 32 is padded to near its own texts.
const short = sentences.slice(3000, 3000 + runs).map((t) => feedsOf([t]));
const sorted = sentences.slice(4000, 4640).sort((a, b) => tokenizer.encode(a).length - tokenizer.encode(b).length);
const batches = Array.from({ length: 20 }, (_, i) => feedsOf(sorted.slice(i * 32, (i + 1) * 32)));
const pieces = short.reduce((n, f) => n + f.input_ids.dims[1]!, 0) / short.length;
for (const s of Object.values(sessions)) await cost(s, short.slice(0, 100), 1);
console.log(`one short text a run (${pieces.toFixed(1)} word pieces on average, ${runs} runs a side a pair, in slices of 20 alternated), then 640 texts in batches of 32; ms per text`);
const ratios: number[] = [];
for (let pair = 1; pair <= Number(values.pairs); pair++) {
  const one = { base: { cpu: 0, wall: 0 }, new: { cpu: 0, wall: 0 } };
  // Alternated in slices (the order flipped each slice), so a load that comes and goes falls on both sides.
  for (let i = 0; i < short.length; i += 20) {
    for (const name of (i / 20) % 2 ? (['new', 'base'] as const) : (['base', 'new'] as const)) {
      const slice = short.slice(i, i + 20);
      const c = await cost(sessions[name], slice, 1);
      one[name].cpu += (c.cpu * slice.length) / short.length;
      one[name].wall += (c.wall * slice.length) / short.length;
    }
  }
  const many = { base: await cost(sessions.base, batches, 32), new: await cost(sessions.new, batches, 32) };
  ratios.push(one.new.cpu / one.base.cpu);
  for (const name of ['base', 'new'] as const) {
    console.log(`pair ${pair} ${name.padEnd(4)}: single CPU ${one[name].cpu.toFixed(3)} wall ${one[name].wall.toFixed(3)} | batch of 32 CPU ${many[name].cpu.toFixed(3)} wall ${many[name].wall.toFixed(3)}`);
  }
}
console.log(`single-text CPU new/base per pair: ${ratios.map((r) => r.toFixed(3)).join(', ')}`);
