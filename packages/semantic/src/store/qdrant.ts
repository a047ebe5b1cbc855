import { createRequire } from 'node:module';
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { VectorMatch, VectorPoint, VectorSearch, VectorStore } from './interface.js';
import { isVectorPayload } from './payload-schema.js';

export interface QdrantVectorStoreSettings {
  /** `QDRANT_URL`, e.g. `http://127.0.0.1:6333`. Ignored when `client` is given. */
  url?: string;
  /** `QDRANT_API_KEY`. */
  apiKey?: string;
  /** A configured client (proxies, custom headers, tests). */
  client?: QdrantClient;
  /**
   * Collection name. Vectors of different embedders are not comparable, so name it after the
   * embedder (the default: `svc_semantic_<embedder id>`).
   */
  collection?: string;
  /** Embedder id used in the default collection name. */
  embedderId?: string;
  /** Vector length; the collection is created with it, and an existing one must match. */
  dimensions: number;
  /** Per-request timeout, ms (default 2000). Also bounds `ping()`. */
  timeoutMs?: number;
  /** How often expired points are deleted, ms (default 10 minutes); 0 disables the sweep. */
  cleanupIntervalMs?: number;
  /** Failures of the background sweep (requests report theirs by rejecting). */
  onError?: (error: unknown) => void;
  /** Clock in epoch ms (tests). */
  now?: () => number;
}

type Filter = { must: ({ key: string; match: { value: string } } | { key: string; range: { gt?: number; lt?: number } } | { has_id: string[] })[] };

const byOrg = (orgId: string) => ({ key: 'orgId', match: { value: orgId } });

/** Creates `collection` (cosine, `dimensions`) with its payload indexes, or checks an existing one's vector size. */
async function createCollection(qdrant: QdrantClient, collection: string, dimensions: number): Promise<void> {
  const { exists } = await qdrant.collectionExists(collection);
  if (!exists) {
    try {
      await qdrant.createCollection(collection, { vectors: { size: dimensions, distance: 'Cosine' } });
    } catch (error) {
      // Another instance may have created it first (409); anything else is a real failure.
      if (!(await qdrant.collectionExists(collection)).exists) throw error;
    }
  } else {
    const info = await qdrant.getCollection(collection);
    const vectors = info.config.params.vectors;
    const size = vectors && 'size' in vectors ? vectors.size : undefined;
    if (size !== dimensions) throw new Error(`Qdrant collection ${collection} holds vectors of size ${String(size)}, the embedder makes ${dimensions}; use another collection`);
  }
  // Idempotent: creating an index that exists is a no-op.
  await qdrant.createPayloadIndex(collection, { field_name: 'orgId', field_schema: { type: 'keyword', is_tenant: true }, wait: true });
  await qdrant.createPayloadIndex(collection, { field_name: 'scope', field_schema: 'keyword', wait: true });
  await qdrant.createPayloadIndex(collection, { field_name: 'subject', field_schema: 'keyword', wait: true });
  await qdrant.createPayloadIndex(collection, { field_name: 'expiresAt', field_schema: { type: 'integer', lookup: false, range: true }, wait: true });
}

/** The connection to one collection: the client made on first use, the collection made once, the expiry sweep. */
class QdrantCollection {
  readonly name: string;
  readonly now: () => number;
  private client: QdrantClient | undefined;
  private ready: Promise<void> | undefined;
  private sweep: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(private readonly settings: QdrantVectorStoreSettings) {
    this.client = settings.client;
    this.now = settings.now ?? Date.now;
    this.name = settings.collection ?? `svc_semantic_${(settings.embedderId ?? `d${settings.dimensions}`).replace(/[^A-Za-z0-9_-]/g, '_')}`;
  }

  connect(): QdrantClient {
    if (!this.client) {
      if (!this.settings.url) throw new Error('createQdrantVectorStore needs `url` (QDRANT_URL) or `client`');
      // Required here, not at import: a gateway without QDRANT_URL never loads the client (and the undici 6 it brings).
      const { QdrantClient: Client } = createRequire(import.meta.url)('@qdrant/js-client-rest') as typeof import('@qdrant/js-client-rest');
      // checkCompatibility would call the server from the constructor and log on failure.
      this.client = new Client({ url: this.settings.url, apiKey: this.settings.apiKey, timeout: this.settings.timeoutMs ?? 2000, checkCompatibility: false });
    }
    return this.client;
  }

  /** Resolves once the collection exists; a failure is forgotten so the next call retries. */
  ensureReady(): Promise<QdrantClient> {
    if (this.closed) return Promise.reject(new Error('the Qdrant vector store is closed'));
    const qdrant = this.connect();
    if (!this.ready) {
      this.ready = createCollection(qdrant, this.name, this.settings.dimensions).then(
        () => this.startSweep(),
        (error: unknown) => {
          this.ready = undefined;
          throw error;
        },
      );
    }
    return this.ready.then(() => qdrant);
  }

