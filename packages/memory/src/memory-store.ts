import { randomUUID } from 'node:crypto';
import type { CachedAnswer } from '@svc/core';
import type { Embedder, VectorPayload, VectorStore } from '@svc/semantic';
import { extractEntities, } from './entities.js';

/** A stored memory as the store's repository returns it. */
export interface StoredMemory {
  id: string;
  orgId: string;
  conversationId: string | null;
  role: string;
  text: string;
  entities: { type: string; value: string }[];
  createdAt: Date;
}

/** The relational half of the store (`@svc/db`'s `MemoryRepository` satisfies it). */
export interface MemoryRecordStore {
  /** Writes a batch (any organisations); an id already stored is skipped. */
  insertMany(rows: readonly StoredMemory[]): Promise<number>;
  getMany(orgId: string, ids: readonly string[]): Promise<StoredMemory[]>;
  listRecent(orgId: string, options?: { conversationId?: string; limit?: number }): Promise<StoredMemory[]>;
}

export interface RecalledMemory extends StoredMemory {
  /** Blend of cosine similarity and recency, 0..1, higher first. */
  score: number;
}

export interface RecallOptions {
  /** Only this conversation's memories when given. */
  conversationId?: string;
  /** Most memories returned (default 5). */
  limit?: number;
  /** Lowest cosine similarity considered (default 0.2). */
  minSimilarity?: number;
}

export interface MemoryStoreSettings {
  records: MemoryRecordStore;
  /** A vector store of its own, never the semantic cache's (a separate collection for Qdrant). */
  vectors: VectorStore;
  embedder: Embedder;
  /** Most `remember` calls in flight; further ones are dropped and counted (default 64). */
  maxPending?: number;
  /** Texts longer than this many characters are cut before storing (default 4000). */
  maxTextLength?: number;
  /** Days after which a memory's recency weight halves (default 30). */
  halfLifeDays?: number;
  /** Weight of recency against similarity in the score, 0..1 (default 0.2). */
  recencyWeight?: number;
  /** Called when a background store fails (the request already answered). */
  onError?: (error: unknown) => void;
  /**
   * Records are written in batches, at most this long after the first one queued (default 500):
   * one statement for many exchanges instead of one per message. Recall finds queued ones too.
   */
  flushMs?: number;
  /** A batch is written at once when it holds this many records (default 100). */
  batchSize?: number;
  /** Clock in epoch ms (tests). */
  now?: () => number;
}

export interface MemoryStore {
  /**
   * Stores `text` with its entities, in the background: resolves at once with false when the
   * store is saturated or the text is blank, otherwise true once queued. Never rejects.
   */
  remember(orgId: string, conversationId: string | undefined, text: string, role: string): boolean;
  /** Memories of `orgId` closest to `query`, ranked by similarity and recency. Never another org's. */
  recall(orgId: string, query: string, options?: RecallOptions): Promise<RecalledMemory[]>;
  /** Resolves when every queued `remember` has settled (tests, shutdown). */
  idle(): Promise<void>;
  /** Counts of dropped (saturated) and failed background stores. */
  stats(): { pending: number; dropped: number; failed: number };
}

/** Vector-store scope of memories; the cache's scopes are hashes, so the two never meet even in one store. */
const MEMORY_SCOPE = 'memory';
const NEVER = Number.MAX_SAFE_INTEGER;

/** The answer slot of a memory point: never served (the scope keeps caches away), but shaped like one so every store keeps it. */
function placeholderAnswer(storedAt: number): CachedAnswer {
  const choice = { index: 0, message: { role: 'assistant' as const, content: null }, finishReason: 'stop' as const };
  return { result: { model: 'memory', choices: [choice] }, model: 'memory', provider: 'memory', tier: 'T3', storedAt };
}

/** The record a memory point carries in `meta` (points stored before it carried one have none). */
function recordOf(id: string, payload: VectorPayload): StoredMemory | undefined {
  const meta = payload.meta;
  if (!meta) return undefined;
  const { role, conversationId, entities, createdAt } = meta;
  if (typeof role !== 'string' || !(conversationId === null || typeof conversationId === 'string') || typeof createdAt !== 'number' || !Array.isArray(entities)) return undefined;
  const kept = entities.filter((e): e is { type: string; value: string } => typeof e === 'object' && e !== null && typeof e.type === 'string' && typeof e.value === 'string');
  return { id, orgId: payload.orgId, conversationId, role, text: payload.text, entities: kept, createdAt: new Date(createdAt) };
}

