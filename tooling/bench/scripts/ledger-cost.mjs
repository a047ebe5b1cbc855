#!/usr/bin/env node
// node tooling/bench/scripts/ledger-cost.mjs <repo root> (built): CPU per learn-stage row pair
// (usage + decision) on embedded PGlite; ONLY=usage or ONLY=decisions writes one table.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const { createDb } = await import(join(process.argv[2], 'packages/db/dist/index.js'));
const db = await createDb({ dataDir: mkdtempSync(join(tmpdir(), 'ledger-')) });
const org = await db.orgs.create({ name: `bench-${randomUUID()}` });
const attempts = [{ provider: 'openai', model: 'openai/gpt-4o-mini', status: 'success', latencyMs: 3 }];
const batch = () => {
  const usage = [], decisions = [];
  for (let i = 0; i < 500; i++) {
    const requestId = `req_${randomUUID()}`;
    usage.push({ requestId, orgId: org.id, model: 'openai/gpt-4o-mini', provider: 'openai', promptTokens: 9, completionTokens: 16, costUsd: 0.00001, baselineCostUsd: 0.00001, latencyMs: 3, status: 200, createdAt: new Date() });
    decisions.push({ requestId, orgId: org.id, requestedModel: 'openai/gpt-4o-mini', model: 'openai/gpt-4o-mini', provider: 'openai', source: 'pinned', intelligenceMode: 'proxy', attempts, candidates: [], outcome: 'success', details: {}, latencyMs: 3, createdAt: new Date() });
  }
  return { usage, decisions };
};
const only = process.env.ONLY; const run = async (n) => { for (let b = 0; b < n; b++) { const { usage, decisions } = batch(); if (only !== "decisions") await db.usage.insertMany(usage); if (only !== "usage") await db.decisions.insertMany(decisions); } };
await run(4);
const t = process.cpuUsage(); const w = performance.now();
await run(20);
const c = process.cpuUsage(t);
console.log(`${((c.user + c.system) / 10000).toFixed(1)} us CPU per row pair (20 x 500), wall ${((performance.now() - w) / 10).toFixed(1)} us, rss ${Math.round(process.memoryUsage().rss / 1048576)} MB`);
await db.close();
