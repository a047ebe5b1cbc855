import type { Database } from '@svc/db';
import { createMemoryStore, type MemoryStore } from '@svc/memory';
import { createHashedEmbedder, createMemoryVectorStore, createQdrantVectorStore, type VectorStore } from '@svc/semantic';
import type { Logger } from '@svc/telemetry';
import type { Env } from './env.js';

/** The memory of intelligence mode `full` and its vector store (closed with the runtime). */
export interface MemoryService {
  store: MemoryStore;
  close(): Promise<void>;
}

/**
 * Memory over the database's `memories` table and a vector store of its own: a Qdrant
 * collection `svc_memory_<embedder>` when `QDRANT_URL` is set (never the semantic cache's
 * collection), else an in-process store. The in-process store starts empty on each start: the
 * rows survive in the database, their vectors do not (documented in docs/operations.md).
 */
export function createMemoryService(env: Env, db: Database, logger: Logger): MemoryService {
  const embedder = createHashedEmbedder();
  const vectors: VectorStore = env.QDRANT_URL
    ? createQdrantVectorStore({
        url: env.QDRANT_URL,
        ...(env.QDRANT_API_KEY ? { apiKey: env.QDRANT_API_KEY } : {}),
        dimensions: embedder.dimensions,
        embedderId: embedder.id,
        collection: `svc_memory_${embedder.id.replace(/[^A-Za-z0-9_-]/g, '_')}`,
        onError: (error) => logger.warn({ err: error }, 'memory vector store sweep failed'),
      })
    : // Brute-force search cost grows with the entries: bounded like the semantic cache's index.
      createMemoryVectorStore({ capacity: Math.max(1, env.SVC_MEMORY_MAX_ENTRIES) });
  const store = createMemoryStore({
    records: db.memories,
    vectors,
    embedder,
    onError: (error) => logger.warn({ err: error }, 'memory store failed; the exchange is not remembered'),
  });
  return {
    store,
    async close() {
      await store.idle();
      await vectors.close();
    },
  };
}
