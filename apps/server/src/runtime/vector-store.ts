import { type Embedder, type VectorStore, createMemoryVectorStore, createQdrantVectorStore } from '@svc/semantic';
import type { RuntimeBase } from './runtime-base.js';

/** What a store's index is: its bound in process, its own Qdrant collection (default: the embedder's), the word its sweep failures are logged with. */
export interface VectorStoreChoice {
  /** Most entries of the in-process index: brute-force search cost grows with them. */
  capacity: number;
  collection?: string;
  /** `vector store`, `memory vector store`. */
  what: string;
}

/** A Qdrant collection when `QDRANT_URL` is set, else an in-process index of at most `capacity` entries. */
export function vectorStoreFor({ env, logger }: Pick<RuntimeBase, 'env' | 'logger'>, embedder: Embedder, choice: VectorStoreChoice): VectorStore {
  return env.QDRANT_URL
    ? createQdrantVectorStore({
        url: env.QDRANT_URL,
        ...(env.QDRANT_API_KEY ? { apiKey: env.QDRANT_API_KEY } : {}),
        dimensions: embedder.dimensions,
        embedderId: embedder.id,
        ...(choice.collection === undefined ? {} : { collection: choice.collection }),
        onError: (error) => logger.warn({ err: error }, `${choice.what} sweep failed`),
      })
    : createMemoryVectorStore({ capacity: Math.max(1, choice.capacity) });
}
