import type { ReasoningEffort } from '@svc/core';

/**
 * The provider output limit (`max_tokens`) of a request that thinks with `budget` tokens, for
 * providers that count thinking inside it (Anthropic, Claude on Bedrock and Vertex). The canonical
 * `maxTokens` counts reasoning too (Anthropic's and OpenAI's clients both mean that), so a budget
 * that fits is sent as the client's limit unchanged. A budget that does not fit (an OpenAI-style
 * client asking for a high effort with a small limit) is added on top, since Anthropic requires
 * `budget_tokens < max_tokens`: the client's limit then still bounds the visible answer. Without
 * a limit, `fallback` (the visible answer's default) plus the budget.
 */
export function maxTokensWithThinking(maxTokens: number | undefined, budget: number, fallback: number): number {
  if (maxTokens !== undefined && budget < maxTokens) return maxTokens;
  return (maxTokens ?? fallback) + budget;
}

/**
 * The reasoning effort of a thinking budget, for providers that take an effort rather than a
 * budget (OpenAI's `reasoning_effort`): the lowest effort whose budget on Anthropic
 * (low 2048, medium 8192, high 16384) covers it. Never `minimal`, which o-series models refuse.
 */
export function effortForBudget(budget: number): ReasoningEffort {
  if (budget <= 2048) return 'low';
  if (budget <= 8192) return 'medium';
  return 'high';
}
