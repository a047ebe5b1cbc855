import { defineModels, released } from './define.js';

// The built-in `mock` provider of the embedded default (no provider key configured). Prices are
// small but non-zero so cost, savings and budget code paths see real numbers.
const created = released('2026-01-01');
const capabilities = ['tools', 'vision', 'json'] as const;

export const mockModels = [
  .../* @__PURE__ */ defineModels('mock', 'chat', [
    { upstreamId: 'mock-quality', family: 'mock-quality', tier: 'T1', contextWindow: 200_000, maxOutputTokens: 32_768,
      inputPricePerMTok: 1, cachedInputPricePerMTok: 0.1, outputPricePerMTok: 4, capabilities, created,
      qualityPrior: 0.9, safetyCritical: true },
    { upstreamId: 'mock-value', family: 'mock-value', tier: 'T2', contextWindow: 128_000, maxOutputTokens: 16_384,
      inputPricePerMTok: 0.25, cachedInputPricePerMTok: 0.025, outputPricePerMTok: 1, capabilities, created,
      qualityPrior: 0.75 },
    { upstreamId: 'mock-speed', family: 'mock-speed', tier: 'T3', contextWindow: 64_000, maxOutputTokens: 8_192,
      inputPricePerMTok: 0.05, outputPricePerMTok: 0.2, capabilities, created, qualityPrior: 0.6 },
  ]),
  .../* @__PURE__ */ defineModels('mock', 'embedding', [
    { upstreamId: 'mock-embed', family: 'mock-embed', tier: 'T3', contextWindow: 8_192, maxOutputTokens: 0,
      inputPricePerMTok: 0.01, outputPricePerMTok: 0, capabilities: [], dimensions: 256, created,
      qualityPrior: 0.5 },
  ]),
];
