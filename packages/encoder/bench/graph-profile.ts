// Where one short text's forward pass goes, per operator type, in onnxruntime's own profile:
//   node --import tsx bench/graph-profile.ts [--runs 300] [--out /tmp/enc] [--base <dir>]
// Builds this checkout's int8 graph (with the shipped pair projection) in this process and runs one
// sentence of 15 word pieces `runs` times with enableProfiling; with --base, the graph of the
// checkout whose packages/encoder/src is under <dir> too, runs alternated, so both see the same
// load. Prints the profile's node events summed by op type (the kernels' own time; the rest of a
// run is onnxruntime's per-node and per-run overhead), skipping the first 50 runs, and saves each
// optimised model (`<out>/<name>-optimized.onnx`: what onnxruntime fused).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { loadModel } from '../src/model/load-model.js';
import { weightsPackageDir } from '../src/model/weights-package.js';
import { pairProjection } from '../src/pair/pair-projection.js';
import { createWordPiece } from '../src/tokenize/word-piece.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '300' }, out: { type: 'string', default: '/tmp/enc' }, base: { type: 'string' } } });
const projection = pairProjection(384, true);
const loaders: Record<string, typeof loadModel> = { new: loadModel };
if (values.base) loaders.base = (await import(resolve(values.base, 'packages/encoder/src/model/load-model.ts'))).loadModel as typeof loadModel;
const sessions: Record<string, ort.InferenceSession> = {};
for (const [name, load] of Object.entries(loaders)) {
  sessions[name] = await ort.InferenceSession.create((await load(weightsPackageDir(), 'int8', projection)).graph, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableProfiling: true,
    profileFilePrefix: join(values.out, `${name}-profile`),
    optimizedModelFilePath: join(values.out, `${name}-optimized.onnx`),
  });
}
const { tokenizerJson } = await loadModel(weightsPackageDir(), 'int8');
const ids = createWordPiece(tokenizerJson, 256).encode('How do I reset the password of my account on the website?');
const feeds = {
  input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
  attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
};
for (let i = 0; i < Number(values.runs); i++) for (const session of Object.values(sessions)) await session.run(feeds, ['embeddings', 'pair_features']);

interface Event {
  cat?: string;
  name: string;
  dur: number;
  ts: number;
  args: { op_name?: string };
}
for (const [name, session] of Object.entries(sessions)) {
  session.endProfiling();
  // onnxruntime-node's endProfiling returns nothing: the file is `<prefix>_<date>.json`.
  const file = readdirSync(values.out).find((f) => f.startsWith(`${name}-profile_`));
  const events = JSON.parse(readFileSync(join(values.out, file ?? '?'), 'utf8')) as Event[];
  const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').slice(50);
  const byOp = new Map<string, { us: number; nodes: number }>();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || e.ts < runs[0]!.ts) continue;
    const op = byOp.get(e.args.op_name ?? '?') ?? { us: 0, nodes: 0 };
    byOp.set(e.args.op_name ?? '?', { us: op.us + e.dur / runs.length, nodes: op.nodes + 1 / runs.length });
  }
  const kernels = [...byOp.values()].reduce((s, o) => s + o.us, 0);
  console.log(`${name}: ${ids.length} word pieces, model_run ${(runs.reduce((s, r) => s + r.dur, 0) / runs.length).toFixed(0)} µs, kernels ${kernels.toFixed(0)} µs, ${[...byOp.values()].reduce((s, o) => s + o.nodes, 0).toFixed(0)} nodes`);
  for (const [op, { us, nodes }] of [...byOp].sort((a, b) => b[1].us - a[1].us)) console.log(`  ${op.padEnd(24)} ${us.toFixed(1).padStart(7)} µs  x${nodes.toFixed(0)}`);
}
