import { holderOf } from './corrections.js';
import { statementCore } from './fact-slots.js';
import type { MemoryParts, StoredMemoryRow } from './memory-parts.js';
import { historyPointOf, pointOf } from './memory-points.js';

/** Index maintenance of a memory store: what an instance's in-process index holds after a start. */

/** The attribute a statement of the user's own is near (kept beside its point for corrections), if any. */
export async function attributeNear(parts: Pick<MemoryParts, 'attributes'>, text: string, vector: Float32Array): Promise<string | undefined> {
  return holderOf(text) === 'i' ? parts.attributes.nearestTo(vector) : undefined;
}

/** A stored row's point: in force, or in the history partition naming its successor (recall through history). */
async function storedPointOf(parts: MemoryParts, row: StoredMemoryRow, vector: Float32Array) {
  const point = pointOf(row, vector, parts.ttlMs, await attributeNear(parts, row.text, vector));
  return row.supersededBy ? historyPointOf(point, row.supersededBy) : point;
}

/**
 * Loads the newest stored facts into the in-process index (re-embedding those of another
 * embedder); returns how many. Superseded facts that keep their vector come back as history, in
 * the same bound and order: a fact is stated before what replaced it, so a loaded one's successor
 * is loaded too.
 */
export async function hydrateIndex(parts: MemoryParts, limit: number): Promise<number> {
  const { records, vectors, embedder, ttlMs, now, holders } = parts;
  if (vectors.kind !== 'memory' || limit <= 0) return 0;
  const rows = (await records.listNewest(limit, { history: true })).filter((row) => now() - row.updatedAt.getTime() <= ttlMs);
  const stale = rows.filter((row) => row.embedder !== embedder.id || row.embedding?.length !== embedder.dimensions);
  const fresh = stale.length === 0 ? [] : await embedder.embed(stale.map((row) => statementCore(row.text)));
  const vectorOf = new Map(stale.map((row, i) => [row.id, fresh[i]!]));
  // Oldest first, so the index's recency order matches the table's.
  const points = [];
  for (const row of rows.reverse()) {
    const vector = vectorOf.get(row.id) ?? row.embedding!;
    points.push(await storedPointOf(parts, row, vector));
  }
  for (const row of rows) holders?.add(row.orgId, row.subject);
  await vectors.upsert(points);
  if (stale.length > 0) await records.saveMany(stale.map((row) => ({ ...row, embedder: embedder.id, embedding: vectorOf.get(row.id)! })));
  return points.length;
}
