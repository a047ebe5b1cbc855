/** What context assembly needs of a memory. */
export interface ContextMemory {
  text: string;
}

/** Rough token count: ~4 characters per token, the English average. */
export const approximateTokens = (text: string): number => Math.ceil(text.length / 4);

const HEADER = 'What this user told you in earlier conversations (may be outdated; use only when it helps answer):';

/**
 * A system message text holding as many of `memories` (best first) as fit in `tokenBudget`
 * tokens, header included, counted with `countTokens` (default {@link approximateTokens}).
 * A memory that does not fit is skipped, not cut; empty string when none fits.
 */
export function assembleContext(
  memories: readonly ContextMemory[],
  tokenBudget: number,
  countTokens: (text: string) => number = approximateTokens,
): string {
  let used = countTokens(HEADER);
  if (used > tokenBudget) return '';
  const lines: string[] = [];
  for (const memory of memories) {
    const line = `- ${memory.text.replace(/\s+/g, ' ').trim()}`;
    const cost = countTokens(line) + 1;
    if (used + cost > tokenBudget) continue;
    used += cost;
    lines.push(line);
  }
  return lines.length === 0 ? '' : [HEADER, ...lines].join('\n');
}
