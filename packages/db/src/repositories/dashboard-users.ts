import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { toDbError } from '../errors.js';
import { dashboardUsers } from '../schema/dashboard-users.js';
import { type Drizzle, isUuid } from './drizzle.js';
import { type Page, type PageRequest, afterRow, toPage } from './keyset-page.js';

export type DashboardRole = 'admin' | 'member';

/** A person who signs in to the dashboard. */
export interface DashboardUserRecord {
  id: string;
  /** Lower-cased. */
  email: string;
  orgId: string;
  role: DashboardRole;
  /** The WebAuthn user handle (base64url, random). */
  webauthnUserId: string;
  /** Expiry of the pending enrollment link; null when none is pending. */
  enrollmentExpiresAt: Date | null;
  createdAt: Date;
  lastLoginAt: Date | null;
  /** Set while the user may not sign in. */
  disabledAt: Date | null;
  /** A session is live only while it carries this generation; raising it ends them all. */
  sessionGeneration: number;
}

/** What an administrator changes of a user; an absent field stays as it is. */
export interface DashboardUserPatch {
  role?: DashboardRole;
  /** true sets `disabledAt` (kept when already set), false clears it. */
  disabled?: boolean;
}

export interface NewDashboardUser {
  email: string;
  orgId: string;
  role: DashboardRole;
  webauthnUserId: string;
}

/** Dashboard users and their one-time enrollment links. */
export interface DashboardUserRepository {
  /** Throws DbConflictError when the e-mail (compared lower-cased) is taken; rejects for an unknown org. */
  create(input: NewDashboardUser): Promise<DashboardUserRecord>;
  get(id: string): Promise<DashboardUserRecord | undefined>;
  /** Case-insensitive. */
  getByEmail(email: string): Promise<DashboardUserRecord | undefined>;
  /** Users of one organisation, or all; oldest first. */
  list(orgId?: string): Promise<DashboardUserRecord[]>;
  /** One page of {@link list} in `(created_at, id)` order (`after` a user id). */
  page(request: PageRequest & { orgId?: string | undefined }): Promise<Page<DashboardUserRecord>>;
  /** Changes the role or disables (or enables) the user. Undefined for an unknown user. */
  update(id: string, patch: DashboardUserPatch): Promise<DashboardUserRecord | undefined>;
  /** Raises the session generation: every session of the user ends. Undefined for an unknown user. */
  endSessions(id: string): Promise<DashboardUserRecord | undefined>;
  /** Deletes the user and their passkeys; false for an unknown user. */
  delete(id: string): Promise<boolean>;
  /**
   * Replaces the user's pending enrollment link (SHA-256 of its token) and its expiry: an
   * earlier link stops working. Undefined for an unknown user.
   */
  setEnrollment(id: string, tokenHash: string, expiresAt: Date): Promise<DashboardUserRecord | undefined>;
  /**
   * Redeems an enrollment link atomically: of concurrent callers exactly one gets the user, and
   * only before the expiry. The link is spent either way once found.
   */
  redeemEnrollment(tokenHash: string): Promise<DashboardUserRecord | undefined>;
  /** Sets `lastLoginAt` to now. */
  touchLogin(id: string): Promise<void>;
}

type Row = typeof dashboardUsers.$inferSelect;

export function toDashboardUser(row: Row): DashboardUserRecord {
  return {
    id: row.id,
    email: row.email,
    orgId: row.orgId,
    role: row.role,
    webauthnUserId: row.webauthnUserId,
    enrollmentExpiresAt: row.enrollmentExpiresAt,
    createdAt: row.createdAt,
    lastLoginAt: row.lastLoginAt,
    disabledAt: row.disabledAt,
    sessionGeneration: row.sessionGeneration,
  };
}

async function pageUsers(db: Drizzle, { orgId, after, limit }: PageRequest & { orgId?: string | undefined }): Promise<Page<DashboardUserRecord>> {
  if ((orgId !== undefined && !isUuid(orgId)) || (after !== undefined && !isUuid(after))) return { data: [], hasMore: false };
  const where = and(orgId === undefined ? undefined : eq(dashboardUsers.orgId, orgId), after === undefined ? undefined : afterRow({ table: dashboardUsers, createdAt: dashboardUsers.createdAt, id: dashboardUsers.id }, after));
  const rows = await db.select().from(dashboardUsers).where(where).orderBy(asc(dashboardUsers.createdAt), asc(dashboardUsers.id)).limit(limit + 1);
  return toPage(rows.map(toDashboardUser), limit);
}

