/**
 * The share of its interactive token prices a provider's own batch API charges (0.5: half
 * price), for providers whose batch API the gateway submits to. A model's `batchPriceFactor`
 * overrides its provider's. Sources, read 2026-12-03: developers.openai.com/api/docs/guides/batch
 * ("50% cost discount compared to synchronous APIs") and
 * platform.claude.com/docs/en/build-with-claude/batch-processing ("all usage is charged at 50% of
 * the standard API prices"; prompt-caching multipliers stack on the batch price).
 */
export const providerBatchPriceFactors: Readonly<Record<string, number>> = {
  openai: 0.5,
  anthropic: 0.5,
};
