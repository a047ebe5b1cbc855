/**
 * What one recall's vector search costs as an organisation grows: the in-process store holding
 * `users` end users of 45 facts each (random 384-dimension vectors), one user's facts searched
 * (limit 24, no floor, as recall's scored search). Prints wall and CPU time a search.
 *
 *   pnpm --filter @svc/evals memory:search-cost [--users 48,1000,5000]
 */
import { parseArgs } from 'node:util';
import { seededRandom } from '@svc/core';
import { createMemoryVectorStore, type VectorPoint } from '@svc/semantic';
import { cachedAnswer } from '@svc/semantic/test';

const { values } = parseArgs({ options: { users: { type: 'string', default: '48,1000,5000' } } });
const dimensions = 384;
const FACTS = 45;
const ROUNDS = 400;

async function costOf(users: number): Promise<{ wallUs: number; cpuUs: number }> {
  const next = seededRandom(users);
  const vector = () => Float32Array.from({ length: dimensions }, () => next() - 0.5);
  const store = createMemoryVectorStore({ capacity: users * FACTS });
  const points: VectorPoint[] = [];
  for (let u = 0; u < users; u++) {
    for (let f = 0; f < FACTS; f++) points.push({ id: `${u}-${f}`, vector: vector(), payload: { orgId: 'org', scope: 'memory', subject: `u${u}`, expiresAt: Date.now() + 1e9, text: '', answer: cachedAnswer('') } });
  }
  await store.upsert(points);
  const query = vector();
  const search = (i: number) => store.search(query, { orgId: 'org', scope: 'memory', subject: `u${i % users}`, limit: 24, minScore: -1 });
  for (let i = 0; i < 20; i++) await search(i);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) await search(i);
  const used = process.cpuUsage(cpu);
  return { wallUs: ((performance.now() - wall) * 1000) / ROUNDS, cpuUs: (used.user + used.system) / ROUNDS };
}

for (const users of values.users.split(',').map(Number)) {
  const { wallUs, cpuUs } = await costOf(users);
  console.log(`${users} users x ${FACTS} facts (${users * FACTS} points): ${wallUs.toFixed(0)} µs wall, ${cpuUs.toFixed(0)} µs CPU a search of one user's facts`);
}
