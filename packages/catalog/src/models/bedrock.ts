import { anthropicModels } from './anthropic.js';
import { cohereModels } from './cohere.js';
import { defineModels, hostModels, released } from './define.js';
import { cohereEmbeddingModels, embeddings } from './embeddings.js';
import { chat, gptOss120, gptOss20, llama31, llama33, thinking } from './open-weight-hosts.js';

// Amazon Bedrock, called through the Converse API. `upstreamId` is the `modelId` Converse takes.
// Claude: the `global.` cross-Region inference profile. Recent Claude models have no on-demand
// in-Region throughput (Converse answers "retry with an inference profile"), and the global
// profile bills Anthropic's list price, where the `us.`/`eu.` geographic profiles add 10% for
// Sonnet 4.5 and later. Ids follow platform.claude.com "Model IDs and versions": dateless from the
// 4.6 generation on, `<dated-id>-v1:0` before it. Other models: the `us.` geographic profile
// where Bedrock requires one (no charge over the source Region's price), else the base model id.
// Prices: aws.amazon.com/bedrock/pricing, us-east-1 on-demand, read 2026-11-21; see README for
// the rates that could not be confirmed there.

export const bedrockModels = [
  .../* @__PURE__ */ hostModels('bedrock', anthropicModels, {
    'claude-fable-5-1': 'global.anthropic.claude-fable-5-1',
    'claude-opus-5-5': 'global.anthropic.claude-opus-5-5',
    'claude-opus-5': 'global.anthropic.claude-opus-5',
    'claude-sonnet-5-5': 'global.anthropic.claude-sonnet-5-5',
    'claude-sonnet-5': 'global.anthropic.claude-sonnet-5',
    'claude-haiku-5-5': 'global.anthropic.claude-haiku-5-5',
    'claude-opus-4-5': 'global.anthropic.claude-opus-4-5-20251101-v1:0',
    'claude-sonnet-4-5': 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
    'claude-haiku-4-5': 'global.anthropic.claude-haiku-4-5-20251001-v1:0',
  }),
  .../* @__PURE__ */ defineModels('bedrock', 'chat', [
    // Amazon Nova (Bedrock only).
    { upstreamId: 'global.amazon.nova-2-lite-v1:0', family: 'amazon-nova-2-lite', tier: 'T3', contextWindow: 1_000_000,
      maxOutputTokens: 65_536, inputPricePerMTok: 0.3, outputPricePerMTok: 2.5,
      capabilities: ['tools', 'vision', 'json', 'reasoning'], created: released('2025-12-02'), qualityPrior: 0.7 },
    { upstreamId: 'us.amazon.nova-premier-v1:0', family: 'amazon-nova-premier', tier: 'T2', contextWindow: 1_000_000,
      maxOutputTokens: 32_000, inputPricePerMTok: 2.5, outputPricePerMTok: 12.5, capabilities: ['tools', 'vision', 'json'],
      created: released('2025-04-30'), qualityPrior: 0.66 },
    { upstreamId: 'us.amazon.nova-pro-v1:0', family: 'amazon-nova-pro', tier: 'T2', contextWindow: 300_000,
      maxOutputTokens: 10_000, inputPricePerMTok: 0.8, outputPricePerMTok: 3.2, capabilities: ['tools', 'vision', 'json'],
      created: released('2024-12-03'), qualityPrior: 0.58 },
    { upstreamId: 'us.amazon.nova-lite-v1:0', family: 'amazon-nova-lite', tier: 'T3', contextWindow: 300_000,
      maxOutputTokens: 10_000, inputPricePerMTok: 0.06, outputPricePerMTok: 0.24, capabilities: ['tools', 'vision', 'json'],
      created: released('2024-12-03'), qualityPrior: 0.48 },
    { upstreamId: 'us.amazon.nova-micro-v1:0', family: 'amazon-nova-micro', tier: 'T3', contextWindow: 128_000,
      maxOutputTokens: 10_000, inputPricePerMTok: 0.035, outputPricePerMTok: 0.14, capabilities: chat,
      created: released('2024-12-03'), qualityPrior: 0.42 },
    // Meta Llama.
    { ...llama33, upstreamId: 'us.meta.llama3-3-70b-instruct-v1:0', tier: 'T2', contextWindow: 128_000,
      maxOutputTokens: 8_192, inputPricePerMTok: 0.72, outputPricePerMTok: 0.72, capabilities: chat, openWeight: true },
    { ...llama31, upstreamId: 'us.meta.llama3-1-8b-instruct-v1:0', tier: 'T3', contextWindow: 128_000,
      maxOutputTokens: 8_192, inputPricePerMTok: 0.22, outputPricePerMTok: 0.22, capabilities: chat, openWeight: true },
    { upstreamId: 'us.meta.llama4-maverick-17b-instruct-v1:0', family: 'llama-4-maverick', tier: 'T2',
      contextWindow: 1_000_000, maxOutputTokens: 8_192, inputPricePerMTok: 0.24, outputPricePerMTok: 0.97,
      capabilities: ['tools', 'vision', 'json'], openWeight: true, created: released('2025-04-05'), qualityPrior: 0.62 },
    // OpenAI open-weight.
    { ...gptOss120, upstreamId: 'openai.gpt-oss-120b-1:0', tier: 'T2', contextWindow: 128_000, maxOutputTokens: 32_768,
      inputPricePerMTok: 0.15, outputPricePerMTok: 0.6, capabilities: thinking, openWeight: true },
    { ...gptOss20, upstreamId: 'openai.gpt-oss-20b-1:0', tier: 'T3', contextWindow: 128_000, maxOutputTokens: 32_768,
      inputPricePerMTok: 0.07, outputPricePerMTok: 0.3, capabilities: thinking, openWeight: true },
    // Mistral. Large 3 is the model Mistral's own `mistral-large-latest` points at.
    { upstreamId: 'mistral.mistral-large-3-675b-instruct', family: 'mistral-large-3', tier: 'T2', contextWindow: 262_144,
      maxOutputTokens: 32_768, inputPricePerMTok: 0.5, outputPricePerMTok: 1.5, capabilities: ['tools', 'vision', 'json'],
      openWeight: true, created: released('2025-12-02'), qualityPrior: 0.76 },
    { upstreamId: 'us.mistral.pixtral-large-2502-v1:0', family: 'pixtral-large-2502', tier: 'T2', contextWindow: 128_000,
      maxOutputTokens: 8_192, inputPricePerMTok: 2, outputPricePerMTok: 6, capabilities: ['tools', 'vision', 'json'],
      openWeight: true, created: released('2025-04-08'), qualityPrior: 0.6 },
  ]),
  // Cohere: Bedrock serves the 2024-03/04 snapshots of Command R and R+.
  .../* @__PURE__ */ hostModels('bedrock', cohereModels, {
    'command-r-plus-04-2024': 'cohere.command-r-plus-v1:0',
    'command-r-03-2024': 'cohere.command-r-v1:0',
  }),
];

export const bedrockEmbeddingModels = [
  .../* @__PURE__ */ embeddings('bedrock', [
    { upstreamId: 'amazon.titan-embed-text-v2:0', family: 'amazon-titan-embed-text-v2', tier: 'T3', contextWindow: 8_192,
      inputPricePerMTok: 0.02, dimensions: 1024, created: released('2024-04-30'), qualityPrior: 0.58 },
  ]),
  .../* @__PURE__ */ hostModels('bedrock', cohereEmbeddingModels, {
    'embed-v4.0': 'cohere.embed-v4:0',
    'embed-english-v3.0': 'cohere.embed-english-v3',
    'embed-multilingual-v3.0': 'cohere.embed-multilingual-v3',
  }),
];
