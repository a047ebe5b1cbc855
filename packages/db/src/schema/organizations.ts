import type { Guardrails, ModelAccess } from '@svc/core';
import { bigint, boolean, doublePrecision, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Tenants: every key, ledger row and decision belongs to one. Limits are null when unlimited. */
export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  plan: text('plan').notNull().default('free'),
  rpmLimit: integer('rpm_limit'),
  tpmLimit: integer('tpm_limit'),
  monthlyBudgetUsd: doublePrecision('monthly_budget_usd'),
  tokenQuota: bigint('token_quota', { mode: 'number' }),
  defaultIntelligenceMode: text('default_intelligence_mode'),
  freeModelsOnly: boolean('free_models_only').notNull().default(false),
  /** Explicit `<provider>/<model>` names the catalog does not list are forwarded as named (false: 404). */
  passThroughModels: boolean('pass_through_models').notNull().default(true),
  /** `end_user` (null: the default) or `organization`: how far memory recall reaches. */
  memoryScope: text('memory_scope'),
  /** Models and aliases the organisation may use (`{allow, deny}`); null = any. */
  modelAccess: jsonb('model_access').$type<ModelAccess>(),
  /** Content checks on the organisation's chat requests, in order; null = none. */
  guardrails: jsonb('guardrails').$type<Guardrails>(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** Free-form per-organisation settings (one JSON document per org). */
export const orgSettings = pgTable('org_settings', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
