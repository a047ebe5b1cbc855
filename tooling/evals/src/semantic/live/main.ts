/**
 * The semantic cache's acceptance protocols through a running gateway: a real gateway process on a
 * fresh data directory with the shipped defaults (mock provider, minilm, its pair model), asked
 * with the `openai` SDK (`a` first so the upstream's answer is stored, then `b`), each `b`'s hit
 * judged by the question that answered it. Two sets: PAWS (one pair per source sentence of
 * paws-dev's held-out half, or of the whole `--paws` file) and Quora (qqp-dev's held-out half,
 * first `--count` pairs). Beside each: the same pairs through the production lookup in process,
 * and a plain cosine cache (nearest at cosine >= t, no guard, margin or pair model) at the same
 * recall on the same pairs.
 *
 *   pnpm --filter @svc/evals semantic:live [--sets paws,qqp] [--count 1500] [--paws FILE] [--model svc/auto]
 *     [--modes cache,full] [--protocols a-then-b,interleaved] [--vectors FILE] [--skip-live]
 *     [--gateway-env NAME=VALUE ...] (a diagnosis: the figures set none)
 */
import { parseArgs } from 'node:util';
import { similarityCalibration } from '@svc/semantic';
import { findDataDir, loadQqp } from '../dataset.js';
import { loadPaws } from '../paws.js';
import { pawsHeader, pawsRow, scorePaws } from '../paws-protocol.js';
import { plainAtRecall } from '../paws-report.js';
import { tableEmbedder } from '../vectors.js';
import { type Protocol, liveClient, runProtocol } from './client.js';
import { breakdown, differences } from './diagnose.js';
import { startLiveGateway } from './gateway.js';
import { pairByPair, simulateProtocol } from './offline.js';
import { asked, type LiveSet, liveSet, pawsSet } from './pairs.js';
import { plainAtStrictRecall } from './plain.js';
import { liveHeader, liveRow, pairRow } from './report.js';
import { scoreRun } from './score.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    sets: { type: 'string', default: 'paws,qqp' },
    count: { type: 'string', default: '1500' },
    paws: { type: 'string' },
    model: { type: 'string', default: 'svc/auto' },
    modes: { type: 'string', default: 'cache,full' },
    protocols: { type: 'string', default: 'a-then-b,interleaved' },
    vectors: { type: 'string', default: '/tmp/svc-semantic-live-minilm.bin' },
    'skip-live': { type: 'boolean', default: false },
    'gateway-env': { type: 'string', multiple: true, default: [] },
  },
});
const dir = findDataDir(process.cwd(), values.data);
const gatewayEnv = Object.fromEntries(values['gateway-env'].map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const protocols = values.protocols.split(',') as Protocol[];
const sets = values.sets.split(',');
const paws = sets.includes('paws') ? pawsSet(loadPaws(dir, values.paws), values.paws !== undefined) : undefined;
const qqp = sets.includes('qqp') ? liveSet(loadQqp(dir), Number(values.count)) : undefined;
const embedder = await tableEmbedder('minilm', [...(paws?.pairs ?? []), ...(qqp?.pairs ?? [])].flatMap((p) => [asked(p.a), asked(p.b)]), values.vectors);
const calibration = similarityCalibration(embedder.id)!;

/** Every live run of a set: each mode and protocol on a fresh gateway. */
type Run = Awaited<ReturnType<typeof runProtocol>>;
/** Each set's in-process run of each protocol, to name the questions a live run answered otherwise. */
const inProcess = new Map<LiveSet, Map<string, Run>>();
const keep = (set: LiveSet, protocol: string, run: Run) => inProcess.set(set, (inProcess.get(set) ?? new Map<string, Run>()).set(protocol, run));
async function liveRuns(set: LiveSet, row: (label: string, run: Run) => string): Promise<void> {
  for (const mode of values.modes.split(',')) {
    for (const protocol of protocols) {
      const started = performance.now();
      const gateway = await startLiveGateway(gatewayEnv);
      try {
        const run = await runProtocol(liveClient(gateway.baseUrl, gateway.apiKey, values.model, mode === 'full' ? undefined : mode), set.pairs, protocol);
        const seconds = ((performance.now() - started) / 1000).toFixed(0);
        console.log(row(`**live, ${protocol}, mode ${mode}${mode === 'full' ? ' (default, no header)' : ''}** (${seconds} s)`, run));
        // The gateway's own cache counters (semantic lookups, hits, errors: a lookup over its 250 ms budget counts there), as text.
        const stats = await fetch(`${gateway.controlUrl}/v1/observability/cache/stats`, { headers: { authorization: `Bearer ${gateway.masterKey}` } });
        console.log(`\nThe gateway's cache counters (${stats.status}): ${await stats.text()}`);
        const offline = inProcess.get(set)?.get(protocol);
        if (offline) for (const line of ['', `Answered otherwise live (${protocol}, mode ${mode}) than in process:`, ...differences(offline, run), '']) console.log(line);
      } finally {
        await gateway.stop();
      }
    }
  }
}

if (paws) {
  const source = values.paws ? `all of ${values.paws}` : "paws-dev's held-out half";
  console.log(`PAWS: ${paws.pairs.length} pairs (${source}, one per source sentence), ${paws.pairs.filter((p) => p.duplicate).length} paraphrases; model ${values.model}.`, '\n');
  for (const line of pawsHeader) console.log(line);
  for (const protocol of protocols) {
    const offline = await simulateProtocol(embedder, paws.pairs, protocol, 1_000_000);
    keep(paws, protocol, offline);
    const shipped = scorePaws(paws.pairs, offline);
    console.log(pawsRow(`offline, ${protocol}, production lookup in process (shipped defaults)`, shipped));
    const plain = await plainAtRecall(embedder, paws.pairs, shipped.paraphrasesByOwnA, protocol);
    console.log(pawsRow(`offline, ${protocol}, plain cosine cache at the same paraphrase recall (cosine >= ${plain.threshold.toFixed(4)})`, plain.score));
  }
  if (!values['skip-live']) await liveRuns(paws, (label, run) => pawsRow(label, scorePaws(paws.pairs, run)));
  console.log();
}

if (qqp) {
  const { pairs } = qqp;
  const duplicates = pairs.filter((p) => p.duplicate).length;
  console.log(`Quora: ${pairs.length} pairs, the first of qqp-dev's held-out half (splitByQuestion), ${duplicates} labelled duplicates (a random decision's precision ${(duplicates / pairs.length).toFixed(3)}); model ${values.model}.`, '\n');
  for (const line of liveHeader) console.log(line);
  const offline = await pairByPair(embedder, pairs, calibration.threshold);
  console.log(pairRow(`offline, pair by pair (cosine >= ${calibration.threshold} and the guard; no margin, no pair model, nothing else stored)`, offline, pairs));
  const explained: string[] = [];
  for (const protocol of protocols) {
    const run = await simulateProtocol(embedder, pairs, protocol, 1_000_000);
    keep(qqp, protocol, run);
    const score = scoreRun(qqp, pairs, run);
    console.log(liveRow(`offline, ${protocol}, production lookup in process (shipped defaults)`, score));
    const plain = await plainAtStrictRecall(embedder, qqp, protocol, score.strictRight);
    console.log(liveRow(`offline, ${protocol}, plain cosine cache at the same strict recall (cosine >= ${plain.threshold.toFixed(4)})`, plain.score));
    explained.push('', `Where ${protocol} (in process) and pair by pair part:`, '', ...breakdown(qqp, pairs, offline, run));
  }
  if (!values['skip-live']) await liveRuns(qqp, (label, run) => liveRow(label, scoreRun(qqp, pairs, run)));
  for (const line of explained) console.log(line);
}