/** Per-organisation memory over a relational record store and a vector store. */
export function createMemoryStore(settings: MemoryStoreSettings): MemoryStore {
  const now = settings.now ?? Date.now;
  const maxPending = settings.maxPending ?? 64;
  const maxTextLength = settings.maxTextLength ?? 4000;
  const halfLifeMs = (settings.halfLifeDays ?? 30) * 86_400_000;
  const recencyWeight = settings.recencyWeight ?? 0.2;
  const flushMs = settings.flushMs ?? 500;
  const batchSize = settings.batchSize ?? 100;
  const pending = new Set<Promise<void>>();
  /** Records embedded and indexed but not yet written, by id (recall reads them too). */
  const queued = new Map<string, StoredMemory>();
  let timer: NodeJS.Timeout | undefined;
  let dropped = 0;
  let failed = 0;

  function track(task: Promise<void>): void {
    const tracked = task
      .catch((error: unknown) => {
        failed++;
        settings.onError?.(error);
      })
      .finally(() => pending.delete(tracked));
    pending.add(tracked);
  }

  /**
   * Writes every queued record in one statement. When that fails (an organisation deleted
   * meanwhile, say) each organisation's records are written on their own, so one cannot cost
   * the others theirs; what still fails is counted and reported.
   */
  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (queued.size === 0) return;
    const batch = [...queued.values()];
    const written = settings.records.insertMany(batch).catch(async () => {
      const byOrg = new Map<string, StoredMemory[]>();
      for (const record of batch) byOrg.set(record.orgId, [...(byOrg.get(record.orgId) ?? []), record]);
      const results = await Promise.allSettled([...byOrg.values()].map((rows) => settings.records.insertMany(rows)));
      const failure = results.find((result) => result.status === 'rejected');
      if (failure) throw failure.reason;
      return 0;
    });
    track(written.then(() => undefined).finally(() => {
      for (const record of batch) queued.delete(record.id);
    }));
  }

  async function store(orgId: string, conversationId: string | undefined, text: string, role: string): Promise<void> {
    const id = randomUUID();
    const createdAt = new Date(now());
    const [vector] = await settings.embedder.embed([text]);
    const record: StoredMemory = { id, orgId, conversationId: conversationId ?? null, role, text, entities: extractEntities(text), createdAt };
    const meta = { role, conversationId: record.conversationId, entities: record.entities, createdAt: createdAt.getTime() };
    await settings.vectors.upsert([{ id, vector: vector!, payload: { orgId, scope: MEMORY_SCOPE, expiresAt: NEVER, text, answer: placeholderAnswer(createdAt.getTime()), meta } }]);
    queued.set(id, record);
    if (queued.size >= batchSize) flush();
    else if (!timer) {
      timer = setTimeout(flush, flushMs);
      timer.unref?.();
    }
  }

  return {
    remember(orgId, conversationId, text, role) {
      const trimmed = text.trim().slice(0, maxTextLength);
      if (trimmed.length === 0) return false;
      if (pending.size >= maxPending) {
        dropped++;
        return false;
      }
      track(store(orgId, conversationId, trimmed, role));
      return true;
    },

    async recall(orgId, query, options = {}) {
      const limit = options.limit ?? 5;
      if (query.trim().length === 0 || limit <= 0) return [];
      const [vector] = await settings.embedder.embed([query]);
      // A conversation-scoped recall looks wider and keeps that conversation's memories.
      const wide = options.conversationId ? limit * 10 : limit * 2;
      const matches = await settings.vectors.search(vector!, { orgId, scope: MEMORY_SCOPE, limit: wide, minScore: options.minSimilarity ?? 0.2 });
      const similarity = new Map(matches.map((match) => [match.id, match.score]));
      // The point carries its record: the database is read only for points stored without one.
      const carried: StoredMemory[] = [];
      const missing: string[] = [];
      for (const match of matches) {
        const record = recordOf(match.id, match.payload) ?? queued.get(match.id);
        if (record) carried.push(record);
        else missing.push(match.id);
      }
      const read = missing.length === 0 ? [] : await settings.records.getMany(orgId, missing);
      const records = [...carried, ...read].filter(
        (record) => options.conversationId === undefined || record.conversationId === options.conversationId,
      );
      const at = now();
      return records
        .filter((record) => record.orgId === orgId)
        .map((record) => {
          const age = Math.max(0, at - record.createdAt.getTime());
          const recency = 0.5 ** (age / halfLifeMs);
          const score = (1 - recencyWeight) * similarity.get(record.id)! + recencyWeight * recency;
          return { ...record, score: Math.round(score * 10_000) / 10_000 };
        })
        .sort((a, b) => b.score - a.score || b.createdAt.getTime() - a.createdAt.getTime())
        .slice(0, limit);
    },

    async idle() {
      do {
        while (pending.size > 0) await Promise.all([...pending]);
        flush();
      } while (pending.size > 0);
    },

    stats: () => ({ pending: pending.size + queued.size, dropped, failed }),
  };
}
