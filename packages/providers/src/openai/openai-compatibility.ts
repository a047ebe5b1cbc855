/**
 * How far an OpenAI-compatible vendor follows the OpenAI wire format. Vendors differ in small,
 * known ways; each difference is one typed switch here rather than a free-form parameter map.
 */
export interface OpenAICompatibility {
  /** Send `stream_options: {include_usage: true}` when streaming. Mistral rejects the field (422) and reports usage on its last chunk anyway. Default true. */
  streamOptions?: boolean;
  /** The vendor knows the `developer` role; otherwise developer messages are sent as `system`. Default: true for `openai` only. */
  developerRole?: boolean;
  /** Name of the seed field. Mistral calls it `random_seed`. Default `seed`. */
  seedField?: 'seed' | 'random_seed';
  /**
   * Where `reasoning_effort` is sent. OpenAI rejects it (400) on non-reasoning models, and a
   * routing hint must not fail a request, so `openai` defaults to `reasoning-models`; other
   * vendors decide per model themselves and default to `always`.
   */
  reasoningEffort?: 'always' | 'reasoning-models';
  /** Request fields the vendor rejects with a 4xx; they are left out of the body. */
  unsupported?: readonly UnsupportedField[];
  /** The vendor serves `POST {baseUrl}/embeddings`; false leaves `embed` off the provider. Default true. */
  embeddings?: boolean;
  /**
   * `encoding_format` asked of `/embeddings`. `base64` (little-endian float32) is about a third
   * of the text of a float array and decodes without a number parser; `float` leaves the field
   * out, for servers that reject it. Either answer is read. Default: `base64` for `openai`,
   * `float` for other vendors.
   */
  embeddingEncoding?: 'base64' | 'float';
  /** Name of the vector-length field of `/embeddings`. Mistral calls it `output_dimension`. Default `dimensions`. */
  embeddingDimensionsField?: 'dimensions' | 'output_dimension';
  /**
   * The vendor serves `POST {baseUrl}/audio/transcriptions` and `/audio/translations` (Groq's
   * Whisper): `transcribe` and `recognize` are on the provider. Default: true for `openai` only.
   */
  transcriptions?: boolean;
}

/** Optional request fields a vendor may reject. */
export type UnsupportedField = 'user' | 'logprobs' | 'reasoning_effort' | 'parallel_tool_calls' | 'service_tier' | 'n';

/** Compatibility resolved to concrete values, computed once per provider instance. */
export interface ResolvedCompatibility {
  streamOptions: boolean;
  developerRole: boolean;
  seedField: 'seed' | 'random_seed';
  reasoningEffort: 'always' | 'reasoning-models';
  unsupported: ReadonlySet<UnsupportedField>;
  embeddings: boolean;
  embeddingEncoding: 'base64' | 'float';
  embeddingDimensionsField: 'dimensions' | 'output_dimension';
  transcriptions: boolean;
}

export function resolveCompatibility(providerId: string, compat: OpenAICompatibility | undefined): ResolvedCompatibility {
  return {
    streamOptions: compat?.streamOptions ?? true,
    developerRole: compat?.developerRole ?? providerId === 'openai',
    seedField: compat?.seedField ?? 'seed',
    reasoningEffort: compat?.reasoningEffort ?? (providerId === 'openai' ? 'reasoning-models' : 'always'),
    unsupported: new Set(compat?.unsupported ?? []),
    embeddings: compat?.embeddings ?? true,
    embeddingEncoding: compat?.embeddingEncoding ?? (providerId === 'openai' ? 'base64' : 'float'),
    embeddingDimensionsField: compat?.embeddingDimensionsField ?? 'dimensions',
    transcriptions: compat?.transcriptions ?? providerId === 'openai',
  };
}
