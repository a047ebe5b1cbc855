import { doublePrecision, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

/**
 * Shadow judging's verdicts (docs/routing.md, "Shadow judging"): for a sampled request, the
 * served (incumbent) model's answer against a candidate model's answer to the same request, as
 * the organisation's judge model ruled in both orders. `verdict` is `candidate`, `incumbent` or
 * `tie` (the two orders disagreed, or the judge said so). Costs are what the candidate and the
 * two judge calls cost, billed in the ledger as `<request id>:shadow` and `<request id>:judge`.
 */
export const shadowVerdicts = pgTable(
  'shadow_verdicts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    requestId: text('request_id').notNull(),
    /** The task family the router classified the request as; `unknown` when it did not. */
    taskKind: text('task_kind').notNull(),
    incumbentModel: text('incumbent_model').notNull(),
    candidateModel: text('candidate_model').notNull(),
    judgeModel: text('judge_model').notNull(),
    verdict: text('verdict').notNull(),
    candidateCostUsd: doublePrecision('candidate_cost_usd').notNull().default(0),
    judgeCostUsd: doublePrecision('judge_cost_usd').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('shadow_verdicts_org_created_idx').on(table.orgId, table.createdAt)],
);
