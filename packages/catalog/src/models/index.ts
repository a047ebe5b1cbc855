import type { ModelInfo } from '../model.js';
import { anthropicModels } from './anthropic.js';
import { azureEmbeddingModels, azureModels } from './azure.js';
import { bedrockEmbeddingModels, bedrockModels } from './bedrock.js';
import { cohereModels } from './cohere.js';
import {
  cohereEmbeddingModels,
  geminiEmbeddingModels,
  mistralEmbeddingModels,
  openaiEmbeddingModels,
} from './embeddings.js';
import { geminiModels } from './gemini.js';
import { mockModels } from './mock.js';
import { ollamaEmbeddingModels, ollamaModels } from './ollama.js';
import { openaiModels } from './openai.js';
import { openaiAudioModels } from './openai-audio.js';
import { azureImageModels, openaiImageModels } from './openai-images.js';
import { openaiRealtimeModels } from './openai-realtime.js';
import { openaiAudioChatModels } from './openai-audio-chat.js';
import { openaiLegacyModels } from './openai-legacy.js';
import { deepseekModels, mistralModels, perplexityModels, xaiModels } from './open-compatible.js';
import { cerebrasModels, fireworksModels, groqModels, openrouterModels, togetherModels } from './open-weight-hosts.js';
import { vertexEmbeddingModels, vertexModels } from './vertex.js';
import { voiceProviderModels } from './voice.js';

/**
 * Every built-in model. The order matters: when several third-party hosts serve the same
 * upstream name, `Catalog.resolve` picks the one listed first (fast hosts before general ones,
 * then the clouds, then local runtimes). First-party providers win regardless of order.
 */
export const builtInModels: readonly ModelInfo[] = [
  ...openaiModels,
  ...openaiAudioChatModels,
  ...openaiLegacyModels,
  ...anthropicModels,
  ...geminiModels,
  ...deepseekModels,
  ...xaiModels,
  ...mistralModels,
  ...cohereModels,
  ...perplexityModels,
  ...groqModels,
  ...cerebrasModels,
  ...togetherModels,
  ...fireworksModels,
  ...openrouterModels,
  ...azureModels,
  ...bedrockModels,
  ...vertexModels,
  ...ollamaModels,
  ...openaiEmbeddingModels,
  ...geminiEmbeddingModels,
  ...mistralEmbeddingModels,
  ...cohereEmbeddingModels,
  ...azureEmbeddingModels,
  ...bedrockEmbeddingModels,
  ...vertexEmbeddingModels,
  ...ollamaEmbeddingModels,
  ...openaiAudioModels,
  ...openaiImageModels,
  ...azureImageModels,
  ...openaiRealtimeModels,
  ...voiceProviderModels,
  ...mockModels,
];
