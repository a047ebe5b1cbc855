/** Days back the seeded ledger spans; the report the loop asks for reads {@link REPORT_DAYS}, so every row is in it. */
export const LEDGER_DAYS = 28;
/** The window of the report the loop asks for, days. */
export const REPORT_DAYS = 30;

const DAY_MS = 86_400_000;
const MODELS = [
  ['openai/gpt-4o-mini', 'openai'],
  ['anthropic/claude-3-5-haiku', 'anthropic'],
  ['openai/gpt-4o', 'openai'],
  ['groq/llama-3.3-70b-versatile', 'groq'],
] as const;

/** One seeded usage row, in the shape of `@svc/db`'s `NewUsageEvent`. */
export interface SeedUsageRow {
  requestId: string;
  orgId: string;
  keyId: null;
  model: string;
  provider: string;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  baselineCostUsd: number;
  latencyMs: number;
  status: number;
  createdAt: Date;
}

/**
 * Row `i` of `total` of a seeded ledger: a plausible answered request (a few models, tokens and
 * latencies that vary, one in 50 failed), spread evenly over the last {@link LEDGER_DAYS} days
 * before `nowMs`, so a report over the last {@link REPORT_DAYS} days reads every row.
 */
export function seedUsageRow(i: number, total: number, nowMs: number, orgId: string): SeedUsageRow {
  const [model, provider] = MODELS[i % MODELS.length] as (typeof MODELS)[number];
  const promptTokens = 20 + (i % 480);
  const completionTokens = 10 + ((i * 7) % 290);
  const costUsd = (promptTokens * 0.15 + completionTokens * 0.6) / 1e6;
  return {
    requestId: `bench-seed-${i}`,
    orgId,
    keyId: null,
    model,
    provider,
    promptTokens,
    completionTokens,
    costUsd,
    baselineCostUsd: costUsd * 4,
    latencyMs: 150 + ((i * 13) % 1850),
    status: i % 50 === 49 ? 502 : 200,
    createdAt: new Date(nowMs - 60_000 - Math.floor((i / total) * LEDGER_DAYS * DAY_MS)),
  };
}
