import type { ChatMessage } from '@svc/core';
import { and, eq, gt, lte } from 'drizzle-orm';
import { storedResponses } from '../schema/stored-responses.js';
import { type Drizzle, isUuid } from './drizzle.js';

/** A kept Responses-API answer (see the `stored_responses` table). */
export interface StoredResponseRecord {
  /** `resp_...`. */
  id: string;
  orgId: string;
  model: string;
  /** The response's status: `completed` or `incomplete`. */
  status: string;
  /** The `response` object as it was answered. */
  response: object;
  /** The input items it answered, in wire shape. */
  inputItems: Record<string, unknown>[];
  /** The conversation up to and including the answer (no `instructions`), for `previous_response_id`. */
  messages: ChatMessage[];
  createdAt: Date;
  /** Never served from this instant on; swept by {@link ResponseRepository.deleteExpired}. */
  expiresAt: Date;
}

/** Each organisation's kept responses; no method returns or deletes another organisation's, nor an expired one. */
export interface ResponseRepository {
  /** Keeps one response; an id kept already is left as it is. */
  save(record: StoredResponseRecord): Promise<void>;
  /** The organisation's response `id` while it has not expired at `now`. */
  get(orgId: string, id: string, now?: Date): Promise<StoredResponseRecord | undefined>;
  /** Removes the organisation's response `id`; false when there is none (or it had expired). */
  delete(orgId: string, id: string, now?: Date): Promise<boolean>;
  /** Removes every response expired at `now` (any organisation); returns how many. */
  deleteExpired(now?: Date): Promise<number>;
}

type Row = typeof storedResponses.$inferSelect;

const toRecord = (row: Row): StoredResponseRecord => ({
  id: row.id,
  orgId: row.orgId,
  model: row.model,
  status: row.status,
  response: row.response,
  inputItems: row.inputItems,
  messages: row.messages,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
});

/** The organisation's live row `id`. */
const live = (orgId: string, id: string, now: Date) =>
  and(eq(storedResponses.orgId, orgId), eq(storedResponses.id, id), gt(storedResponses.expiresAt, now));

export function createResponseRepository(db: Drizzle): ResponseRepository {
  return {
    async save(record) {
      await db.insert(storedResponses).values(record).onConflictDoNothing({ target: storedResponses.id });
    },

    async get(orgId, id, now = new Date()) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db.select().from(storedResponses).where(live(orgId, id, now)).limit(1);
      return row ? toRecord(row) : undefined;
    },

    async delete(orgId, id, now = new Date()) {
      if (!isUuid(orgId)) return false;
      const rows = await db.delete(storedResponses).where(live(orgId, id, now)).returning({ id: storedResponses.id });
      return rows.length > 0;
    },

    async deleteExpired(now = new Date()) {
      const rows = await db.delete(storedResponses).where(lte(storedResponses.expiresAt, now)).returning({ id: storedResponses.id });
      return rows.length;
    },
  };
}
