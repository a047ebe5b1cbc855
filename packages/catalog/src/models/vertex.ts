import { hostModels } from './define.js';
import { anthropicModels } from './anthropic.js';
import { geminiEmbeddingModels } from './embeddings.js';
import { geminiModels } from './gemini.js';

// Google Cloud Vertex AI, global endpoint. Claude ids follow platform.claude.com "Model IDs and
// versions" (read 2026-11-21): from the 4.6 generation on they equal the Claude API id; older
// snapshots put the date after `@`. Vertex bills Claude on the global endpoint at Anthropic's
// list price (regional endpoints add 10% for Sonnet 4.5 and later; not modelled) and Gemini at
// the Gemini API's paid-tier price (cloud.google.com/vertex-ai/generative-ai/pricing). Where a
// Vertex rate could not be confirmed for a model, the home provider's rate is carried over.
export const vertexModels = [
  .../* @__PURE__ */ hostModels('vertex', anthropicModels, {
    'claude-fable-5-1': 'claude-fable-5-1',
    'claude-opus-5-5': 'claude-opus-5-5',
    'claude-opus-5': 'claude-opus-5',
    'claude-sonnet-5-5': 'claude-sonnet-5-5',
    'claude-sonnet-5': 'claude-sonnet-5',
    'claude-haiku-5-5': 'claude-haiku-5-5',
    'claude-opus-4-5': 'claude-opus-4-5@20251101',
    'claude-sonnet-4-5': 'claude-sonnet-4-5@20250929',
    'claude-haiku-4-5': 'claude-haiku-4-5@20251001',
  }),
  .../* @__PURE__ */ hostModels(
    'vertex',
    geminiModels,
    Object.fromEntries(geminiModels.map((m) => [m.upstreamId, m.upstreamId])),
  ),
];

export const vertexEmbeddingModels = /* @__PURE__ */ hostModels('vertex', geminiEmbeddingModels, {
  'gemini-embedding-001': 'gemini-embedding-001',
});
