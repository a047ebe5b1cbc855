import { createHash } from 'node:crypto';
import { estimateTokens } from './answer-text.js';
import { asArray, asRecord } from './json.js';

/**
 * Prompt caching as the providers publish it, so a gateway's cache breakpoints and cached-token
 * accounting can be tested against the shapes they answer:
 * - Anthropic caches the prompt up to each `cache_control` breakpoint (tools, then system, then
 *   messages, in that order); a prefix seen before is read (`cache_read_input_tokens`), the rest
 *   up to the last breakpoint is written (`cache_creation_input_tokens`), and `input_tokens`
 *   counts only what follows. Prefixes under 1024 tokens are not cached.
 * - OpenAI caches by itself: the longest prompt prefix (whole messages) seen before, once the
 *   prompt has 1024 tokens, is reported as `prompt_tokens_details.cached_tokens`, in steps of 128.
 * One instance per mock server: what it remembers is what that server was sent.
 */
export class PromptCache {
  readonly #seen = new Set<string>();

  /** Anthropic's accounting of a Messages body of `promptTokens` tokens. */
  anthropic(body: Record<string, unknown>, promptTokens: number): { read: number; written: number; uncached: number } {
    const prefixes = breakpointPrefixes(body);
    let read = 0;
    for (const prefix of prefixes) if (this.#seen.has(prefix.key)) read = Math.max(read, prefix.tokens);
    const last = prefixes.at(-1);
    const written = last === undefined || this.#seen.has(last.key) ? 0 : Math.max(0, last.tokens - read);
    for (const prefix of prefixes) this.#seen.add(prefix.key);
    return { read, written, uncached: Math.max(0, promptTokens - read - written) };
  }

  /** OpenAI's `cached_tokens` for a chat completions body of `promptTokens` tokens. */
  openai(body: Record<string, unknown>, promptTokens: number): number {
    if (promptTokens < MIN_TOKENS) return 0;
    const messages = asArray(body['messages']) ?? [];
    let cached = 0;
    let text = `openai:${JSON.stringify(body['model'])}:${JSON.stringify(body['tools'] ?? null)}`;
    for (const message of messages) {
      text += JSON.stringify(message);
      const key = digest(text);
      const tokens = estimateTokens(text.length);
      if (this.#seen.has(key) && tokens >= MIN_TOKENS) cached = tokens;
      this.#seen.add(key);
    }
    return Math.min(promptTokens, Math.floor(cached / 128) * 128);
  }
}

/** The smallest prompt either provider caches (Anthropic's Sonnet/Opus minimum, OpenAI's threshold). */
const MIN_TOKENS = 1024;

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Each breakpoint's prefix (every block up to and including it), keyed and counted, in order. */
function breakpointPrefixes(body: Record<string, unknown>): { key: string; tokens: number }[] {
  const blocks: unknown[] = [...(asArray(body['tools']) ?? [])];
  const system = body['system'];
  if (typeof system === 'string') blocks.push(system);
  else blocks.push(...(asArray(system) ?? []));
  for (const message of asArray(body['messages']) ?? []) {
    const content = asRecord(message)?.['content'];
    if (typeof content === 'string') blocks.push(content);
    else blocks.push(...(asArray(content) ?? []));
  }
  const out: { key: string; tokens: number }[] = [];
  let text = `anthropic:${JSON.stringify(body['model'])}`;
  for (const block of blocks) {
    text += JSON.stringify(block);
    if (asRecord(block)?.['cache_control'] == null) continue;
    const tokens = estimateTokens(text.length);
    if (tokens >= MIN_TOKENS) out.push({ key: digest(text), tokens });
  }
  return out;
}
