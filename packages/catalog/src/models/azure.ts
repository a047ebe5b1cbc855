import { hostModels } from './define.js';
import { openaiEmbeddingModels } from './embeddings.js';
import { openaiModels } from './openai.js';

// Azure OpenAI (Microsoft Foundry), Global Standard deployments. Azure addresses a model by the
// operator's deployment name; the catalog uses the OpenAI model name as `upstreamId`, so name
// deployments after their models (or override `upstreamId`). Global Standard bills OpenAI's list
// price (learn.microsoft.com Foundry model list and azure.microsoft.com/pricing, read 2026-11-21;
// Data Zone / regional deployments cost about 10% more and are not modelled). Limits and prices
// are OpenAI's, which Azure mirrors for these models; the GPT-6 generation is left out until
// Azure lists it.
export const azureModels = /* @__PURE__ */ hostModels(
  'azure',
  openaiModels,
  Object.fromEntries(
    [
      'gpt-5.6-sol',
      'gpt-5.6-luna',
      'gpt-5.5',
      'gpt-5.4',
      'gpt-5.4-mini',
      'gpt-5.4-nano',
      'gpt-5-mini',
      'gpt-5-nano',
      'gpt-4.1',
      'gpt-4.1-mini',
      'gpt-4o',
      'gpt-4o-mini',
      'o3',
      'o4-mini',
    ].map((name) => [name, name]),
  ),
);

export const azureEmbeddingModels = /* @__PURE__ */ hostModels('azure', openaiEmbeddingModels, {
  'text-embedding-3-small': 'text-embedding-3-small',
  'text-embedding-3-large': 'text-embedding-3-large',
});
