import { and, desc, eq, lt, or } from 'drizzle-orm';
import { memoriesLegacy } from '../schema/memories-legacy.js';
import { type Drizzle, isUuid } from './drizzle.js';

/** A memory as releases before migration 0009 kept it: a verbatim line of an organisation's conversations. */
export interface LegacyMemoryRecord {
  id: string;
  orgId: string;
  conversationId: string | null;
  /** `user` or `assistant`: who said it. */
  role: string;
  text: string;
  entities: unknown[];
  createdAt: Date;
}

export interface LegacyMemoryListOptions {
  /** Most rows, newest first (default 100). */
  limit?: number;
  /** Only rows older than this one (pagination cursor). */
  before?: { id: string; createdAt: Date };
}

/**
 * Each organisation's memories from before migration 0009, which the memory stage never recalls
 * (see schema/memories-legacy.ts): kept for the admin to read, export and delete.
 */
export interface LegacyMemoryRepository {
  /** Newest first. */
  list(orgId: string, options?: LegacyMemoryListOptions): Promise<LegacyMemoryRecord[]>;
  /** Removes every legacy memory of the organisation; returns how many. */
  deleteByOrg(orgId: string): Promise<number>;
}

export function createLegacyMemoryRepository(db: Drizzle): LegacyMemoryRepository {
  return {
    async list(orgId, options = {}) {
      if (!isUuid(orgId)) return [];
      const { before } = options;
      const older = before
        ? or(lt(memoriesLegacy.createdAt, before.createdAt), and(eq(memoriesLegacy.createdAt, before.createdAt), lt(memoriesLegacy.id, before.id)))
        : undefined;
      return db
        .select()
        .from(memoriesLegacy)
        .where(and(eq(memoriesLegacy.orgId, orgId), older))
        .orderBy(desc(memoriesLegacy.createdAt), desc(memoriesLegacy.id))
        .limit(options.limit ?? 100);
    },

    async deleteByOrg(orgId) {
      if (!isUuid(orgId)) return 0;
      const rows = await db.delete(memoriesLegacy).where(eq(memoriesLegacy.orgId, orgId)).returning({ id: memoriesLegacy.id });
      return rows.length;
    },
  };
}
