import { statementCore } from './fact-slots.js';
import type { MemoryParts } from './memory-parts.js';
import { pointOf } from './memory-points.js';

/** Index maintenance of a memory store: what an instance's in-process index holds after a start. */

/** Loads the newest stored facts into the in-process index (re-embedding those of another embedder); returns how many. */
export async function hydrateIndex(parts: MemoryParts, limit: number): Promise<number> {
  const { records, vectors, embedder, ttlMs, now, holders } = parts;
  if (vectors.kind !== 'memory' || limit <= 0) return 0;
  const rows = (await records.listNewest(limit)).filter((row) => now() - row.updatedAt.getTime() <= ttlMs);
  const stale = rows.filter((row) => row.embedder !== embedder.id || row.embedding?.length !== embedder.dimensions);
  const fresh = stale.length === 0 ? [] : await embedder.embed(stale.map((row) => statementCore(row.text)));
  const vectorOf = new Map(stale.map((row, i) => [row.id, fresh[i]!]));
  // Oldest first, so the index's recency order matches the table's.
  const points = rows.reverse().map((row) => pointOf(row, vectorOf.get(row.id) ?? row.embedding!, ttlMs));
  for (const row of rows) holders?.add(row.orgId, row.subject);
  await vectors.upsert(points);
  if (stale.length > 0) await records.saveMany(stale.map((row) => ({ ...row, embedder: embedder.id, embedding: vectorOf.get(row.id)! })));
  return points.length;
}
