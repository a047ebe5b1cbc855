import { createCatalog } from '@svc/catalog';
import { createProviderRegistry } from '@svc/providers';
import { createHashedEmbedder, similarityThreshold, trainedVerifier } from '@svc/semantic';
import { cachedAnswer, chatRequest } from '@svc/semantic/test';
import { createMetrics } from '@svc/telemetry';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.js';
import { createRuntime } from './runtime.js';
import { chooseSemanticEmbedder } from './semantic-embedder.js';

const providers = createProviderRegistry({ mock: { enabled: true, latencyMs: 0 } });
const catalog = createCatalog().forProviders(providers.ids());
const metrics = createMetrics({ defaultMetrics: false });
const embeddingModel = catalog.list({ provider: 'mock', kind: 'embedding' })[0]!;
const shared = createHashedEmbedder({ dimensions: 64 });

describe('chooseSemanticEmbedder (SVC_SEMANTIC_EMBEDDER)', () => {
  it('defaults to the local hashed embedder at its verifier’s candidate floor', () => {
    const choice = chooseSemanticEmbedder({ setting: 'hashed', threshold: undefined, shared, catalog, providers, metrics });
    expect(choice.embedder.id).toBe('hashed-ngram-v1-512');
    expect(choice.threshold).toBe(trainedVerifier('hashed-ngram-v1-512')!.candidateFloor);
  });

  it('by default uses the runtime’s shared sentence encoder at its calibrated threshold', () => {
    const encoder = { id: 'all-MiniLM-L6-v2', dimensions: 384, embed: async () => [] };
    const choice = chooseSemanticEmbedder({ setting: parseEnv({}).SVC_SEMANTIC_EMBEDDER, threshold: undefined, shared: encoder, catalog, providers, metrics });
    expect(choice.embedder).toBe(encoder);
    expect(choice.threshold).toBe(similarityThreshold('all-MiniLM-L6-v2'));
    // An encoder nobody calibrated needs SVC_SEMANTIC_THRESHOLD.
    expect(() => chooseSemanticEmbedder({ setting: 'shared', threshold: undefined, shared, catalog, providers, metrics })).toThrow(/^SVC_SEMANTIC_THRESHOLD/);
  });

  it('uses a configured embeddings model with the threshold it is given, counting its spend', async () => {
    const choice = chooseSemanticEmbedder({ setting: embeddingModel.id, threshold: 0.93, shared, catalog, providers, metrics });
    expect(choice).toMatchObject({ threshold: 0.93, embedder: { id: `${embeddingModel.id}@${embeddingModel.dimensions}`, dimensions: embeddingModel.dimensions } });
    const [a, b] = await choice.embedder.embed(['What is the capital of France?', 'capital of France?']);
    expect(a).toHaveLength(embeddingModel.dimensions!);
    const norm = Math.hypot(...a!);
    expect(norm).toBeCloseTo(1, 5);
    expect(a).not.toEqual(b);
    const tokens = await metrics.registry.getSingleMetricAsString('svc_tokens_total');
    expect(tokens).toContain(`model="${embeddingModel.id}"`);
  });

  it('refuses what it cannot use, naming the variable', () => {
    const chatModel = catalog.list({ provider: 'mock', kind: 'chat' })[0]!;
    const attempt = (setting: string, threshold?: number) => () => chooseSemanticEmbedder({ setting, threshold, shared, catalog, providers, metrics });
    expect(attempt('not a slug')).toThrow(ConfigError);
    expect(attempt('openai/text-embedding-3-small', 0.9)).toThrow(/SVC_SEMANTIC_EMBEDDER: 'openai\/text-embedding-3-small' is not an embeddings model of a configured provider/);
    expect(attempt(chatModel.id, 0.9)).toThrow(/not an embeddings model/);
    expect(attempt(embeddingModel.id)).toThrow(/^SVC_SEMANTIC_THRESHOLD: embedder .* has no calibrated threshold/);
  });

  it('is what the runtime builds the semantic cache with; a bad setting fails at start', async () => {
    const runtime = await createRuntime(
      parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_SEMANTIC_EMBEDDER: `${embeddingModel.id}@64`, SVC_SEMANTIC_THRESHOLD: '0.95' }),
    );
    try {
      expect(runtime.cache.stats().by_type.semantic).toMatchObject({ enabled: true, embedder: `${embeddingModel.id}@64`, threshold: 0.95 });
    } finally {
      await runtime.close();
    }
    await expect(createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_SEMANTIC_EMBEDDER: embeddingModel.id }))).rejects.toThrow(
      /SVC_SEMANTIC_THRESHOLD/,
    );
    expect(() => parseEnv({ SVC_SEMANTIC_THRESHOLD: '1.5' })).toThrow(/SVC_SEMANTIC_THRESHOLD/);
  });

  it('by default the runtime’s semantic cache embeds with its one sentence encoder (all-MiniLM-L6-v2) and hits a rewording', async () => {
    const runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
    try {
      expect(runtime.cache.stats().by_type.semantic).toMatchObject({ enabled: true, embedder: 'all-MiniLM-L6-v2', threshold: similarityThreshold('all-MiniLM-L6-v2') });
      const semantic = runtime.cache.semantic!;
      const miss = await semantic.lookup(chatRequest('How do I reverse a list in Python?'), 'org-a');
      semantic.store(chatRequest('How do I reverse a list in Python?'), 'org-a', cachedAnswer('list[::-1]'), miss);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await semantic.lookup(chatRequest('What is the way to reverse a Python list?'), 'org-a')).toMatchObject({ hit: true, answer: { result: { choices: [{ message: { content: 'list[::-1]' } }] } } });
      expect((await semantic.lookup(chatRequest('How do I reverse a list in Java?'), 'org-a'))?.hit).toBe(false);
    } finally {
      await runtime.close();
    }
  }, 60_000);
});
