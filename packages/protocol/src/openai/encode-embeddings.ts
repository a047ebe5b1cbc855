import type { SvcMetadata } from '@svc/core';

export interface OpenAIEmbedding {
  object: 'embedding';
  index: number;
  /** Numbers (`float`) or the base64 of the little-endian float32 bytes (`base64`). */
  embedding: number[] | string;
}

/** The embeddings list (spec §Embedding response). */
export interface OpenAIEmbeddingList {
  object: 'list';
  data: OpenAIEmbedding[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
  svc_metadata?: SvcMetadata;
}

export interface EmbeddingsMeta {
  model: string;
  usage: { promptTokens: number; totalTokens: number };
  encodingFormat: 'float' | 'base64';
  svcMetadata?: SvcMetadata;
}

/** The float32 bytes, little-endian whatever the host's order (what OpenAI's base64 holds). */
function toBase64(vector: Float32Array): string {
  const bytes = new DataView(new ArrayBuffer(vector.length * 4));
  for (let i = 0; i < vector.length; i++) bytes.setFloat32(i * 4, vector[i]!, true);
  return Buffer.from(bytes.buffer).toString('base64');
}

/** Encodes vectors (in input order) as the OpenAI embeddings list. */
export function encodeEmbeddings(vectors: readonly Float32Array[], meta: EmbeddingsMeta): OpenAIEmbeddingList {
  const data = vectors.map(
    (vector, index): OpenAIEmbedding => ({
      object: 'embedding',
      index,
      embedding: meta.encodingFormat === 'base64' ? toBase64(vector) : Array.from(vector),
    }),
  );
  const body: OpenAIEmbeddingList = {
    object: 'list',
    data,
    model: meta.model,
    usage: { prompt_tokens: meta.usage.promptTokens, total_tokens: meta.usage.totalTokens },
  };
  if (meta.svcMetadata !== undefined) body.svc_metadata = meta.svcMetadata;
  return body;
}
