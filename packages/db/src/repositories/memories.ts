import { and, desc, eq, inArray } from 'drizzle-orm';
import { memories, type StoredMemoryEntity } from '../schema/memories.js';
import { type Drizzle, isUuid } from './drizzle.js';

export type MemoryEntityRecord = StoredMemoryEntity;

export interface MemoryRecord {
  id: string;
  orgId: string;
  conversationId: string | null;
  /** `user`, `assistant` or `system`: who said it. */
  role: string;
  text: string;
  entities: MemoryEntityRecord[];
  createdAt: Date;
}

export interface NewMemory {
  /** A UUID chosen by the caller (it doubles as the vector id); generated when absent. */
  id?: string;
  conversationId?: string | null;
  role: string;
  text: string;
  entities?: readonly MemoryEntityRecord[];
}

/** A memory written in a batch: its id and time are the caller's (the vector already carries the id). */
export interface NewMemoryRow extends NewMemory {
  id: string;
  orgId: string;
  createdAt: Date;
}

export interface MemoryListOptions {
  /** Only this conversation's memories when given. */
  conversationId?: string;
  /** Most rows, newest first (default 50). */
  limit?: number;
}

/** Each organisation's memories; no method ever returns another organisation's rows. */
export interface MemoryRepository {
  /** Rejects when the organisation does not exist. */
  insert(orgId: string, memory: NewMemory): Promise<MemoryRecord>;
  /**
   * Writes many memories in one statement (any organisations); an id already stored is skipped.
   * Returns the rows written. Rejects when an organisation does not exist (nothing is written).
   */
  insertMany(rows: readonly NewMemoryRow[]): Promise<number>;
  /** The given ids that belong to `orgId`, in no particular order; unknown ids are skipped. */
  getMany(orgId: string, ids: readonly string[]): Promise<MemoryRecord[]>;
  /** Newest first. */
  listRecent(orgId: string, options?: MemoryListOptions): Promise<MemoryRecord[]>;
  /** Removes every memory of the organisation; returns how many. */
  deleteByOrg(orgId: string): Promise<number>;
}

type Row = typeof memories.$inferSelect;

const toRecord = (row: Row): MemoryRecord => ({
  id: row.id,
  orgId: row.orgId,
  conversationId: row.conversationId,
  role: row.role,
  text: row.text,
  entities: row.entities.map((entity) => ({ type: entity.type, value: entity.value })),
  createdAt: row.createdAt,
});

export function createMemoryRepository(db: Drizzle): MemoryRepository {
  return {
    async insert(orgId, memory) {
      const [row] = await db
        .insert(memories)
        .values({
          ...(memory.id !== undefined ? { id: memory.id } : {}),
          orgId,
          conversationId: memory.conversationId ?? null,
          role: memory.role,
          text: memory.text,
          entities: (memory.entities ?? []).map((entity) => ({ type: entity.type, value: entity.value })),
        })
        .returning();
      return toRecord(row!);
    },

    async insertMany(rows) {
      if (rows.length === 0) return 0;
      const written = await db
        .insert(memories)
        .values(
          rows.map((row) => ({
            id: row.id,
            orgId: row.orgId,
            conversationId: row.conversationId ?? null,
            role: row.role,
            text: row.text,
            entities: (row.entities ?? []).map((entity) => ({ type: entity.type, value: entity.value })),
            createdAt: row.createdAt,
          })),
        )
        .onConflictDoNothing({ target: memories.id })
        .returning({ id: memories.id });
      return written.length;
    },

    async getMany(orgId, ids) {
      const valid = ids.filter(isUuid);
      if (!isUuid(orgId) || valid.length === 0) return [];
      const rows = await db
        .select()
        .from(memories)
        .where(and(eq(memories.orgId, orgId), inArray(memories.id, valid)));
      return rows.map(toRecord);
    },

    async listRecent(orgId, options = {}) {
      if (!isUuid(orgId)) return [];
      const scope =
        options.conversationId !== undefined
          ? and(eq(memories.orgId, orgId), eq(memories.conversationId, options.conversationId))
          : eq(memories.orgId, orgId);
      const rows = await db
        .select()
        .from(memories)
        .where(scope)
        .orderBy(desc(memories.createdAt), desc(memories.id))
        .limit(options.limit ?? 50);
      return rows.map(toRecord);
    },

    async deleteByOrg(orgId) {
      if (!isUuid(orgId)) return 0;
      const rows = await db.delete(memories).where(eq(memories.orgId, orgId)).returning({ id: memories.id });
      return rows.length;
    },
  };
}
