import type { SvcMetadata } from '@svc/core';

/** One image of the OpenAI images response: a URL or the base64 of the file, never both. */
export interface OpenAIImage {
  url?: string;
  b64_json?: string;
  revised_prompt?: string;
}

/** The OpenAI images response (spec §Image response), with the GPT image models' token usage. */
export interface OpenAIImagesResponse {
  created: number;
  data: OpenAIImage[];
  usage?: {
    input_tokens: number;
    input_tokens_details: { text_tokens: number; image_tokens: number };
    output_tokens: number;
    total_tokens: number;
  };
  svc_metadata?: SvcMetadata;
}

/** A delivered image in canonical names. */
export type DeliveredImage = ({ url: string } | { b64Json: string }) & { revisedPrompt?: string };

export interface ImagesMeta {
  /** Unix seconds. */
  created: number;
  usage?: { inputTokens: number; outputTokens: number; textTokens?: number; imageTokens?: number };
  svcMetadata?: SvcMetadata;
}

/** Encodes generated images (URLs or base64) as the OpenAI images response. */
export function encodeImagesResponse(images: readonly DeliveredImage[], meta: ImagesMeta): OpenAIImagesResponse {
  const data = images.map((image): OpenAIImage => {
    const out: OpenAIImage = 'url' in image ? { url: image.url } : { b64_json: image.b64Json };
    if (image.revisedPrompt !== undefined) out.revised_prompt = image.revisedPrompt;
    return out;
  });
  const body: OpenAIImagesResponse = { created: meta.created, data };
  if (meta.usage) {
    const { inputTokens, outputTokens } = meta.usage;
    body.usage = {
      input_tokens: inputTokens,
      input_tokens_details: { text_tokens: meta.usage.textTokens ?? inputTokens, image_tokens: meta.usage.imageTokens ?? 0 },
      output_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    };
  }
  if (meta.svcMetadata !== undefined) body.svc_metadata = meta.svcMetadata;
  return body;
}
