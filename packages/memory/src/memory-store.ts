import type { Embedder, VectorStore } from '@svc/semantic';
import { type AttributeThresholds, createAttributeClassifier } from './attribute-classifier.js';
import { hydrateIndex } from './memory-index.js';
import { type MemoryParts, type MemoryRecordStore, SubjectIndex } from './memory-parts.js';
import type { StoredMemory } from './memory-points.js';
import { type RecallOptions, type RecalledMemory, recallMemories } from './memory-recall.js';
import type { MemoryScope, RecallScope } from './memory-scope.js';
import { type RecallFloors, recallFloors } from './recall-threshold.js';
import { MemoryWrites } from './memory-writes.js';
import type { ValueMatcher } from './kind-links.js';
import { createValueKinds, type ValueKinds } from './value-kinds.js';

/** Defaults of the correction similarities, calibrated on the dev attributes of `pnpm --filter @svc/evals memory:updates`. */
const UPDATE_SIMILARITY = 0.45;
const RETRACT_SIMILARITY = 0.6;

export type { StoredMemory } from './memory-points.js';
export type { MemoryRecordStore, StoredMemoryRow } from './memory-parts.js';
export type { RecallOptions, RecalledMemory } from './memory-recall.js';

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
  /** How close statements and questions must be to an attribute's examples (default: calibrated for the embedder; evaluations). */
  attributeThresholds?: AttributeThresholds;
  /** How values are typed for corrections without a change word (default: the embedder's, `createValueKinds`; evaluations try others). */
  valueKinds?: ValueKinds;
  /** Matches a change's value with stored facts' where the gazetteer reads none, for rule 8 (default: off; evaluations try word vectors). */
  changeValues?: ValueMatcher;
  /** Similarity at which a new fact merges into a stored one of the same subject (default 0.9). */
  mergeSimilarity?: number;
  /**
   * Whether a statement that changes an attribute supersedes the older fact and a retraction
   * removes it (default true). False keeps every statement (evaluations' baseline).
   */
  corrections?: boolean;
  /** A statement that announces a change supersedes the closest fact of the same holder at least this close (default calibrated). */
  updateSimilarity?: number;
  /** A retraction removes the closest fact of the same holder at least this close that shares a word with it (default calibrated). */
  retractSimilarity?: number;
  /** Most `remember` calls in flight; further ones are dropped and counted (default 64). */
  maxPending?: number;
  /**
   * Called when a statement superseded or removed stored facts (ids of `orgId`): they are out of
   * this store's index; other processes with an index of their own should drop them (`evict`).
   */
  onRetired?: (orgId: string, ids: string[]) => void;
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
  /** Loads the newest stored facts (in force, and history that keeps its vector) into an in-process index after a start; returns how many. */
  hydrate(limit: number): Promise<number>;
  /** Deletes facts older than the retention period; returns how many. */
  expire(): Promise<number>;
  /** Resolves when every queued write has settled (tests, shutdown). */
  idle(): Promise<void>;
  stats(): { pending: number; dropped: number; failed: number };
}

/** Per-organisation memory of end users' stated facts over a relational store and a vector store. */
export function createMemoryStore(settings: MemoryStoreSettings): MemoryStore {
  const { embedder, vectors, records } = settings;
  const set = settings.recallThreshold;
  const floors: RecallFloors = set === undefined ? recallFloors(embedder.id) : typeof set === 'number' ? { self: set, other: set } : set;
  const parts: MemoryParts = {
    records,
    vectors,
    embedder,
    attributes: createAttributeClassifier(embedder, settings.attributeThresholds ? { thresholds: settings.attributeThresholds } : {}),
    kinds: settings.valueKinds ?? createValueKinds(embedder),
    changeValues: settings.changeValues,
    ttlMs: (settings.ttlDays ?? 90) * 86_400_000,
    now: settings.now ?? Date.now,
    holders: vectors.kind === 'memory' ? new SubjectIndex() : undefined,
  };
  const writes = new MemoryWrites(parts, {
    mergeSimilarity: settings.mergeSimilarity ?? 0.9,
    corrections: settings.corrections ?? true,
    updateSimilarity: settings.updateSimilarity ?? UPDATE_SIMILARITY,
    retractSimilarity: settings.retractSimilarity ?? RETRACT_SIMILARITY,
    maxPending: settings.maxPending ?? 64,
    flushMs: settings.flushMs ?? 500,
    batchSize: settings.batchSize ?? 100,
    onError: settings.onError,
    onRetired: settings.onRetired,
  });
  return {
    floors,
    remember: (scope, userText, options = {}) => writes.remember(scope, userText, options),
    recall: (scope, query, options = {}) => recallMemories(parts, { floors, corrections: settings.corrections ?? true }, { scope, query, options }),
    get: (orgId, ids) => records.getMany(orgId, ids),
    list: (orgId, options) => records.list(orgId, options),
    async forget(orgId, ids) {
      writes.dropQueued(orgId, { ids });
      const deleted = await records.deleteMany(orgId, ids);
      await vectors.deletePoints(orgId, { ids });
      return deleted;
    },
    async forgetSubject(orgId, subject) {
      // Facts still being embedded land after this: wait for the subject's chain first.
      await writes.subjectSettled(orgId, subject);
      writes.dropQueued(orgId, { subject });
      const deleted = await records.deleteBySubject(orgId, subject);
      await vectors.deletePoints(orgId, { subject });
      return deleted;
    },
    async evict(orgId, target) {
      writes.dropQueued(orgId, target);
      if (vectors.kind === 'memory') await vectors.deletePoints(orgId, target);
    },
    hydrate: (limit) => hydrateIndex(parts, limit),
    async expire() {
      const removed = await records.deleteOlderThan(new Date(parts.now() - parts.ttlMs));
      return removed.length;
    },
    idle: () => writes.idle(),
    stats: () => writes.stats(),
  };
}
