import * as v from 'valibot';

/*
 * Minimal schema of the OpenAI `/embeddings` answer. Each vector is left `unknown` here and read
 * by `readFloat32Vector`: a per-element valibot check over thousands of floats per input would
 * cost more than the request's JSON parse.
 */
export const openAIEmbeddingResponseSchema = v.object({
  model: v.nullish(v.string()),
  data: v.array(v.object({ index: v.nullish(v.number()), embedding: v.unknown() })),
  usage: v.nullish(v.object({ prompt_tokens: v.nullish(v.number()), total_tokens: v.nullish(v.number()) })),
});

export type OpenAIEmbeddingResponse = v.InferOutput<typeof openAIEmbeddingResponseSchema>;

/** What we send to `/embeddings`. */
export interface OpenAIEmbeddingRequestBody {
  model: string;
  input: string[];
  encoding_format?: 'base64' | 'float';
  dimensions?: number;
  /** Mistral's name for `dimensions`. */
  output_dimension?: number;
  user?: string;
}
