import { and, asc, eq, sql } from 'drizzle-orm';
import { orgProviderKeys } from '../schema/org-provider-keys.js';
import { type Drizzle, isUuid } from './drizzle.js';

/**
 * An organisation's own provider credential (BYOK) as stored: sealed with AES-256-GCM by the
 * caller (this package never sees the secret in clear).
 */
export interface ProviderKeyRecord {
  orgId: string;
  /** Provider id, e.g. `openai`, `groq`. */
  provider: string;
  ciphertext: Uint8Array;
  /** The GCM nonce (12 bytes, random per secret). */
  iv: Uint8Array;
  /** The GCM authentication tag (16 bytes). */
  tag: Uint8Array;
  /** Which encryption key sealed it (rotation). */
  keyVersion: string;
  /** The secret's last 4 characters: the only part ever shown back. */
  last4: string;
  createdAt: Date;
  /** Moves on every put. */
  updatedAt: Date;
}

export type NewProviderKey = Omit<ProviderKeyRecord, 'orgId' | 'createdAt' | 'updatedAt'>;

/** Each organisation's own provider credentials, one per provider. */
export interface ProviderKeyRepository {
  /** The organisation's credentials by provider id; empty for unknown (or malformed) ids. */
  list(orgId: string): Promise<ProviderKeyRecord[]>;
  get(orgId: string, provider: string): Promise<ProviderKeyRecord | undefined>;
  /**
   * Stores the credential or replaces the one for that provider (`createdAt` is kept).
   * Rejects when the organisation does not exist.
   */
  put(orgId: string, key: NewProviderKey): Promise<{ key: ProviderKeyRecord; created: boolean }>;
  /** False when there was none. */
  delete(orgId: string, provider: string): Promise<boolean>;
}

type Row = typeof orgProviderKeys.$inferSelect;

function toRecord(row: Row): ProviderKeyRecord {
  return {
    orgId: row.orgId,
    provider: row.provider,
    ciphertext: row.ciphertext,
    iv: row.iv,
    tag: row.tag,
    keyVersion: row.keyVersion,
    last4: row.last4,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function createProviderKeyRepository(db: Drizzle): ProviderKeyRepository {
  return {
    async list(orgId) {
      if (!isUuid(orgId)) return [];
      const rows = await db.select().from(orgProviderKeys).where(eq(orgProviderKeys.orgId, orgId)).orderBy(asc(orgProviderKeys.provider));
      return rows.map(toRecord);
    },

    async get(orgId, provider) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db
        .select()
        .from(orgProviderKeys)
        .where(and(eq(orgProviderKeys.orgId, orgId), eq(orgProviderKeys.provider, provider)))
        .limit(1);
      return row ? toRecord(row) : undefined;
    },

    async put(orgId, key) {
      const values = { ciphertext: key.ciphertext, iv: key.iv, tag: key.tag, keyVersion: key.keyVersion, last4: key.last4 };
      const [row] = await db
        .insert(orgProviderKeys)
        .values({ orgId, provider: key.provider, ...values })
        .onConflictDoUpdate({ target: [orgProviderKeys.orgId, orgProviderKeys.provider], set: { ...values, updatedAt: sql`now()` } })
        // xmax is 0 on a freshly inserted row version, non-zero when the upsert updated.
        .returning({
          orgId: orgProviderKeys.orgId,
          provider: orgProviderKeys.provider,
          ciphertext: orgProviderKeys.ciphertext,
          iv: orgProviderKeys.iv,
          tag: orgProviderKeys.tag,
          keyVersion: orgProviderKeys.keyVersion,
          last4: orgProviderKeys.last4,
          createdAt: orgProviderKeys.createdAt,
          updatedAt: orgProviderKeys.updatedAt,
          created: sql<boolean>`(xmax = 0)`,
        });
      const { created, ...stored } = row!;
      return { key: toRecord(stored), created };
    },

    async delete(orgId, provider) {
      if (!isUuid(orgId)) return false;
      const rows = await db
        .delete(orgProviderKeys)
        .where(and(eq(orgProviderKeys.orgId, orgId), eq(orgProviderKeys.provider, provider)))
        .returning({ provider: orgProviderKeys.provider });
      return rows.length > 0;
    },
  };
}
