/** valibot schema of the `POST /v1/embeddings` body (spec §POST /v1/embeddings). */
import * as v from 'valibot';
import { int, nonEmptyStr, obj, oneOf, opt, str } from '../shared/fields.js';

const inputMessage = 'must be a non-empty string or a non-empty array of non-empty strings (token arrays are not accepted)';
const text = () => v.pipe(v.string(inputMessage), v.minLength(1, inputMessage));

/** Texts only: token-id arrays would need the upstream model's tokenizer to mean anything elsewhere. */
const inputSchema = v.lazy((input) =>
  Array.isArray(input)
    ? v.pipe(v.array(text(), inputMessage), v.minLength(1, inputMessage), v.maxLength(2048, 'must hold at most 2048 texts'))
    : text(),
);

export const embeddingsRequestSchema = obj({
  model: nonEmptyStr(),
  input: inputSchema,
  /** Default `float`; the openai SDKs send `base64` and decode it themselves. */
  encoding_format: opt(oneOf(['float', 'base64'])),
  dimensions: opt(int(1, 65_535)),
  user: opt(str()),
});

export type OpenAIEmbeddingsRequest = v.InferOutput<typeof embeddingsRequestSchema>;
