import type { ChatResult } from '@svc/core';

/**
 * For `n` > 1 when the provider returned fewer choices, the first choice is replicated to the
 * requested count (spec §Chat completion response). Returns how many were added.
 */
export function replicateChoices(result: ChatResult, n: number): number {
  const first = result.choices[0];
  if (!first || result.choices.length >= n) return 0;
  const added = n - result.choices.length;
  for (let index = result.choices.length; index < n; index++) result.choices.push({ ...first, index });
  return added;
}
