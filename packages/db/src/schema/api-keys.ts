import type { Guardrails, ModelAccess } from '@svc/core';
import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** API keys; only the SHA-256 hex of the secret is stored. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name'),
    keyHash: text('key_hash').notNull().unique(),
    /** What listings and logs show of the key: `sk-svc-` and its public identifier, or `master`; never part of the secret. */
    keyPrefix: text('key_prefix').notNull(),
    /** `master`: set by SVC_MASTER_KEY (or `svc master-key rotate`); a newer one supersedes it. */
    kind: text('kind', { enum: ['standard', 'master'] })
      .notNull()
      .default('standard'),
    scopes: text('scopes').array().notNull().default([]),
    status: text('status', { enum: ['active', 'revoked'] })
      .notNull()
      .default('active'),
    expiresAt: timestamptz('expires_at'),
    /** Requests per minute for this key, on top of its organisation's; null = only the organisation's. */
    rpmLimit: integer('rpm_limit'),
    /** Tokens per minute for this key, on top of its organisation's; null = only the organisation's. */
    tpmLimit: integer('tpm_limit'),
    /** Spend cap of this key per calendar month (UTC), USD, on top of its organisation's budget; null = none of its own. */
    monthlyBudgetUsd: doublePrecision('monthly_budget_usd'),
    /** Models and aliases this key may use, on top of its organisation's lists; null = no lists of its own. */
    modelAccess: jsonb('model_access').$type<ModelAccess>(),
    /** This key's own content checks, run after its organisation's; null = none of its own. */
    guardrails: jsonb('guardrails').$type<Guardrails>(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    revokedAt: timestamptz('revoked_at'),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (table) => [index('api_keys_org_id_idx').on(table.orgId)],
);
