import { and, asc, eq, sql } from 'drizzle-orm';
import { toDbError } from '../errors.js';
import { dashboardUsers, passkeys } from '../schema/dashboard-users.js';
import { type DashboardUserRecord, toDashboardUser } from './dashboard-users.js';
import { type Drizzle, isUuid } from './drizzle.js';

/** A stored passkey (WebAuthn credential) of a dashboard user. */
export interface PasskeyRecord {
  /** `pk_...`, safe to show. */
  id: string;
  userId: string;
  name: string;
  /** base64url credential id: what the authenticator presents; never shown back. */
  credentialId: string;
  /** base64url COSE public key; never shown back. */
  publicKey: string;
  /** The authenticator's signature counter as last seen (0 for authenticators without one). */
  counter: number;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type NewPasskey = Omit<PasskeyRecord, 'createdAt' | 'lastUsedAt'>;

/** Passkeys of dashboard users. */
export interface PasskeyRepository {
  /** Throws DbConflictError when the credential id is already registered (to anyone). */
  create(input: NewPasskey): Promise<PasskeyRecord>;
  /** The passkey presenting this credential id, with its user. */
  findByCredentialId(credentialId: string): Promise<{ passkey: PasskeyRecord; user: DashboardUserRecord } | undefined>;
  /** A user's passkeys, oldest first. */
  listByUser(userId: string): Promise<PasskeyRecord[]>;
  /**
   * Records a sign-in: stores `counter` and `lastUsedAt` only when the counter moved forward (or
   * both are 0, for authenticators without a counter). False otherwise: a cloned authenticator,
   * or a concurrent sign-in that already used this value.
   */
  recordUse(id: string, counter: number): Promise<boolean>;
  /** Deletes one of the user's passkeys; false when the user has none with this id. */
  delete(userId: string, id: string): Promise<boolean>;
}

type Row = typeof passkeys.$inferSelect;

function toPasskey(row: Row): PasskeyRecord {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    credentialId: row.credentialId,
    publicKey: row.publicKey,
    counter: row.counter,
    transports: [...row.transports],
    deviceType: row.deviceType,
    backedUp: row.backedUp,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

export function createPasskeyRepository(db: Drizzle): PasskeyRepository {
  return {
    async create(input) {
      try {
        const [row] = await db
          .insert(passkeys)
          .values({ ...input, transports: [...input.transports] })
          .returning();
        return toPasskey(row!);
      } catch (error) {
        throw toDbError(error, 'passkey already registered');
      }
    },

    async findByCredentialId(credentialId) {
      const [row] = await db
        .select({ passkey: passkeys, user: dashboardUsers })
        .from(passkeys)
        .innerJoin(dashboardUsers, eq(dashboardUsers.id, passkeys.userId))
        .where(eq(passkeys.credentialId, credentialId))
        .limit(1);
      return row ? { passkey: toPasskey(row.passkey), user: toDashboardUser(row.user) } : undefined;
    },

    async listByUser(userId) {
      if (!isUuid(userId)) return [];
      const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
      return rows.map(toPasskey);
    },

    async recordUse(id, counter) {
      const rows = await db
        .update(passkeys)
        .set({ counter, lastUsedAt: sql`now()` })
        .where(and(eq(passkeys.id, id), sql`(${passkeys.counter} < ${counter} OR (${passkeys.counter} = 0 AND ${counter}::bigint = 0))`))
        .returning({ id: passkeys.id });
      return rows.length > 0;
    },

    async delete(userId, id) {
      if (!isUuid(userId)) return false;
      const rows = await db
        .delete(passkeys)
        .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
        .returning({ id: passkeys.id });
      return rows.length > 0;
    },
  };
}
