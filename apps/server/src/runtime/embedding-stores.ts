import type { Catalog } from '@svc/catalog';
import type { ProviderRegistry } from '@svc/providers';
import { type CacheService, createCacheService } from './cache.js';
import { type MemoryService, createMemoryService } from './memory.js';
import type { RuntimeBase } from './runtime-base.js';
import { chooseSemanticEmbedder } from './semantic-embedder.js';
import { type SentenceEncoderService, startSentenceEncoder } from './sentence-encoder.js';

/** The stores that embed text: the answer caches and memory, over the one sentence encoder they share. */
export interface EmbeddingStores {
  encoder: SentenceEncoderService;
  cache: CacheService;
  memory: MemoryService;
}

/**
 * The sentence encoder first (the semantic cache embeds with it by default,
 * SVC_SEMANTIC_EMBEDDER=shared), then the caches and memory, started. A cache that cannot be
 * built closes the encoder before the error goes up.
 */
export async function startEmbeddingStores(base: RuntimeBase, models: { catalog: Catalog; providers: ProviderRegistry }): Promise<EmbeddingStores> {
  const { env, metrics } = base;
  const encoder = await startSentenceEncoder(env);
  let cache: CacheService;
  try {
    cache = createCacheService(base, () =>
      chooseSemanticEmbedder({ setting: env.SVC_SEMANTIC_EMBEDDER, threshold: env.SVC_SEMANTIC_THRESHOLD, shared: encoder.embedder, ...models, metrics }),
    );
  } catch (error) {
    await encoder.close();
    throw error;
  }
  await cache.start();
  const memory = createMemoryService(base, encoder.embedder);
  await memory.start();
  return { encoder, cache, memory };
}
