import { defineModels, released } from './define.js';
import { embeddings } from './embeddings.js';
import { chat, gptOss20, llama31, llama33, qwen32, thinking } from './open-weight-hosts.js';

// Ollama: open-weight models on the operator's own hardware, so no per-token price. Ids are
// Ollama library tags (ollama.com/library, read 2026-11-21); the default tags are 4-bit
// quantisations of the same weights, which is why they share the family of the hosted model.
// Context windows are the models' own; Ollama loads a smaller `num_ctx` unless configured, and
// caps output only by the context, so `maxOutputTokens` is the context window.
const local = { tier: 'T3', inputPricePerMTok: 0, outputPricePerMTok: 0, openWeight: true } as const;

export const ollamaModels = /* @__PURE__ */ defineModels('ollama', 'chat', [
  { ...local, ...llama31, upstreamId: 'llama3.1:8b', contextWindow: 131_072, maxOutputTokens: 131_072,
    capabilities: chat },
  { ...local, ...llama33, upstreamId: 'llama3.3:70b', contextWindow: 131_072, maxOutputTokens: 131_072,
    capabilities: chat },
  { ...local, ...gptOss20, upstreamId: 'gpt-oss:20b', contextWindow: 131_072, maxOutputTokens: 131_072,
    capabilities: thinking },
  { ...local, ...qwen32, upstreamId: 'qwen3:32b', contextWindow: 40_960, maxOutputTokens: 40_960,
    capabilities: thinking },
  { ...local, upstreamId: 'qwen2.5:7b', family: 'qwen2.5-7b-instruct', contextWindow: 32_768, maxOutputTokens: 32_768,
    capabilities: chat, created: released('2024-09-19'), qualityPrior: 0.4 },
  { ...local, upstreamId: 'mistral:7b', family: 'mistral-7b-instruct-v0.3', contextWindow: 32_768,
    maxOutputTokens: 32_768, capabilities: chat, created: released('2024-05-22'), qualityPrior: 0.32 },
]);

export const ollamaEmbeddingModels = /* @__PURE__ */ embeddings('ollama', [
  { upstreamId: 'nomic-embed-text', family: 'nomic-embed-text-v1.5', tier: 'T3', contextWindow: 8_192,
    inputPricePerMTok: 0, dimensions: 768, openWeight: true, created: released('2024-02-15'), qualityPrior: 0.5 },
]);
