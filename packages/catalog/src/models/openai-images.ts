import type { ModelInfo } from '../model.js';
import { type ModelSpec, defineModels, hostModels, released } from './define.js';

// Image generation models, priced per image by `<quality>:<size>` (`unitPrices.perImage`);
// `default` prices a request that names no size: the model's default image.
// Source: openai.com/api/pricing (2026). DALL·E 3: standard 1024² $0.04, wide $0.08; hd 1024²
// $0.08, wide $0.12. DALL·E 2: 256² $0.016, 512² $0.018, 1024² $0.02.
// gpt-image-1 is billed by tokens (text in $5, image out $40 per million): its token prices bill
// the usage the upstream reports; the per-image table (OpenAI's published price of each
// quality and size) prices what it did not report and the admission estimate, `default` being
// the dearest image (quality and size `auto` may pick it).
type ImageSpec = Pick<ModelSpec, 'upstreamId' | 'family' | 'tier' | 'created' | 'qualityPrior' | 'unitPrices'> &
  Partial<Pick<ModelSpec, 'inputPricePerMTok' | 'outputPricePerMTok'>>;

function images(specs: readonly ImageSpec[]): ModelInfo[] {
  return defineModels(
    'openai',
    'image',
    specs.map((spec) => ({
      contextWindow: 4_096,
      maxOutputTokens: 0,
      inputPricePerMTok: 0,
      outputPricePerMTok: 0,
      ...spec,
      capabilities: [],
      free: false,
    })),
  );
}

/** OpenAI's image models; the newer DALL·E 3 first: it is the default of `POST /v1/images/generations`. */
export const openaiImageModels: readonly ModelInfo[] = /* @__PURE__ */ images([
  {
    upstreamId: 'dall-e-3',
    family: 'dall-e-3',
    tier: 'T2',
    created: released('2023-11-06'),
    qualityPrior: 0.75,
    unitPrices: {
      perImage: {
        'standard:1024x1024': 0.04,
        'standard:1024x1792': 0.08,
        'standard:1792x1024': 0.08,
        'hd:1024x1024': 0.08,
        'hd:1024x1792': 0.12,
        'hd:1792x1024': 0.12,
        default: 0.04,
      },
    },
  },
  {
    upstreamId: 'dall-e-2',
    family: 'dall-e-2',
    tier: 'T3',
    created: released('2022-11-03'),
    qualityPrior: 0.5,
    unitPrices: { perImage: { '256x256': 0.016, '512x512': 0.018, '1024x1024': 0.02, default: 0.02 } },
  },
  {
    upstreamId: 'gpt-image-1',
    family: 'gpt-image-1',
    tier: 'T1',
    created: released('2025-04-23'),
    qualityPrior: 0.9,
    inputPricePerMTok: 5,
    outputPricePerMTok: 40,
    unitPrices: {
      perImage: {
        'low:1024x1024': 0.011,
        'low:1024x1536': 0.016,
        'low:1536x1024': 0.016,
        'medium:1024x1024': 0.042,
        'medium:1024x1536': 0.063,
        'medium:1536x1024': 0.063,
        'high:1024x1024': 0.167,
        'high:1024x1536': 0.25,
        'high:1536x1024': 0.25,
        '1024x1024': 0.167,
        default: 0.25,
      },
    },
  },
]);

// Azure OpenAI serves DALL·E 3 at OpenAI's list price on the GA api-version (2024-10-21) and the
// v1 surface; DALL·E 2 is retired there and gpt-image-1 needs a preview api-version, so neither
// is listed (an operator adds them through a catalog override).
export const azureImageModels: readonly ModelInfo[] = /* @__PURE__ */ hostModels('azure', openaiImageModels, { 'dall-e-3': 'dall-e-3' });
