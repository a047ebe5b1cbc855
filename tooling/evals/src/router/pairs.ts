import type { ModelSpec } from '@svc/router';
import type { Item } from './data.js';

/** A strong/weak pair evaluated on one source, with blended list prices (USD per M tokens). */
export interface Pair {
  source: string;
  strong: string;
  weak: string;
  prices: { strong: number; weak: number };
}

/**
 * The pairs measured: RouteLLM's own (GPT-4 vs Mixtral, at RouteLLM's prices) and on MMLU-Pro a
 * frontier/open pair and a large/small pair of one family; on LLMRouter's tasks Nemotron-51B against
 * the two 7B models it beats by 18-34 points (Llama-3.1-8B trails it by 6 points overall and leads
 * it on some tasks: APGR is meaningless at so small a gap). Blended list prices of 2024.
 */
export const pairs: readonly Pair[] = [
  { source: 'routellm-mmlu', strong: 'gpt-4-1106-preview', weak: 'mistralai/Mixtral-8x7B-Instruct-v0.1', prices: { strong: 24.7, weak: 0.24 } },
  { source: 'mmlu-pro', strong: 'gemini-1.5-pro-002', weak: 'Mixtral-8x7B-Instruct-v0.1', prices: { strong: 2.19, weak: 0.24 } },
  { source: 'mmlu-pro', strong: 'Meta-Llama-3_1-70B-Instruct', weak: 'Meta-Llama-3_1-8B-Instruct', prices: { strong: 0.88, weak: 0.18 } },
  { source: 'llmrouter', strong: 'llama-3.1-nemotron-51b-instruct', weak: 'mistral-7b-instruct-v0.3', prices: { strong: 0.88, weak: 0.2 } },
  { source: 'llmrouter', strong: 'llama-3.1-nemotron-51b-instruct', weak: 'codegemma-7b', prices: { strong: 0.88, weak: 0.15 } },
  // Open chat (Arena prompts, judge score >= 8): RouteLLM's pair at its prices, then two pairs of one vendor at 2024 list prices blended 3:1 input:output.
  { source: 'arena-bench', strong: 'gpt-4-1106-preview', weak: 'mistralai/Mixtral-8x7B-Instruct-v0.1', prices: { strong: 24.7, weak: 0.24 } },
  { source: 'arena-bench', strong: 'gpt-4-0314', weak: 'gpt-3.5-turbo', prices: { strong: 37.5, weak: 0.75 } },
  { source: 'arena-bench', strong: 'claude-2.1', weak: 'claude-instant-1', prices: { strong: 12, weak: 1.2 } },
];

/**
 * The prompts a pair's quality priors are measured on: its source's training prompts, or, when the
 * whole source is held out (leave-one-source-out), the source's own prompts: one accuracy per model,
 * what the published benchmark score gives an operator; no per-prompt label reaches the router.
 */
export function priorPool(pair: Pair, train: readonly Item[], dev: readonly Item[]): Item[] {
  const own = train.filter((i) => i.source === pair.source);
  return own.length > 0 ? own : dev.filter((i) => i.source === pair.source);
}

/** Share of `items` a model answered correctly (items it has no answer for are skipped). */
export function accuracy(items: readonly Item[], model: string): number {
  let n = 0;
  let right = 0;
  for (const item of items) {
    const ok = item.correct[model];
    if (ok === undefined) continue;
    n++;
    if (ok) right++;
  }
  return n === 0 ? 0 : right / n;
}

/**
 * The pair as a user of the router declares it: a minimal spec each, the quality prior being the
 * model's accuracy on `own` ({@link priorPool}).
 */
export function pairSpecs(pair: Pair, own: readonly Item[]): ModelSpec[] {
  return [
    { id: `eval/${pair.strong}`, inputPricePerMTok: pair.prices.strong, outputPricePerMTok: pair.prices.strong, qualityPrior: accuracy(own, pair.strong) },
    { id: `eval/${pair.weak}`, inputPricePerMTok: pair.prices.weak, outputPricePerMTok: pair.prices.weak, qualityPrior: accuracy(own, pair.weak) },
  ];
}
