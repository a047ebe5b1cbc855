/**
 * Issue #17's acceptance protocol through a running gateway: a real gateway process on a fresh
 * data directory with the shipped defaults (mock provider, minilm), qqp-dev's held-out half asked
 * with the `openai` SDK (`a` first so the upstream's answer is stored, then `b`), each `b`'s hit
 * judged by the question that answered it; beside it the same pairs offline (pair by pair, and the
 * same protocols through the production lookup in process).
 *
 *   pnpm --filter @svc/evals semantic:live [--count 1500] [--model svc/auto] [--modes full,cache] [--vectors FILE]
 *     [--skip-live] [--gateway-env NAME=VALUE ...] (a diagnosis: the figures set none)
 */
import { parseArgs } from 'node:util';
import { similarityCalibration } from '@svc/semantic';
import { findDataDir, loadQqp } from '../dataset.js';
import { tableEmbedder } from '../vectors.js';
import { type Protocol, liveClient, runProtocol } from './client.js';
import { startLiveGateway } from './gateway.js';
import { breakdown } from './diagnose.js';
import { pairByPair, simulateProtocol } from './offline.js';
import { asked, liveSet } from './pairs.js';
import { liveHeader, liveRow, pairRow } from './report.js';
import { scoreRun } from './score.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    count: { type: 'string', default: '1500' },
    model: { type: 'string', default: 'svc/auto' },
    modes: { type: 'string', default: 'full,cache' },
    protocols: { type: 'string', default: 'a-then-b,interleaved' },
    vectors: { type: 'string', default: '/tmp/svc-semantic-live-minilm.bin' },
    'skip-live': { type: 'boolean', default: false },
    'gateway-env': { type: 'string', multiple: true, default: [] },
  },
});
const set = liveSet(loadQqp(findDataDir(process.cwd(), values.data)), Number(values.count));
const { pairs } = set;
const gatewayEnv = Object.fromEntries(values['gateway-env'].map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const protocols = values.protocols.split(',') as Protocol[];
const duplicates = pairs.filter((p) => p.duplicate).length;
console.log(`${pairs.length} pairs: the first of qqp-dev's held-out half (splitByQuestion), ${duplicates} labelled duplicates (a random decision's precision ${(duplicates / pairs.length).toFixed(3)}); model ${values.model}${values['gateway-env'].length > 0 ? `; gateway env ${values['gateway-env'].join(' ')}` : ''}.`);
console.log();
for (const line of liveHeader) console.log(line);

const embedder = await tableEmbedder('minilm', pairs.flatMap((p) => [asked(p.a), asked(p.b)]), values.vectors);
const calibration = similarityCalibration(embedder.id)!;
const offline = await pairByPair(embedder, pairs, calibration.threshold);
console.log(pairRow(`offline, pair by pair (cosine >= ${calibration.threshold} and the guard; no margin, nothing else stored)`, offline, pairs));
const explained: string[] = [];
for (const protocol of protocols) {
  for (const capacity of [1_000, 1_000_000]) {
    const run = await simulateProtocol(embedder, pairs, protocol, capacity);
    console.log(liveRow(`offline, ${protocol}, production lookup in process, ${capacity.toLocaleString('en')} entries`, scoreRun(set, pairs, run)));
    if (capacity > pairs.length * 2) explained.push('', `Where ${protocol} (in process, no eviction) and pair by pair part:`, '', ...breakdown(set, pairs, offline, run));
  }
}
for (const line of explained) console.log(line);
if (!values['skip-live']) {
  for (const line of ['', ...liveHeader]) console.log(line);
  for (const mode of values.modes.split(',')) {
    for (const protocol of protocols) {
      const started = performance.now();
      const gateway = await startLiveGateway(gatewayEnv);
      try {
        const run = await runProtocol(liveClient(gateway.baseUrl, gateway.apiKey, values.model, mode === 'full' ? undefined : mode), pairs, protocol);
        const seconds = ((performance.now() - started) / 1000).toFixed(0);
        console.log(liveRow(`live, ${protocol}, mode ${mode}${mode === 'full' ? ' (default, no header)' : ''} (${seconds} s)`, scoreRun(set, pairs, run)));
      } finally {
        await gateway.stop();
      }
    }
  }
}
