import { boolean, doublePrecision, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Each organisation's output verification defaults (`/v1/output/config`); no row = the gateway's defaults. */
export const orgOutputConfigs = pgTable('org_output_configs', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  outputVerification: text('output_verification').notNull().default('auto'),
  healing: boolean('healing').notNull().default(true),
  minConfidence: doublePrecision('min_confidence').notNull().default(0),
  maxReasks: integer('max_reasks').notNull().default(1),
  crossModelCandidate: text('cross_model_candidate'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
