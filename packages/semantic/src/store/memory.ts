import { deepFreeze } from '@svc/core';
import { LRUCache } from 'lru-cache';
import type { VectorMatch, VectorPoint, VectorSearch, VectorStore } from './interface.js';
import { MemoryPartition, type PartitionEntry } from './memory-partition.js';

export interface MemoryVectorStoreSettings {
  /** Most points kept across all organisations; the least recently stored or hit go first (default 10,000). */
  capacity?: number;
  /** Clock in epoch ms (tests). */
  now?: () => number;
}

interface Entry extends PartitionEntry {
  partition: string;
}

const partitionKey = (orgId: string, scope: string): string => `${orgId}\u0000${scope}`;

function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  const out = new Float32Array(vector.length);
  if (norm === 0) return out;
  const inverse = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]! * inverse;
  return out;
}

/** The store's state: the points by id (LRU), and their vectors by organisation-and-scope partition. */
interface MemoryState {
  partitions: Map<string, MemoryPartition>;
  entries: LRUCache<string, Entry>;
  now: () => number;
}

function createState(settings: MemoryVectorStoreSettings): MemoryState {
  const partitions = new Map<string, MemoryPartition>();
  const entries = new LRUCache<string, Entry>({
    max: settings.capacity ?? 10_000,
    dispose: (entry, id) => {
      const partition = partitions.get(entry.partition);
      if (partition?.get(id) !== entry) return;
      partition.delete(id);
      if (partition.size === 0) partitions.delete(entry.partition);
    },
  });
  return { partitions, entries, now: settings.now ?? Date.now };
}

function upsertPoints({ partitions, entries }: MemoryState, points: readonly VectorPoint[]): void {
  for (const point of points) {
    const key = partitionKey(point.payload.orgId, point.payload.scope);
    const existing = partitions.get(key);
    if (existing && existing.dimensions !== point.vector.length) {
      throw new RangeError(`vector of ${point.vector.length} dimensions for a partition of ${existing.dimensions}`);
    }
    // The store's own copy, frozen: searches hand it out as it is (no copy a match), and a caller's change throws instead of reaching the store.
    const entry: Entry = { id: point.id, payload: deepFreeze(structuredClone(point.payload)), partition: key };
    entries.set(point.id, entry);
    let partition = partitions.get(key);
    if (!partition) {
      partition = new MemoryPartition(point.vector.length);
      partitions.set(key, partition);
    }
    partition.set(entry, unit(point.vector));
  }
}

function searchPoints({ partitions, entries, now }: MemoryState, vector: Float32Array, query: VectorSearch): VectorMatch[] {
  const partition = partitions.get(partitionKey(query.orgId, query.scope));
  if (!partition || query.limit <= 0 || partition.dimensions !== vector.length) return [];
  const at = now();
  const subject = query.subject;
  const live = (entry: PartitionEntry) => {
    if (entry.payload.expiresAt > at) return true;
    entries.delete(entry.id);
    return false;
  };
  // One subject's points (an end user's facts): only its rows are scored.
  const best = subject === undefined ? partition.search(unit(vector), query.limit, query.minScore, live) : partition.searchSubject(unit(vector), subject, query, live);
  return best.map(({ entry, score }) => {
    entries.get(entry.id); // a hit is a use: it moves to the back of the eviction queue
    return { id: entry.id, score, payload: entry.payload };
  });
}

function deleteByOrgId({ partitions, entries }: MemoryState, orgId: string | undefined): void {
  if (orgId === undefined) {
    entries.clear();
    return;
  }
  for (const [key, partition] of [...partitions]) {
    if (key.startsWith(`${orgId}\u0000`)) for (const id of partition.ids()) entries.delete(id);
  }
}

function countLive({ entries, now }: MemoryState, orgId: string | undefined): number {
  const at = now();
  let n = 0;
  for (const entry of [...entries.values()]) {
    if (entry.payload.expiresAt <= at) entries.delete(entry.id);
    else if (orgId === undefined || entry.payload.orgId === orgId) n++;
  }
  return n;
}

/**
 * The in-process vector store (the default): exact cosine search by brute force over the
 * points of one organisation and scope, which at cache sizes (thousands per partition) is
 * faster than maintaining a graph index. Bounded by `capacity` (least recently used first),
 * expired points are skipped and dropped as searches meet them. Not shared between processes.
 * It keeps a copy of each payload, frozen, and a search returns those (read-only: a semantic
 * lookup reads up to three before it decides, and a copy of each cost more than the search).
 */
export function createMemoryVectorStore(settings: MemoryVectorStoreSettings = {}): VectorStore {
  const state = createState(settings);
  const { entries } = state;
  let closed = false;
  return {
    kind: 'memory',
    upsert: async (points) => upsertPoints(state, points),
    search: async (vector, query) => searchPoints(state, vector, query),
    async deletePoints(orgId, target): Promise<void> {
      if ('ids' in target) {
        for (const id of target.ids) if (entries.peek(id)?.payload.orgId === orgId) entries.delete(id);
        return;
      }
      for (const [id, entry] of [...entries.entries()]) if (entry.payload.orgId === orgId && entry.payload.subject === target.subject) entries.delete(id);
    },
    deleteByOrg: async (orgId) => deleteByOrgId(state, orgId),
    count: async (orgId) => countLive(state, orgId),
    ping: async () => !closed,
    async close(): Promise<void> {
      closed = true;
      entries.clear();
    },
  };
}
