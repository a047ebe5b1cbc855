import { createSentenceEncoder } from '@svc/encoder';

/**
 * The shared encoder behind a cache of every text it embedded (analyses that ask the same prompts
 * of several sets of users embed each once); `close` ends the encoder.
 */
export function cachedEncoder() {
  const encoder = createSentenceEncoder({ cacheSize: 0 });
  const seen = new Map<string, Float32Array>();
  const embed = async (texts: readonly string[]) => {
    const missing = [...new Set(texts.filter((t) => !seen.has(t)))];
    if (missing.length > 0) for (const [i, v] of (await encoder.embed(missing)).entries()) seen.set(missing[i]!, v);
    return texts.map((t) => seen.get(t)!);
  };
  return { id: encoder.id, dimensions: encoder.dimensions, embed, close: async () => encoder.close?.() };
}
