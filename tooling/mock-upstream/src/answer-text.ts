// ASCII only, no quotes or backslashes: tokens are spliced into JSON strings without escaping.
const SENTENCE =
  'Hello from the mock upstream. This answer has exactly as many words as tokens were asked for, and it repeats until it is long enough.';
const WORDS = SENTENCE.split(' ');

const tokenCache = new Map<number, readonly string[]>();
const textCache = new Map<number, string>();
const MAX_CACHED = 256;

/** The canned answer split into `count` tokens ("Hello", " from", ...); JSON-safe without escaping. */
export function answerTokens(count: number): readonly string[] {
  const cached = tokenCache.get(count);
  if (cached) return cached;
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const word = WORDS[i % WORDS.length] ?? '';
    tokens.push(i === 0 ? word : ` ${word}`);
  }
  if (tokenCache.size >= MAX_CACHED) tokenCache.clear();
  tokenCache.set(count, tokens);
  return tokens;
}

/** The canned answer of `count` tokens as one string; JSON-safe without escaping. */
export function answerText(count: number): string {
  const cached = textCache.get(count);
  if (cached !== undefined) return cached;
  const text = answerTokens(count).join('');
  if (textCache.size >= MAX_CACHED) textCache.clear();
  textCache.set(count, text);
  return text;
}

/** Rough prompt token count of a request body: one token per four bytes, at least one. */
export function estimateTokens(byteLength: number): number {
  return Math.max(1, Math.ceil(byteLength / 4));
}

/** Split a string into fragments of `size` characters (tool-call argument deltas). */
export function fragments(text: string, size = 8): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}