async function updateUser(db: Drizzle, id: string, patch: DashboardUserPatch): Promise<DashboardUserRecord | undefined> {
  if (!isUuid(id)) return undefined;
  if (patch.role !== undefined) await db.update(dashboardUsers).set({ role: patch.role }).where(eq(dashboardUsers.id, id));
  if (patch.disabled === true) await db.update(dashboardUsers).set({ disabledAt: sql`now()` }).where(and(eq(dashboardUsers.id, id), isNull(dashboardUsers.disabledAt)));
  if (patch.disabled === false) await db.update(dashboardUsers).set({ disabledAt: null }).where(eq(dashboardUsers.id, id));
  return getUser(db, id);
}

async function getUser(db: Drizzle, id: string): Promise<DashboardUserRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(dashboardUsers).where(eq(dashboardUsers.id, id)).limit(1);
  return row ? toDashboardUser(row) : undefined;
}

async function endUserSessions(db: Drizzle, id: string): Promise<DashboardUserRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .update(dashboardUsers)
    .set({ sessionGeneration: sql`${dashboardUsers.sessionGeneration} + 1` })
    .where(eq(dashboardUsers.id, id))
    .returning();
  return row ? toDashboardUser(row) : undefined;
}

async function deleteUser(db: Drizzle, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.delete(dashboardUsers).where(eq(dashboardUsers.id, id)).returning({ id: dashboardUsers.id });
  return rows.length > 0;
}

export function createDashboardUserRepository(db: Drizzle): DashboardUserRepository {
  return {
    async create(input) {
      try {
        const [row] = await db
          .insert(dashboardUsers)
          .values({ email: input.email.toLowerCase(), orgId: input.orgId, role: input.role, webauthnUserId: input.webauthnUserId })
          .returning();
        return toDashboardUser(row!);
      } catch (error) {
        throw toDbError(error, `dashboard user already exists: ${input.email}`);
      }
    },

    get: (id) => getUser(db, id),

    async getByEmail(email) {
      const [row] = await db.select().from(dashboardUsers).where(eq(dashboardUsers.email, email.toLowerCase())).limit(1);
      return row ? toDashboardUser(row) : undefined;
    },

    async list(orgId) {
      if (orgId !== undefined && !isUuid(orgId)) return [];
      const query = db.select().from(dashboardUsers);
      const rows = await (orgId === undefined ? query : query.where(eq(dashboardUsers.orgId, orgId))).orderBy(asc(dashboardUsers.createdAt), asc(dashboardUsers.email));
      return rows.map(toDashboardUser);
    },

    page: (request) => pageUsers(db, request),
    update: (id, patch) => updateUser(db, id, patch),
    endSessions: (id) => endUserSessions(db, id),
    delete: (id) => deleteUser(db, id),
    async setEnrollment(id, tokenHash, expiresAt) {
      if (!isUuid(id)) return undefined;
      const [row] = await db.update(dashboardUsers).set({ enrollmentTokenHash: tokenHash, enrollmentExpiresAt: expiresAt }).where(eq(dashboardUsers.id, id)).returning();
      return row ? toDashboardUser(row) : undefined;
    },

    async redeemEnrollment(tokenHash) {
      // One UPDATE: the row lock makes a second concurrent redeemer find the hash already cleared.
      const [row] = await db
        .update(dashboardUsers)
        .set({ enrollmentTokenHash: null, enrollmentExpiresAt: null })
        .where(and(eq(dashboardUsers.enrollmentTokenHash, tokenHash), gt(dashboardUsers.enrollmentExpiresAt, sql`now()`)))
        .returning();
      if (row) return toDashboardUser(row);
      // An expired link found here is spent too, so it cannot linger.
      await db.update(dashboardUsers).set({ enrollmentTokenHash: null, enrollmentExpiresAt: null }).where(eq(dashboardUsers.enrollmentTokenHash, tokenHash));
      return undefined;
    },

    async touchLogin(id) {
      if (!isUuid(id)) return;
      await db.update(dashboardUsers).set({ lastLoginAt: sql`now()` }).where(eq(dashboardUsers.id, id));
    },
  };
}
