import { type Catalog, createCatalog, type ModelInfo } from '@svc/catalog';

/** A chat model for tests: `provider/name`, the family named after the model unless given. */
export function testModel(id: string, overrides: Partial<ModelInfo> = {}): ModelInfo {
  const [provider = 'p', name = id] = id.split('/');
  return {
    id,
    provider,
    upstreamId: name,
    family: name,
    kind: 'chat',
    tier: 'T2',
    contextWindow: 128_000,
    maxOutputTokens: 4096,
    inputPricePerMTok: 1,
    outputPricePerMTok: 2,
    capabilities: ['tools'],
    free: false,
    openWeight: false,
    created: 1_700_000_000,
    qualityPrior: 0.5,
    ...overrides,
  };
}

/** A small catalog: a T1 family on two providers, a T2, a free T3 and an embedding model. */
export function testCatalog(): Catalog {
  return createCatalog([
    testModel('acme/big', { tier: 'T1', family: 'big', capabilities: ['tools', 'vision', 'reasoning'], safetyCritical: true }),
    testModel('cloud/big', { tier: 'T1', family: 'big', upstreamId: 'big-hosted' }),
    testModel('acme/mid', { tier: 'T2' }),
    testModel('libre/small', { tier: 'T3', free: true, openWeight: true, capabilities: ['json'] }),
    testModel('acme/embed', { kind: 'embedding', maxOutputTokens: 0, dimensions: 256, capabilities: [] }),
  ]);
}
