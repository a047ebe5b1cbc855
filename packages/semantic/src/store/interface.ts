import type { CachedAnswer } from '@svc/core';

/** What a stored point carries besides its vector. */
export interface VectorPayload {
  /** Owning organisation; a search never crosses organisations. */
  orgId: string;
  /** Hash of the model/alias and parameter class ({@link semanticScope}); a search never crosses scopes. */
  scope: string;
  /** Epoch ms after which the point is neither returned nor counted. */
  expiresAt: number;
  /**
   * Who inside the organisation the point belongs to (the memory store: an end user or key scope);
   * a search that names a subject sees only that subject's points.
   */
  subject?: string;
  /** The text that was embedded, for the key-term guard. */
  text: string;
  answer: CachedAnswer;
  /** What another user of the store keeps with a point (the memory store: its record); stores pass it through. */
  meta?: Readonly<Record<string, unknown>>;
}

export interface VectorPoint {
  /** A UUID (Qdrant accepts only UUIDs and unsigned integers); upserting an existing id replaces the point. */
  id: string;
  /** Any length-`dimensions` vector; stores compare by cosine, so its norm does not matter. */
  vector: Float32Array;
  payload: VectorPayload;
}

export interface VectorSearch {
  orgId: string;
  scope: string;
  /** Only points of this subject when given. */
  subject?: string;
  /** Most matches to return, best first. */
  limit: number;
  /** Lowest cosine similarity returned, in -1..1. */
  minScore: number;
}

export interface VectorMatch {
  id: string;
  /** Cosine similarity to the query. */
  score: number;
  payload: VectorPayload;
}

/**
 * A vector index partitioned by organisation and scope. Implementations: in-process
 * ({@link createMemoryVectorStore}) and Qdrant ({@link createQdrantVectorStore}); both pass
 * `runVectorStoreConformance` from `@svc/semantic/test`. Methods reject when the backend is
 * unreachable; {@link SemanticCache} turns that into a miss.
 */
export interface VectorStore {
  readonly kind: 'memory' | 'qdrant';
  upsert(points: readonly VectorPoint[]): Promise<void>;
  /** Live points of `orgId` and `scope` with score >= minScore, best first, at most `limit`. */
  search(vector: Float32Array, query: VectorSearch): Promise<VectorMatch[]>;
  /** Removes points of `orgId`: the given ids, or every point of one subject. Never another organisation's. */
  deletePoints(orgId: string, target: { ids: readonly string[] } | { subject: string }): Promise<void>;
  /** Removes every point of `orgId`, or every point of every organisation when absent. */
  deleteByOrg(orgId?: string): Promise<void>;
  /** Live (unexpired) points, of one organisation or of all. */
  count(orgId?: string): Promise<number>;
  /** True when the backend answers; never rejects. */
  ping(): Promise<boolean>;
  /** Stops timers and releases connections; the store is unusable afterwards. */
  close(): Promise<void>;
}
