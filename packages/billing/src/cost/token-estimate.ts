/**
 * Characters per token of the gateway's rough estimate, where no tokenizer runs (admission
 * before the answer, usage a provider did not report): about right for English prose and code.
 */
export const charsPerToken = 4;

/** Tokens in `chars` characters by the rough estimate: every started {@link charsPerToken}. */
export function tokensForChars(chars: number): number {
  return Math.ceil(chars / charsPerToken);
}

/** Tokens in `text` by the rough estimate ({@link tokensForChars} of its length). */
export function estimateTokens(text: string): number {
  return tokensForChars(text.length);
}
