import { and, desc, eq, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { StoredMemory } from '@svc/core';
import { memories, type StoredMemoryEntity } from '../schema/memories.js';
import { type Drizzle, isUuid } from './drizzle.js';

export type MemoryEntityRecord = StoredMemoryEntity;

/** A stored fact with the vector the database keeps beside it. */
export interface MemoryRecord extends StoredMemory {
  /** The embedder `embedding` was made with; null when no vector is stored. */
  embedder: string | null;
  embedding: Float32Array | null;
  /** The fact that replaced this one (history); null while it is in force. */
  supersededBy: string | null;
}

/** A memory as written: its id, scope and times are the caller's (the vector already carries the id). */
export interface NewMemoryRow {
  id: string;
  orgId: string;
  subject: string;
  conversationId?: string | null;
  role: string;
  slot?: string | null;
  text: string;
  entities?: readonly MemoryEntityRecord[];
  embedder?: string | null;
  embedding?: Float32Array | null;
  /** Set when a newer fact replaced this one: the row stays as history, never listed or recalled. */
  supersededBy?: string | null;
  createdAt: Date;
  /** Defaults to `createdAt`. */
  updatedAt?: Date;
}

export interface MemoryListOptions {
  /** Only this scope's memories when given (else the whole organisation's). */
  subject?: string;
  /** Only this conversation's memories when given. */
  conversationId?: string;
  /** Most rows, most recently updated first (default 50). */
  limit?: number;
  /** Only rows that come after this one in that order (pagination cursor). */
  after?: { id: string; updatedAt: Date };
}

/** Each organisation's memories; no method ever returns or deletes another organisation's rows. */
export interface MemoryRepository {
  /**
   * Writes many memories in one statement (any organisations); a row whose id is stored already
   * is updated (text, slot, entities, vector, conversation, `supersededBy`, `updatedAt`). Returns the rows written.
   * Rejects when an organisation does not exist (nothing is written).
   */
  saveMany(rows: readonly NewMemoryRow[]): Promise<number>;
  /** The given ids that belong to `orgId` and are in force, in no particular order; unknown and superseded ids are skipped. */
  getMany(orgId: string, ids: readonly string[]): Promise<MemoryRecord[]>;
  /** Facts in force (never superseded ones), most recently updated first. */
  list(orgId: string, options?: MemoryListOptions): Promise<MemoryRecord[]>;
  /**
   * The newest memories in force of every organisation, at most `limit` (rebuilding an in-process
   * index). With `history`, superseded rows that keep their vector count too, in the same order and
   * bound (rows of an older release, superseded without a vector, never).
   */
  listNewest(limit: number, options?: { history?: boolean }): Promise<MemoryRecord[]>;
  /** Removes the given memories of `orgId`; returns the ids removed. */
  deleteMany(orgId: string, ids: readonly string[]): Promise<string[]>;
  /** Removes every memory of one scope; returns the ids removed. */
  deleteBySubject(orgId: string, subject: string): Promise<string[]>;
  /** Removes every memory of the organisation; returns how many. */
  deleteByOrg(orgId: string): Promise<number>;
  /** Removes memories last updated before `before` (retention); returns what was removed. */
  deleteOlderThan(before: Date): Promise<{ id: string; orgId: string }[]>;
}

type Row = typeof memories.$inferSelect;

/** The value an upsert's conflicting row proposed for `column`. */
const sqlExcluded = (column: string): SQL => sql.raw(`excluded."${column}"`);

function vectorOf(bytes: Uint8Array | null): Float32Array | null {
  if (!bytes || bytes.byteLength % 4 !== 0) return null;
  // A copy: the driver's buffer may be shared and unaligned.
  return new Float32Array(bytes.slice().buffer);
}

const bytesOf = (vector: Float32Array): Uint8Array => new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));

