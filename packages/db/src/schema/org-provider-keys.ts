import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './bytea.js';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });


/**
 * An organisation's own provider credential (BYOK), one per (org, provider), sealed with
 * AES-256-GCM: the secret itself is never stored in clear. `key_version` names the encryption
 * key that sealed it, so the key can be rotated; `last4` is the only part shown back.
 */
export const orgProviderKeys = pgTable(
  'org_provider_keys',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    ciphertext: bytea('ciphertext').notNull(),
    iv: bytea('iv').notNull(),
    tag: bytea('tag').notNull(),
    keyVersion: text('key_version').notNull(),
    last4: text('last4').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'org_provider_keys_pkey', columns: [table.orgId, table.provider] })],
);
