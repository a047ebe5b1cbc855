import { randomUUID } from 'node:crypto';
import type { Embedder, VectorMatch, VectorStore } from '@svc/semantic';
import { type ExtractedFact, extractFacts } from './extract-facts.js';
import { MEMORY_SCOPE, type StoredMemory, pointOf, recordOf } from './memory-points.js';
import type { MemoryScope, RecallScope } from './memory-scope.js';
import { cueBonus, maxCueBonus, recallCues } from './recall-cues.js';
import { RECALL_CUE_WEIGHTS, type RecallFloors, recallFloors, refersToUser } from './recall-threshold.js';
import { redactPii } from './redact-pii.js';

export type { StoredMemory } from './memory-points.js';

/** A stored fact with its vector, as written and as read back for rebuilding an index. */
export interface StoredMemoryRow extends StoredMemory {
  embedder: string | null;
  embedding: Float32Array | null;
}

/** The relational half of the store (`@svc/db`'s `MemoryRepository` satisfies it). */
export interface MemoryRecordStore {
  /** Writes a batch (any organisations); a stored id is updated in place. */
  saveMany(rows: readonly StoredMemoryRow[]): Promise<number>;
  getMany(orgId: string, ids: readonly string[]): Promise<StoredMemory[]>;
  list(orgId: string, options?: { subject?: string; limit?: number; after?: { id: string; updatedAt: Date } }): Promise<StoredMemory[]>;
  listNewest(limit: number): Promise<StoredMemoryRow[]>;
  deleteMany(orgId: string, ids: readonly string[]): Promise<string[]>;
  deleteBySubject(orgId: string, subject: string): Promise<string[]>;
  deleteOlderThan(before: Date): Promise<{ id: string; orgId: string }[]>;
}

export interface RecalledMemory extends StoredMemory {
  /**
   * Relevance to the request, at most 1: the cosine similarity plus the bonus for cues the fact
   * shares with it (`recall-cues.ts`). What the floor is compared with and what ranks.
   */
  score: number;
  /** The cosine similarity alone, -1..1. */
  similarity?: number;
}

export interface RecallOptions {
  /** Most memories returned (default 5). */
  limit?: number;
  /** Lowest similarity returned; default: the floor calibrated for the embedder (see {@link RecallFloors}). */
  minSimilarity?: number;
  /** The query's vector when the caller has it already (one embedding per request). */
  vector?: Float32Array;
  /** Add the cue bonus to the similarity (default true); false ranks by similarity alone (evaluations' baseline). */
  cues?: boolean;
}

export interface RememberOptions {
  /** Replace emails, phone numbers, cards, IBANs, keys and IPs with placeholders before storing. */
  redactPii?: boolean;
}

export interface MemoryStoreSettings {
  records: MemoryRecordStore;
  /** A vector store of its own, never the semantic cache's (a separate collection for Qdrant). */
  vectors: VectorStore;
  embedder: Embedder;
  /** Days a fact is kept after it was last stated (default 90). */
  ttlDays?: number;
  /** Lowest similarities recalled; default: calibrated for the embedder (`recallFloors`). A number sets both. */
  recallThreshold?: number | RecallFloors;
  /** Similarity at which a new fact merges into a stored one of the same subject (default 0.9). */
  mergeSimilarity?: number;
  /** Most `remember` calls in flight; further ones are dropped and counted (default 64). */
  maxPending?: number;
  /** Called when a background store fails (the request already answered). Never given the text. */
  onError?: (error: unknown) => void;
  /** Facts are written in batches, at most this long after the first one queued (default 500 ms). */
  flushMs?: number;
  /** A batch is written at once when it holds this many facts (default 100). */
  batchSize?: number;
  /** Clock in epoch ms (tests). */
  now?: () => number;
}

