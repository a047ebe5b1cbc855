#!/usr/bin/env node
// node tooling/bench/scripts/intake-cost.mjs <dist dir of @svc/db> (built): CPU per ledger row pair
// (usage + decision, shaped like a pinned proxy-mode request's) handed through `db.intake` on the
// embedded store, 500 pairs a settle: the whole process, the main thread and the busiest other
// threads (the first is the store thread), from /proc/self/task. N=<batches> (default 40).
// The decision row is a real pinned proxy-mode row's (2026-12-05: its 34 scalar features, waterfall,
// metadata); FEATURES=object stores its features as the 34-key object the releases before
// `packFeatures` did, FEATURES=none without them, else packed as the gateway hands them now.
// LEAVE=<comma list> leaves parts out to price them (2026-12-06): `candidates` (stored as []),
// `metadata` (details without it), `usage` or `decision` (that row not handed at all). PAIRS=<n> settles
// every n pairs instead of 500: the CPU a pair when each COPY writes n rows (2026-12-07).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { createDb, encodeRow, packFeatures } = await import(join(process.argv[2], 'index.js'));
const dir = mkdtempSync(join(tmpdir(), 'intake-'));
const db = await createDb({ dataDir: dir });
const org = await db.orgs.create({ name: `bench-${randomUUID()}` });
const attempts = [{ model: 'openai/gpt-4o-mini', outcome: 'ok', provider: 'openai', latencyMs: 3 }];
const candidates = [{ id: 'openai/gpt-4o-mini', score: null }];
const zero = (names) => names.split(' ').map((name) => [name, 0]);
const no = (names) => names.split(' ').map((name) => [name, false]);
const features = Object.fromEntries([
  ...zero('code math markup non_ascii reasoning_words constraint_words numbers'), ...no('choices'), ...zero('long_words negations question_marks lines numeric_options math_symbols writing_hits writing_verbs'),
  ...no('question'), ...zero('extraction_hits translation_hits analysis_hits chat_hits code_hits math_hits words'), ['total_chars', 9], ['prompt_tokens', 7], ['last_user_chars', 9], ['turns', 1],
  ...no('has_system tools json vision audio'), ['reasoning_effort', 0],
]);
const stored = process.env.FEATURES === 'object' || !packFeatures ? features : packFeatures(features);
const details = { complexity: 'trivial', workflowType: 'single_turn', workflowStated: false, waterfall: ['openai/gpt-4o-mini'], promptTokensEstimate: 7, featureCount: 8, features: stored, metadata: { 'x-intelligence-mode': 'proxy' } };
if (process.env.FEATURES === 'none') delete details.features;
const leave = new Set((process.env.LEAVE ?? '').split(',').filter(Boolean));
if (leave.has('metadata')) delete details.metadata;
const handed = leave.has('candidates') ? [] : candidates;
// PAIRS=<n>: row pairs a settle (default 500, the intake's ROW_BATCH), so each statement writes n rows.
const PAIRS = Number(process.env.PAIRS ?? 500);

/** Each thread's CPU so far, in clock ticks (10 ms). */
const ticks = () =>
  Object.fromEntries(
    readdirSync('/proc/self/task').map((tid) => {
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      return [tid, Number(fields[11]) + Number(fields[12])];
    }),
  );
const hand = (pairs) => {
  for (let i = 0; i < pairs; i++) {
    const requestId = `req_${randomUUID()}`;
    const createdAt = new Date();
    if (!leave.has('usage')) db.intake.hand('usage', encodeRow({ requestId, orgId: org.id, keyId: 'key_abc', model: 'openai/gpt-4o-mini', provider: 'openai', promptTokens: 9, completionTokens: 16, costUsd: 0.00001, baselineCostUsd: 0.00001, latencyMs: 3, status: 200, createdAt }));
    if (!leave.has('decision')) db.intake.hand('decision', encodeRow({ requestId, orgId: org.id, requestedModel: 'openai/gpt-4o-mini', model: 'openai/gpt-4o-mini', provider: 'openai', tier: 'T3', lane: 'turbo', source: 'Pinned', taskFamily: 'chat', intelligenceMode: 'proxy', attempts, candidates: handed, outcome: 'ok', details, latencyMs: 3, createdAt }));
  }
};
const run = async (batches) => {
  for (let b = 0; b < batches; b++) {
    hand(PAIRS);
    await new Promise((resolve) => setImmediate(resolve));
    await db.intake.settle();
  }
};

await run(4);
const batches = Math.round((Number(process.env.N ?? 40) * 500) / PAIRS);
const before = ticks();
const cpu = process.cpuUsage();
await run(batches);
const used = process.cpuUsage(cpu);
const after = ticks();
const pairs = batches * PAIRS;
const perPair = (tid) => ((after[tid] - (before[tid] ?? 0)) * 10_000) / pairs;
const main = String(process.pid);
const others = Object.keys(after).filter((tid) => tid !== main).map(perPair).sort((a, b) => b - a);
console.log(`${process.argv[2]} (features ${typeof details.features === 'string' ? 'packed' : (process.env.FEATURES ?? 'object')}, left out: ${[...leave].join(' ') || 'none'}): µs CPU a row pair: process ${((used.user + used.system) / pairs).toFixed(1)}, main ${perPair(main).toFixed(1)}, other threads ${others.slice(0, 4).map((v) => v.toFixed(1)).join(' ')}`);
await db.close();
rmSync(dir, { recursive: true, force: true });
