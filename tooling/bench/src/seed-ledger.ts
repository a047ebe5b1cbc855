#!/usr/bin/env node
// node tooling/bench/dist/seed-ledger.js <data dir> <rows>: opens (creates) an embedded data
// directory the way the gateway does and appends <rows> usage rows to its ledger in batches, then
// closes it. The report-loop part runs it in a child process before starting svc on that directory,
// so the bench process itself never holds the embedded store.
import { randomUUID } from 'node:crypto';
import { openDatabase } from '@svc/server';
import { seedUsageRow } from './ledger-rows.js';

const BATCH = 5_000;

const [dataDir, rowsArg] = process.argv.slice(2);
const total = Number(rowsArg);
if (!dataDir || !Number.isInteger(total) || total <= 0) {
  console.error('usage: seed-ledger.js <data dir> <rows>');
  process.exit(2);
}

const db = await openDatabase({ DATABASE_URL: undefined, SVC_DATA_DIR: dataDir }, 'cli', () => {});
try {
  const orgId = randomUUID();
  const now = Date.now();
  let inserted = 0;
  for (let start = 0; start < total; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(total, start + BATCH); i++) rows.push(seedUsageRow(i, total, now, orgId));
    inserted += await db.usage.insertMany(rows);
    if ((start + BATCH) % 100_000 === 0) console.log(`seeded ${inserted} of ${total}`);
  }
  console.log(`seeded ${inserted} of ${total}: done`);
} finally {
  await db.close();
}