export interface MemoryStore {
  /** The similarity floors of recall (calibrated for the embedder unless set). */
  readonly floors: RecallFloors;
  /**
   * Extracts the facts the end user stated in `userText` and stores them in `scope`, in the
   * background: returns at once how many facts were queued (0 when none, or the store is
   * saturated). A fact close to a stored one of the same scope merges into it; a fact of the same
   * slot (their home, their name) replaces the older one. Never rejects.
   */
  remember(scope: MemoryScope, userText: string, options?: RememberOptions): number;
  /** Facts of the scope whose similarity to `query` passes the threshold, best first (own conversation first). */
  recall(scope: RecallScope, query: string, options?: RecallOptions): Promise<RecalledMemory[]>;
  /** The given facts of `orgId`; unknown ids are skipped. */
  get(orgId: string, ids: readonly string[]): Promise<StoredMemory[]>;
  /** Facts of the organisation (one subject when given), most recently stated first. */
  list(orgId: string, options?: { subject?: string; limit?: number; after?: { id: string; updatedAt: Date } }): Promise<StoredMemory[]>;
  /** Deletes facts of `orgId` by id; returns the ids deleted. */
  forget(orgId: string, ids: readonly string[]): Promise<string[]>;
  /** Deletes every fact of one subject (forget an end user); returns the ids deleted. */
  forgetSubject(orgId: string, subject: string): Promise<string[]>;
  /** Drops facts from this process's index and queue only (another instance deleted them). */
  evict(orgId: string, target: { ids: readonly string[] } | { subject: string }): Promise<void>;
  /** Loads the newest stored facts into an in-process index after a start; returns how many. */
  hydrate(limit: number): Promise<number>;
  /** Deletes facts older than the retention period; returns how many. */
  expire(): Promise<number>;
  /** Resolves when every queued write has settled (tests, shutdown). */
  idle(): Promise<void>;
  stats(): { pending: number; dropped: number; failed: number };
}

/** Facts of one subject looked at when a new one may merge into or replace them. */
const NEIGHBOURS = 50;

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The stored fact a new one replaces: a near-duplicate, else the holder of the same slot. */
function replaced(fact: ExtractedFact, neighbours: readonly VectorMatch[], mergeSimilarity: number): StoredMemory | undefined {
  const records = neighbours.map((match) => ({ match, record: recordOf(match.id, match.payload) }));
  const duplicate = records.find(({ match, record }) => record && match.score >= mergeSimilarity);
  if (duplicate) return duplicate.record;
  if (fact.slot === undefined) return undefined;
  return records.find(({ record }) => record?.slot === fact.slot)?.record;
}

/**
 * The subjects that hold facts in this process's index, per organisation. A subject stays listed
 * after its facts were forgotten or expired (a recall then searches and finds nothing): the set
 * only saves work, it never decides what is recalled.
 */
class SubjectIndex {
  private readonly byOrg = new Map<string, Set<string>>();

  add(orgId: string, subject: string): void {
    const subjects = this.byOrg.get(orgId) ?? new Set<string>();
    subjects.add(subject);
    this.byOrg.set(orgId, subjects);
  }

  /** Whether `subject` of `orgId` (any subject when absent) may hold facts. */
  holds(orgId: string, subject: string | undefined): boolean {
    const subjects = this.byOrg.get(orgId);
    return subjects !== undefined && (subject === undefined || subjects.has(subject));
  }
}

