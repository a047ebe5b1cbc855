import { randomUUID } from 'node:crypto';
import type { CachedAnswer } from '@svc/core';
import type { Embedder, VectorStore } from '@svc/semantic';
import { extractEntities, type MemoryEntity } from './entities.js';

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
  insert(
    orgId: string,
    memory: { id?: string; conversationId?: string | null; role: string; text: string; entities?: readonly MemoryEntity[] },
  ): Promise<StoredMemory>;
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

function placeholderAnswer(storedAt: number): CachedAnswer {
  return { result: { model: 'memory', choices: [] }, model: 'memory', provider: 'memory', tier: 'T3', storedAt };
}

/** Per-organisation memory over a relational record store and a vector store. */
export function createMemoryStore(settings: MemoryStoreSettings): MemoryStore {
  const now = settings.now ?? Date.now;
  const maxPending = settings.maxPending ?? 64;
  const maxTextLength = settings.maxTextLength ?? 4000;
  const halfLifeMs = (settings.halfLifeDays ?? 30) * 86_400_000;
  const recencyWeight = settings.recencyWeight ?? 0.2;
  const pending = new Set<Promise<void>>();
  let dropped = 0;
  let failed = 0;

  async function store(orgId: string, conversationId: string | undefined, text: string, role: string): Promise<void> {
    const id = randomUUID();
    const [vector] = await settings.embedder.embed([text]);
    const record = await settings.records.insert(orgId, { id, conversationId: conversationId ?? null, role, text, entities: extractEntities(text) });
    await settings.vectors.upsert([
      { id, vector: vector!, payload: { orgId, scope: MEMORY_SCOPE, expiresAt: NEVER, text, answer: placeholderAnswer(record.createdAt.getTime()) } },
    ]);
  }

  return {
    remember(orgId, conversationId, text, role) {
      const trimmed = text.trim().slice(0, maxTextLength);
      if (trimmed.length === 0) return false;
      if (pending.size >= maxPending) {
        dropped++;
        return false;
      }
      const task = store(orgId, conversationId, trimmed, role).catch((error: unknown) => {
        failed++;
        settings.onError?.(error);
      });
      const tracked = task.finally(() => pending.delete(tracked));
      pending.add(tracked);
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
      const records = (await settings.records.getMany(orgId, [...similarity.keys()])).filter(
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
      while (pending.size > 0) await Promise.all([...pending]);
    },

    stats: () => ({ pending: pending.size, dropped, failed }),
  };
}
