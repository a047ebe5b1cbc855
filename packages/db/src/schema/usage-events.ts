import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The usage ledger: one row per billed request. `request_id` is the idempotency key, so a
 * batch replayed after a crash or by a second drainer never double-counts.
 */
export const usageEvents = pgTable(
  'usage_events',
  {
    requestId: text('request_id').primaryKey(),
    orgId: uuid('org_id').notNull(),
    keyId: text('key_id'),
    model: text('model').notNull(),
    provider: text('provider').notNull(),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    cachedTokens: integer('cached_tokens').notNull().default(0),
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    baselineCostUsd: doublePrecision('baseline_cost_usd').notNull().default(0),
    /** What the request would have cost at interactive prices when it was billed at another (a batch line a provider's batch API answered); null when billed at them. */
    interactiveCostUsd: doublePrecision('interactive_cost_usd'),
    cacheHit: boolean('cache_hit').notNull().default(false),
    latencyMs: integer('latency_ms').notNull().default(0),
    status: integer('status').notNull(),
    stream: boolean('stream').notNull().default(false),
    usageEstimated: boolean('usage_estimated').notNull().default(false),
    /** A model without a known price served the request: tokens counted, `cost_usd` holds only the priced part. */
    unpriced: boolean('unpriced').notNull().default(false),
    /** The request's end user as the access log writes it (`u:` + 32 hex of SHA-256, `endUserSubject`); null when none was named. */
    endUser: text('end_user'),
    /** Memories the memory stage injected into the prompt (mode `full`); null when the stage did not run. */
    memoryInjected: integer('memory_injected'),
    /** The request's metadata (`metadata`, string to string): the tags spend is attributed by; null when it sent none. */
    tags: jsonb('tags').$type<Record<string, string>>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('usage_events_org_created_idx').on(table.orgId, table.createdAt),
    index('usage_events_created_idx').on(table.createdAt),
    index('usage_events_org_end_user_created_idx').on(table.orgId, table.endUser, table.createdAt),
  ],
);