  /** The collection was dropped: the next call creates it again. */
  forget(): void {
    this.ready = undefined;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
  }

  /** Points of `orgId` (all when undefined), `scope` and `subject` that have not expired. */
  liveFilter(orgId?: string, scope?: string, subject?: string): Filter {
    const must: Filter['must'] = [];
    if (orgId !== undefined) must.push(byOrg(orgId));
    if (scope !== undefined) must.push({ key: 'scope', match: { value: scope } });
    if (subject !== undefined) must.push({ key: 'subject', match: { value: subject } });
    must.push({ key: 'expiresAt', range: { gt: this.now() } });
    return { must };
  }

  private startSweep(): void {
    const every = this.settings.cleanupIntervalMs ?? 600_000;
    if (this.sweep || every <= 0 || this.closed) return;
    this.sweep = setInterval(() => {
      this.removeExpired().catch((error: unknown) => this.settings.onError?.(error));
    }, every);
    this.sweep.unref();
  }

  private async removeExpired(): Promise<void> {
    const qdrant = await this.ensureReady();
    await qdrant.delete(this.name, { wait: false, filter: { must: [{ key: 'expiresAt', range: { lt: this.now() } }] } });
  }
}

async function searchCollection(collection: QdrantCollection, vector: Float32Array, query: VectorSearch): Promise<VectorMatch[]> {
  if (query.limit <= 0) return [];
  const qdrant = await collection.ensureReady();
  const { points } = await qdrant.query(collection.name, {
    query: Array.from(vector),
    filter: collection.liveFilter(query.orgId, query.scope, query.subject),
    limit: query.limit,
    score_threshold: query.minScore,
    with_payload: true,
  });
  const matches: VectorMatch[] = [];
  for (const p of points) {
    // A payload this package did not write (or an older shape) is skipped, never served.
    if (!isVectorPayload(p.payload) || p.payload.orgId !== query.orgId || p.payload.scope !== query.scope) continue;
    if (query.subject !== undefined && p.payload.subject !== query.subject) continue;
    matches.push({ id: String(p.id), score: p.score, payload: p.payload });
  }
  return matches;
}

async function deleteFromCollection(collection: QdrantCollection, orgId: string, target: { ids: readonly string[] } | { subject: string }): Promise<void> {
  const qdrant = await collection.ensureReady();
  if ('ids' in target) {
    if (target.ids.length === 0) return;
    // The organisation filter keeps an id of another organisation's point from deleting it.
    await qdrant.delete(collection.name, { wait: true, filter: { must: [byOrg(orgId), { has_id: [...target.ids] }] } });
    return;
  }
  await qdrant.delete(collection.name, { wait: true, filter: { must: [byOrg(orgId), { key: 'subject', match: { value: target.subject } }] } });
}

/**
 * The Qdrant vector store: one collection (created on first use with the embedder's
 * dimension and cosine distance, with payload indexes on `orgId` (tenant), `scope` and
 * `expiresAt`), organisations kept apart by a payload filter on every search, count and
 * delete; expired points are filtered out at once and deleted by a periodic sweep. Nothing
 * connects until the first call.
 */
export function createQdrantVectorStore(settings: QdrantVectorStoreSettings): VectorStore {
  const collection = new QdrantCollection(settings);
  return {
    kind: 'qdrant',
    async upsert(points: readonly VectorPoint[]): Promise<void> {
      if (points.length === 0) return;
      const qdrant = await collection.ensureReady();
      await qdrant.upsert(collection.name, { wait: true, points: points.map((p) => ({ id: p.id, vector: Array.from(p.vector), payload: { ...p.payload } })) });
    },
    search: (vector, query) => searchCollection(collection, vector, query),
    deletePoints: (orgId, target) => deleteFromCollection(collection, orgId, target),
    async deleteByOrg(orgId?: string): Promise<void> {
      const qdrant = await collection.ensureReady();
      if (orgId === undefined) {
        // Dropping the collection is the fast way to purge everything; the next call recreates it.
        await qdrant.deleteCollection(collection.name);
        collection.forget();
        return;
      }
      await qdrant.delete(collection.name, { wait: true, filter: { must: [byOrg(orgId)] } });
    },
    async count(orgId?: string): Promise<number> {
      const qdrant = await collection.ensureReady();
      const { count } = await qdrant.count(collection.name, { filter: collection.liveFilter(orgId), exact: true });
      return count;
    },
    async ping(): Promise<boolean> {
      if (collection.isClosed) return false;
      try {
        await collection.connect().versionInfo();
        return true;
      } catch {
        return false;
      }
    },
    close: async () => collection.close(),
  };
}
