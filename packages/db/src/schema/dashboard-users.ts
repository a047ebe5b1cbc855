import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * People who sign in to the dashboard (not API keys): one organisation each, role `admin`
 * (the whole fleet) or `member` (their own organisation). `webauthn_user_id` is the WebAuthn user
 * handle, random so it says nothing about the person. A pending enrollment link is kept as the
 * SHA-256 of its token with its expiry; redeeming clears both (single use).
 */
export const dashboardUsers = pgTable(
  'dashboard_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower-cased. */
    email: text('email').notNull().unique(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'member'] }).notNull(),
    webauthnUserId: text('webauthn_user_id').notNull().unique(),
    enrollmentTokenHash: text('enrollment_token_hash').unique(),
    enrollmentExpiresAt: timestamptz('enrollment_expires_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastLoginAt: timestamptz('last_login_at'),
    /** Set while the user may not sign in; their sessions end when it is set. */
    disabledAt: timestamptz('disabled_at'),
    /** Sessions carry the generation they were made in; raising it ends every session of the user, on every instance. */
    sessionGeneration: integer('session_generation').notNull().default(0),
  },
  (table) => [index('dashboard_users_org_id_idx').on(table.orgId)],
);

/**
 * Passkeys (WebAuthn credentials) of dashboard users. The credential id and public key are
 * base64url; `counter` is the authenticator's signature counter, which only moves forward.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    deviceType: text('device_type', { enum: ['singleDevice', 'multiDevice'] }).notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (table) => [index('passkeys_user_id_idx').on(table.userId)],
);
