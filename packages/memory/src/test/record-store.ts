import type { MemoryRecordStore, StoredMemoryRow } from '../memory-store.js';

/**
 * An in-process record store with the repository's contract (the db conformance suite covers the
 * real one): for tests and offline evaluations. `rows` exposes what it holds.
 */
export function createInProcessRecordStore(): MemoryRecordStore & { rows: Map<string, StoredMemoryRow> } {
  const rows = new Map<string, StoredMemoryRow>();
  const newestFirst = (list: StoredMemoryRow[]) => list.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  const inForce = () => [...rows.values()].filter((row) => !row.supersededBy);
  return {
    rows,
    async saveMany(batch) {
      for (const row of batch) {
        const stored = rows.get(row.id);
        if (!stored || (stored.orgId === row.orgId && stored.subject === row.subject)) rows.set(row.id, { ...row, createdAt: stored?.createdAt ?? row.createdAt });
      }
      return batch.length;
    },
    async getMany(orgId, ids) {
      return inForce().filter((row) => row.orgId === orgId && ids.includes(row.id));
    },
    async list(orgId, options = {}) {
      return newestFirst(inForce().filter((row) => row.orgId === orgId && (options.subject === undefined || row.subject === options.subject))).slice(0, options.limit ?? 50);
    },
    async listNewest(limit, options = {}) {
      const kept = options.history ? [...rows.values()].filter((row) => !row.supersededBy || row.embedding) : inForce();
      return newestFirst(kept).slice(0, limit);
    },
    async deleteMany(orgId, ids) {
      const gone = ids.filter((id) => rows.get(id)?.orgId === orgId);
      for (const id of gone) rows.delete(id);
      return gone;
    },
    async deleteBySubject(orgId, subject) {
      const gone = [...rows.values()].filter((row) => row.orgId === orgId && row.subject === subject).map((row) => row.id);
      for (const id of gone) rows.delete(id);
      return gone;
    },
    async deleteOlderThan(before) {
      const gone = [...rows.values()].filter((row) => row.updatedAt < before);
      for (const row of gone) rows.delete(row.id);
      return gone.map((row) => ({ id: row.id, orgId: row.orgId }));
    },
  };
}
