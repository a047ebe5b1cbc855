import type { Embedder, VectorStore } from '@svc/semantic';
import type { AttributeClassifier } from './attribute-classifier.js';
import type { StoredMemory } from './memory-points.js';
import type { ValueMatcher } from './kind-links.js';
import type { ValueKinds } from './value-kinds.js';

/** A stored fact with its vector, as written and as read back for rebuilding an index. */
export interface StoredMemoryRow extends StoredMemory {
  embedder: string | null;
  embedding: Float32Array | null;
  /** The newer fact that replaced this one (kept as history, never listed or recalled); null or absent while in force. */
  supersededBy?: string | null;
}

/** The relational half of the store (`@svc/db`'s `MemoryRepository` satisfies it). */
export interface MemoryRecordStore {
  /** Writes a batch (any organisations); a stored id is updated in place (a superseded one too: history). */
  saveMany(rows: readonly StoredMemoryRow[]): Promise<number>;
  /** Facts in force only (never superseded ones), here and in `list` and `listNewest`. */
  getMany(orgId: string, ids: readonly string[]): Promise<StoredMemory[]>;
  list(orgId: string, options?: { subject?: string; limit?: number; after?: { id: string; updatedAt: Date } }): Promise<StoredMemory[]>;
  /** With `history`, superseded rows that keep their vector count too (same order, same bound): recall through history after a restart. */
  listNewest(limit: number, options?: { history?: boolean }): Promise<StoredMemoryRow[]>;
  deleteMany(orgId: string, ids: readonly string[]): Promise<string[]>;
  deleteBySubject(orgId: string, subject: string): Promise<string[]>;
  deleteOlderThan(before: Date): Promise<{ id: string; orgId: string }[]>;
}

/**
 * The subjects that hold facts in this process's index, per organisation. A subject stays listed
 * after its facts were forgotten or expired (a recall then searches and finds nothing): the set
 * only saves work, it never decides what is recalled.
 */
export class SubjectIndex {
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

/** What the read side, the write side and the index maintenance of one memory store share. */
export interface MemoryParts {
  records: MemoryRecordStore;
  vectors: VectorStore;
  embedder: Embedder;
  /** Which attribute a statement gives or a question asks for, beyond the patterns' slots. */
  attributes: AttributeClassifier;
  /** The kind of a statement's value (a colour, a place, a person...), for corrections without a change word. */
  kinds: ValueKinds;
  /** Puts a change's value phrase with stored facts' where the gazetteer reads none, for rule 8 (`onlyOneOfItsTypedKind`); off when undefined (the shipped default). */
  changeValues?: ValueMatcher;
  /** Retention after a fact was last stated, in ms. */
  ttlMs: number;
  /** Clock in epoch ms. */
  now: () => number;
  /**
   * With the in-process index this process knows every subject that holds facts: a recall for
   * any other (most requests: end users who never stated anything) costs no embedding at all.
   * A shared store (Qdrant) may hold facts another instance wrote, so there it is undefined and
   * every recall searches.
   */
  holders: SubjectIndex | undefined;
}

/** Facts of one subject looked at when a new one may merge into or replace them. */
export const NEIGHBOURS = 50;