/** Per-organisation memory of end users' stated facts over a relational store and a vector store. */
export function createMemoryStore(settings: MemoryStoreSettings): MemoryStore {
  const now = settings.now ?? Date.now;
  const { embedder, vectors, records } = settings;
  const ttlMs = (settings.ttlDays ?? 90) * 86_400_000;
  const set = settings.recallThreshold;
  const floors: RecallFloors = set === undefined ? recallFloors(embedder.id) : typeof set === 'number' ? { self: set, other: set } : set;
  const mergeSimilarity = settings.mergeSimilarity ?? 0.9;
  const maxPending = settings.maxPending ?? 64;
  const flushMs = settings.flushMs ?? 500;
  const batchSize = settings.batchSize ?? 100;
  const pending = new Set<Promise<void>>();
  /** Facts indexed but not yet written, by id (recall reads them from their points). */
  const queued = new Map<string, StoredMemoryRow>();
  /** One write chain per subject: facts of one end user merge in the order they were said. */
  const chains = new Map<string, Promise<void>>();
  /**
   * With the in-process index this process knows every subject that holds facts: a recall for
   * any other (most requests: end users who never stated anything) costs no embedding at all.
   * A shared store (Qdrant) may hold facts another instance wrote, so there every recall searches.
   */
  const holders = vectors.kind === 'memory' ? new SubjectIndex() : undefined;
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

  /** Writes every queued fact in one statement; when that fails, each organisation's on its own. */
  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (queued.size === 0) return;
    const batch = [...queued.values()];
    const written = records.saveMany(batch).catch(async () => {
      const byOrg = new Map<string, StoredMemoryRow[]>();
      for (const row of batch) byOrg.set(row.orgId, [...(byOrg.get(row.orgId) ?? []), row]);
      const results = await Promise.allSettled([...byOrg.values()].map((rows) => records.saveMany(rows)));
      const failure = results.find((result) => result.status === 'rejected');
      if (failure) throw failure.reason;
      return 0;
    });
    track(
      written.then(() => undefined).finally(() => {
        for (const row of batch) if (queued.get(row.id) === row) queued.delete(row.id);
      }),
    );
  }

  function queue(row: StoredMemoryRow): void {
    queued.set(row.id, row);
    if (queued.size >= batchSize) flush();
    else if (!timer) {
      timer = setTimeout(flush, flushMs);
      timer.unref?.();
    }
  }

  async function storeFacts(scope: MemoryScope, facts: readonly ExtractedFact[]): Promise<void> {
    const vectorsOf = await embedder.embed(facts.map((fact) => fact.text));
    for (const [i, fact] of facts.entries()) {
      const vector = vectorsOf[i]!;
      const neighbours = await vectors.search(vector, { orgId: scope.orgId, scope: MEMORY_SCOPE, subject: scope.subject, limit: NEIGHBOURS, minScore: -1 });
      const previous = replaced(fact, neighbours, mergeSimilarity);
      const at = new Date(now());
      const row: StoredMemoryRow = {
        id: previous?.id ?? randomUUID(),
        orgId: scope.orgId,
        subject: scope.subject,
        conversationId: scope.conversationId ?? null,
        role: 'user',
        slot: fact.slot ?? null,
        text: fact.text,
        entities: fact.entities,
        createdAt: previous?.createdAt ?? at,
        updatedAt: at,
        embedder: embedder.id,
        embedding: vector,
      };
      await vectors.upsert([pointOf(row, vector, ttlMs)]);
      holders?.add(row.orgId, row.subject);
      queue(row);
    }
  }

  function dropQueued(orgId: string, target: { ids: readonly string[] } | { subject: string }): void {
    const ids = 'ids' in target ? new Set(target.ids) : undefined;
    for (const [id, row] of queued) {
      if (row.orgId === orgId && (ids ? ids.has(id) : row.subject === (target as { subject: string }).subject)) queued.delete(id);
    }
  }

  return {
    floors,

    remember(scope, userText, options = {}) {
      const text = options.redactPii ? redactPii(userText).text : userText;
      const facts = extractFacts(text);
      if (facts.length === 0) return 0;
      if (pending.size >= maxPending) {
        dropped++;
        return 0;
      }
      const key = `${scope.orgId}\u0000${scope.subject}`;
      const previous = chains.get(key) ?? Promise.resolve();
      const next = previous.then(() => storeFacts(scope, facts));
      const settled = next.catch(() => undefined);
      chains.set(key, settled);
      void settled.then(() => {
        if (chains.get(key) === settled) chains.delete(key);
      });
      track(next);
      return facts.length;
    },

    async recall(scope, query, options = {}) {
      const limit = options.limit ?? 5;
      if (query.trim().length === 0 || limit <= 0) return [];
      if (holders && !holders.holds(scope.orgId, scope.subject)) return [];
      const floor = options.minSimilarity ?? (refersToUser(query) ? floors.self : floors.other);
      const cues = options.cues === false ? undefined : recallCues(query);
      const vector = options.vector ?? (await embedder.embed([query]))[0]!;
      // A fact below the floor by less than the largest bonus may still clear it: search that far down.
      const reach = cues ? maxCueBonus(RECALL_CUE_WEIGHTS) : 0;
      const matches = await vectors.search(vector, { orgId: scope.orgId, scope: MEMORY_SCOPE, ...(scope.subject !== undefined ? { subject: scope.subject } : {}), limit: cues ? Math.max(limit * 3, NEIGHBOURS) : limit * 3, minScore: floor - reach });
      const at = now();
      const recalled: (RecalledMemory & { relevance: number })[] = [];
      for (const match of matches) {
        const record = recordOf(match.id, match.payload);
        // Never another scope's, never past retention (a remote store may lag its own expiry).
        if (!record || record.orgId !== scope.orgId || (scope.subject !== undefined && record.subject !== scope.subject)) continue;
        if (at - record.updatedAt.getTime() > ttlMs) continue;
        const relevance = match.score + (cues ? cueBonus(cues, record, RECALL_CUE_WEIGHTS) : 0);
        if (relevance < floor) continue;
        recalled.push({ ...record, score: round4(Math.min(1, relevance)), similarity: round4(match.score), relevance });
      }
      const own = (memory: RecalledMemory) => (scope.conversationId !== undefined && memory.conversationId === scope.conversationId ? 1 : 0);
      const best = recalled.sort((a, b) => own(b) - own(a) || b.relevance - a.relevance || b.updatedAt.getTime() - a.updatedAt.getTime()).slice(0, limit);
      return best.map(({ relevance: _, ...memory }) => memory);
    },

    get: (orgId, ids) => records.getMany(orgId, ids),
    list: (orgId, options) => records.list(orgId, options),

    async forget(orgId, ids) {
      dropQueued(orgId, { ids });
      const deleted = await records.deleteMany(orgId, ids);
      await vectors.deletePoints(orgId, { ids });
      return deleted;
    },

    async forgetSubject(orgId, subject) {
      // Facts still being embedded land after this: wait for the subject's chain first.
      await chains.get(`${orgId}\u0000${subject}`);
      dropQueued(orgId, { subject });
      const deleted = await records.deleteBySubject(orgId, subject);
      await vectors.deletePoints(orgId, { subject });
      return deleted;
    },

    async evict(orgId, target) {
      dropQueued(orgId, target);
      if (vectors.kind === 'memory') await vectors.deletePoints(orgId, target);
    },

    async hydrate(limit) {
      if (vectors.kind !== 'memory' || limit <= 0) return 0;
      const rows = (await records.listNewest(limit)).filter((row) => now() - row.updatedAt.getTime() <= ttlMs);
      const stale = rows.filter((row) => row.embedder !== embedder.id || row.embedding?.length !== embedder.dimensions);
      const fresh = stale.length === 0 ? [] : await embedder.embed(stale.map((row) => row.text));
      const vectorOf = new Map(stale.map((row, i) => [row.id, fresh[i]!]));
      // Oldest first, so the index's recency order matches the table's.
      const points = rows.reverse().map((row) => pointOf(row, vectorOf.get(row.id) ?? row.embedding!, ttlMs));
      for (const row of rows) holders?.add(row.orgId, row.subject);
      await vectors.upsert(points);
      if (stale.length > 0) await records.saveMany(stale.map((row) => ({ ...row, embedder: embedder.id, embedding: vectorOf.get(row.id)! })));
      return points.length;
    },

    async expire() {
      const removed = await records.deleteOlderThan(new Date(now() - ttlMs));
      return removed.length;
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
