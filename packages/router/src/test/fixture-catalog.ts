import { type Catalog, type ModelInfo, createCatalog } from '@svc/catalog';
import type { ChatRequest } from '@svc/core';

type Spec = Pick<ModelInfo, 'tier' | 'qualityPrior' | 'inputPricePerMTok' | 'outputPricePerMTok'> & Partial<ModelInfo> & { name: string };

function model(spec: Spec): ModelInfo {
  const { name, ...rest } = spec;
  const [provider = 'p', upstreamId = name] = name.split('/');
  return {
    id: name,
    provider,
    upstreamId,
    family: upstreamId,
    kind: 'chat',
    contextWindow: 128_000,
    maxOutputTokens: 16_000,
    capabilities: ['tools', 'json'],
    free: false,
    openWeight: false,
    created: 1_700_000_000,
    ...rest,
  };
}

/** A small, fixed catalog: two models per tier, one free, one safety-critical, one vision model. */
export function fixtureCatalog(): Catalog {
  return createCatalog([
    model({ name: 'acme/opus', tier: 'T1', qualityPrior: 0.97, inputPricePerMTok: 10, outputPricePerMTok: 50, safetyCritical: true, capabilities: ['tools', 'json', 'vision', 'reasoning'] }),
    model({ name: 'acme/sonnet', tier: 'T1', qualityPrior: 0.92, inputPricePerMTok: 3, outputPricePerMTok: 15, contextWindow: 1_000_000 }),
    model({ name: 'acme/mid', tier: 'T2', qualityPrior: 0.8, inputPricePerMTok: 0.8, outputPricePerMTok: 3 }),
    model({ name: 'open/llama-70b', tier: 'T2', qualityPrior: 0.74, inputPricePerMTok: 0.6, outputPricePerMTok: 0.6, free: true, openWeight: true, family: 'llama-70b' }),
    model({ name: 'other/llama-70b', tier: 'T2', qualityPrior: 0.74, inputPricePerMTok: 0.9, outputPricePerMTok: 0.9, openWeight: true, free: true, family: 'llama-70b' }),
    model({ name: 'acme/mini', tier: 'T3', qualityPrior: 0.66, inputPricePerMTok: 0.1, outputPricePerMTok: 0.4, contextWindow: 32_000 }),
    model({ name: 'fast/tiny', tier: 'T3', qualityPrior: 0.55, inputPricePerMTok: 0.05, outputPricePerMTok: 0.1, capabilities: [] }),
  ]);
}

/** A one-message user request. */
export function ask(content: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'svc/auto', messages: [{ role: 'user', content }], stream: false, n: 1, includeUsage: false, ...extra };
}

export const hard =
  'Design a distributed, strongly consistent key-value store on top of Raft. Explain leader election, log compaction and membership changes, analyze the failure modes under network partitions, and justify every trade-off against a leaderless design.';
