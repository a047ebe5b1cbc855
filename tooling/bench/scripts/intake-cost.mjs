#!/usr/bin/env node
// node tooling/bench/scripts/intake-cost.mjs <dist dir of @svc/db> (built): CPU per ledger row pair
// (usage + decision, shaped like a pinned proxy-mode request's) handed through `db.intake` on the
// embedded store, 500 pairs a settle: the whole process, the main thread and the busiest other
// threads (the first is the store thread), from /proc/self/task. N=<batches> (default 40).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { createDb, encodeRow } = await import(join(process.argv[2], 'index.js'));
const dir = mkdtempSync(join(tmpdir(), 'intake-'));
const db = await createDb({ dataDir: dir });
const org = await db.orgs.create({ name: `bench-${randomUUID()}` });
const attempts = [{ provider: 'openai', model: 'openai/gpt-4o-mini', status: 'success', latencyMs: 3, startedAt: 1, firstByteMs: 2 }];
const details = { features: { promptTokens: 9, messages: 1, tools: 0, images: 0, json: false, stream: false }, pinned: true, reason: 'the request named its model', lane: 'interactive', tierLadder: ['cheap', 'mid', 'frontier'], budget: { remainingUsd: 12.5 }, estimate: { promptTokens: 9, completionTokens: 16, costUsd: 0.00001 } };
const candidates = [{ model: 'openai/gpt-4o-mini', provider: 'openai', tier: 'cheap', score: 0.91, costUsd: 0.00001 }, { model: 'openai/gpt-4o', provider: 'openai', tier: 'frontier', score: 0.97, costUsd: 0.0002 }];

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
    db.intake.hand('usage', encodeRow({ requestId, orgId: org.id, keyId: 'key_abc', model: 'openai/gpt-4o-mini', provider: 'openai', promptTokens: 9, completionTokens: 16, costUsd: 0.00001, baselineCostUsd: 0.00001, latencyMs: 3, status: 200, createdAt }));
    db.intake.hand('decision', encodeRow({ requestId, orgId: org.id, requestedModel: 'openai/gpt-4o-mini', model: 'openai/gpt-4o-mini', provider: 'openai', tier: 'cheap', lane: 'interactive', source: 'pinned', intelligenceMode: 'proxy', attempts, candidates, outcome: 'success', details, latencyMs: 3, createdAt }));
  }
};
const run = async (batches) => {
  for (let b = 0; b < batches; b++) {
    hand(500);
    await new Promise((resolve) => setImmediate(resolve));
    await db.intake.settle();
  }
};

await run(4);
const batches = Number(process.env.N ?? 40);
const before = ticks();
const cpu = process.cpuUsage();
await run(batches);
const used = process.cpuUsage(cpu);
const after = ticks();
const pairs = batches * 500;
const perPair = (tid) => ((after[tid] - (before[tid] ?? 0)) * 10_000) / pairs;
const main = String(process.pid);
const others = Object.keys(after).filter((tid) => tid !== main).map(perPair).sort((a, b) => b - a);
console.log(`${process.argv[2]}: µs CPU a row pair: process ${((used.user + used.system) / pairs).toFixed(1)}, main ${perPair(main).toFixed(1)}, other threads ${others.slice(0, 4).map((v) => v.toFixed(1)).join(' ')}`);
await db.close();
rmSync(dir, { recursive: true, force: true });
