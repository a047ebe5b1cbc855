import * as v from 'valibot';

/*
 * Minimal schema of the OpenAI `/images/generations` answer when base64 was asked for (GPT image
 * models always answer base64). Only what the gateway relies on is checked; the image itself is
 * one long string, never walked.
 */
export const openAIImagesResponseSchema = v.object({
  created: v.number(),
  data: v.array(v.object({ b64_json: v.string(), revised_prompt: v.nullish(v.string()) })),
  usage: v.nullish(
    v.object({
      input_tokens: v.number(),
      output_tokens: v.number(),
      input_tokens_details: v.nullish(v.object({ text_tokens: v.nullish(v.number()), image_tokens: v.nullish(v.number()) })),
    }),
  ),
});

/** What we send to `/images/generations`. */
export interface OpenAIImagesRequestBody {
  model: string;
  prompt: string;
  n: number;
  size?: string;
  quality?: string;
  style?: string;
  user?: string;
  /** DALL·E only: always `b64_json`; GPT image models refuse the field and answer base64 anyway. */
  response_format?: 'b64_json';
  output_format?: string;
  background?: string;
  moderation?: string;
  output_compression?: number;
}