const toRecord = (row: Row): MemoryRecord => ({
  id: row.id,
  orgId: row.orgId,
  subject: row.subject,
  conversationId: row.conversationId,
  role: row.role,
  slot: row.slot,
  text: row.text,
  entities: row.entities.map((entity) => ({ type: entity.type, value: entity.value })),
  embedder: row.embedder,
  embedding: vectorOf(row.embedding),
  supersededBy: row.supersededBy,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

function toColumns(row: NewMemoryRow) {
  return {
    id: row.id,
    orgId: row.orgId,
    subject: row.subject,
    conversationId: row.conversationId ?? null,
    role: row.role,
    slot: row.slot ?? null,
    text: row.text,
    entities: (row.entities ?? []).map((entity) => ({ type: entity.type, value: entity.value })),
    embedder: row.embedding ? (row.embedder ?? null) : null,
    embedding: row.embedding ? bytesOf(row.embedding) : null,
    supersededBy: row.supersededBy ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt ?? row.createdAt,
  };
}

/** Writes a batch; a stored id is updated in place, never moved to another organisation or scope. */
async function saveMemories(db: Drizzle, rows: readonly NewMemoryRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  // One row per id: a batch may carry a fact and its later merge.
  const latest = new Map(rows.map((row) => [row.id, row]));
  const written = await db
    .insert(memories)
    .values([...latest.values()].map(toColumns))
    .onConflictDoUpdate({
      target: memories.id,
      set: {
        conversationId: sqlExcluded('conversation_id'),
        slot: sqlExcluded('slot'),
        text: sqlExcluded('text'),
        entities: sqlExcluded('entities'),
        embedder: sqlExcluded('embedder'),
        embedding: sqlExcluded('embedding'),
        supersededBy: sqlExcluded('superseded_by'),
        updatedAt: sqlExcluded('updated_at'),
      },
      // Never moves a row to another organisation or scope.
      setWhere: and(eq(memories.orgId, sqlExcluded('org_id')), eq(memories.subject, sqlExcluded('subject'))),
    })
    .returning({ id: memories.id });
  return written.length;
}

/** One page of an organisation's facts, newest first. */
async function listMemories(db: Drizzle, orgId: string, options: MemoryListOptions = {}): Promise<MemoryRecord[]> {
  if (!isUuid(orgId)) return [];
  const where: SQL[] = [eq(memories.orgId, orgId), isNull(memories.supersededBy)];
  if (options.subject !== undefined) where.push(eq(memories.subject, options.subject));
  if (options.conversationId !== undefined) where.push(eq(memories.conversationId, options.conversationId));
  const after = options.after;
  if (after && isUuid(after.id)) {
    where.push(or(lt(memories.updatedAt, after.updatedAt), and(eq(memories.updatedAt, after.updatedAt), lt(memories.id, after.id)))!);
  }
  const rows = await db
    .select()
    .from(memories)
    .where(and(...where))
    .orderBy(desc(memories.updatedAt), desc(memories.id))
    .limit(options.limit ?? 50);
  return rows.map(toRecord);
}

export function createMemoryRepository(db: Drizzle): MemoryRepository {
  return {
    saveMany: (rows) => saveMemories(db, rows),

    async getMany(orgId, ids) {
      const valid = ids.filter(isUuid);
      if (!isUuid(orgId) || valid.length === 0) return [];
      const rows = await db
        .select()
        .from(memories)
        .where(and(eq(memories.orgId, orgId), inArray(memories.id, valid), isNull(memories.supersededBy)));
      return rows.map(toRecord);
    },

    list: (orgId, options) => listMemories(db, orgId, options),

    async listNewest(limit, options = {}) {
      if (limit <= 0) return [];
      const kept = options.history ? or(isNull(memories.supersededBy), isNotNull(memories.embedding)) : isNull(memories.supersededBy);
      const rows = await db.select().from(memories).where(kept).orderBy(desc(memories.updatedAt), desc(memories.id)).limit(limit);
      return rows.map(toRecord);
    },

    async deleteMany(orgId, ids) {
      const valid = ids.filter(isUuid);
      if (!isUuid(orgId) || valid.length === 0) return [];
      const rows = await db
        .delete(memories)
        .where(and(eq(memories.orgId, orgId), inArray(memories.id, valid)))
        .returning({ id: memories.id });
      return rows.map((row) => row.id);
    },

    async deleteBySubject(orgId, subject) {
      if (!isUuid(orgId)) return [];
      const rows = await db
        .delete(memories)
        .where(and(eq(memories.orgId, orgId), eq(memories.subject, subject)))
        .returning({ id: memories.id });
      return rows.map((row) => row.id);
    },

    async deleteByOrg(orgId) {
      if (!isUuid(orgId)) return 0;
      const rows = await db.delete(memories).where(eq(memories.orgId, orgId)).returning({ id: memories.id });
      return rows.length;
    },

    async deleteOlderThan(before) {
      return db.delete(memories).where(lt(memories.updatedAt, before)).returning({ id: memories.id, orgId: memories.orgId });
    },
  };
}
