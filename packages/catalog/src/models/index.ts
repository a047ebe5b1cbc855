import type { ModelInfo } from '../model.js';
import { anthropicModels } from './anthropic.js';
import { embeddingModels } from './embeddings.js';
import { geminiModels } from './gemini.js';
import { mockModels } from './mock.js';
import { openaiModels } from './openai.js';
import { deepseekModels, mistralModels, perplexityModels, xaiModels } from './open-compatible.js';
import { cerebrasModels, fireworksModels, groqModels, openrouterModels, togetherModels } from './open-weight-hosts.js';

/**
 * Every built-in model. The order matters: when several third-party hosts serve the same
 * upstream name, `Catalog.resolve` picks the one listed first (fast hosts before general ones).
 */
export const builtInModels: readonly ModelInfo[] = [
  ...openaiModels,
  ...anthropicModels,
  ...geminiModels,
  ...deepseekModels,
  ...xaiModels,
  ...mistralModels,
  ...perplexityModels,
  ...groqModels,
  ...cerebrasModels,
  ...togetherModels,
  ...fireworksModels,
  ...openrouterModels,
  ...embeddingModels,
  ...mockModels,
];
