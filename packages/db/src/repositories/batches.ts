import { type SQL, and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { type BatchHold, type BatchUsage, type NativeBatchPart, batchLines, batches } from '../schema/batches.js';
import { insertLines } from './batch-line-insert.js';
import { type BatchStatus, endedBatchStatuses, workableBatchStatuses } from './batch-statuses.js';
import { rowsOf } from './bulk-insert.js';
import { type Drizzle, isUuid } from './drizzle.js';
import { type Page, toPage } from './keyset-page.js';

/** A batch as stored (see the `batches` table). */
export interface BatchRecord {
  /** `batch_...`. */
  id: string;
  orgId: string;
  /** The key that submitted it; its lines run as that key. */
  keyId: string;
  endpoint: string;
  inputFileId: string;
  completionWindow: string;
  status: BatchStatus;
  metadata: Record<string, string> | null;
  /** The `errors.data` entries (`{code, message, param, line}`), or null. */
  errors: object[] | null;
  outputFileId: string | null;
  errorFileId: string | null;
  /** request_counts. */
  total: number;
  completed: number;
  failed: number;
  /** Status times in unix seconds by their OpenAI names (`in_progress_at`, `completed_at`, ...). */
  times: Record<string, number>;
  /** The answered lines' tokens, summed when the batch ended; null before (and for Message Batches). */
  usage: BatchUsage | null;
  createdAt: Date;
  expiresAt: Date;
  /** The parts submitted to providers' own batch APIs; null until the worker sorted the lines. */
  natives: NativeBatchPart[] | null;
  /** The budget held for the batch since its creation; null: none. */
  hold: BatchHold | null;
}

export type NewBatch = Omit<BatchRecord, 'completed' | 'failed' | 'times' | 'outputFileId' | 'errorFileId' | 'usage' | 'natives' | 'hold'> & { times?: Record<string, number>; hold?: BatchHold | null };

/** One request of a batch's input file, numbered from 0 in file order. */
export interface BatchLineRecord {
  line: number;
  customId: string;
  body: Record<string, unknown>;
}

/** An answered line: its output line (`{id, custom_id, response, error}`) and the HTTP status it stands for. */
export interface AnsweredBatchLine {
  line: number;
  customId: string;
  result: Record<string, unknown>;
  statusCode: number;
}

/** What a status change writes besides the status. */
export interface BatchPatch {
  status: BatchStatus;
  /** Merged into `times`. */
  times?: Record<string, number>;
  errors?: object[];
  outputFileId?: string | null;
  errorFileId?: string | null;
  usage?: BatchUsage;
}

/** Each organisation's batches and their lines; the lease lets one worker at a time work a batch. */
export interface BatchRepository {
  /** Keeps a batch and its lines. */
  create(batch: NewBatch, lines: readonly Omit<BatchLineRecord, 'line'>[]): Promise<BatchRecord>;
  /** The organisation's batch `id`. */
  get(orgId: string, id: string): Promise<BatchRecord | undefined>;
  /** The organisation's batches for one of `endpoints`, newest first, after the batch `after`. */
  list(orgId: string, options: { after?: string | undefined; limit: number; endpoints: readonly string[] }): Promise<Page<BatchRecord>>;
  /** Removes the organisation's batch `id` and its lines when its status is one of `statuses`; false otherwise. */
  delete(orgId: string, id: string, statuses: readonly BatchStatus[]): Promise<boolean>;
  /** Removes every ended batch (completed, failed, expired, cancelled) whose completion window closed before `before`, with its lines; how many. */
  deleteEnded(before: Date): Promise<number>;
  /** Changes the batch's status when it is one of `from`; undefined when it was not (nothing changed). */
  transition(id: string, from: readonly BatchStatus[], patch: BatchPatch): Promise<BatchRecord | undefined>;
  /** Leases the oldest workable batch no live lease holds to `owner` until `until`. */
  claim(owner: string, until: Date, now?: Date): Promise<BatchRecord | undefined>;
  /** Extends `owner`'s lease; undefined when it lost the lease (another worker holds the batch). */
  renew(id: string, owner: string, until: Date): Promise<BatchRecord | undefined>;
  /** Gives the lease up (a graceful stop): another worker may claim the batch at once, or from `pollAt` on (a batch waiting on its providers). */
  release(id: string, owner: string, pollAt?: Date): Promise<void>;
  /** Writes the batch's native parts while `owner` holds its lease; undefined when it lost the lease. */
  setNatives(id: string, owner: string, natives: NativeBatchPart[]): Promise<BatchRecord | undefined>;
  /** Writes the batch's budget hold while `owner` holds its lease; undefined when it lost the lease. */
  setHold(id: string, owner: string, hold: BatchHold): Promise<BatchRecord | undefined>;
  /**
   * Up to `limit` ended batches whose budget hold was not given back: an instance of the release
   * before the hold (0028) ended them during a rolling deploy; the next worker that idles gives it back.
   */
  heldAfterEnd(limit: number): Promise<BatchRecord[]>;
  /** Writes the hold of an ended batch (ended batches have no lease); undefined when the batch is not ended. */
  setEndedHold(id: string, hold: BatchHold): Promise<BatchRecord | undefined>;
  /**
   * Whether a native part of any batch holds `upstreamId` at `provider` as its own (confirmed: not
   * a candidate taken up by listing, `unconfirmed`): a lost submission's search skips such batches.
   */
  nativeTaken(provider: string, upstreamId: string): Promise<boolean>;
  /** Puts the unanswered lines `lines` in the native part `nativeId`, or back on the gateway's path (null). */
  assignNative(id: string, lines: readonly number[], nativeId: string | null): Promise<void>;
  /** Up to `limit` unanswered lines of the native part `nativeId` after line `after`, in file order. */
  nativeLines(id: string, nativeId: string, page: { after: number; limit: number }): Promise<BatchLineRecord[]>;
  /** Up to `limit` answered lines of the native part `nativeId` after line `after`, in file order (what the part's results recorded). */
  nativeAnswered(id: string, nativeId: string, page: { after: number; limit: number }): Promise<AnsweredBatchLine[]>;
  /** How many of the batch's lines were answered with `statusCode`. */
  countAnswered(id: string, statusCode: number): Promise<number>;
  /** Up to `limit` unanswered lines the gateway runs (in no native part) after line `after` (default: from the first), in file order. */
  pendingLines(id: string, limit: number, after?: number): Promise<BatchLineRecord[]>;
  /**
   * Records a line's answer and counts it (2xx completed, else failed) in one statement; false
   * when it was answered already (it is never answered twice).
   */
  answerLine(id: string, answer: Omit<AnsweredBatchLine, 'customId'>): Promise<boolean>;
  /**
   * A page of at most `limit` lines after line `after` (-1: from the first), in file order, answered
   * or not (an unanswered one without `result` and `statusCode`): an ended batch's results.
   */
  linesPage(id: string, page: { after: number; limit: number }): Promise<(AnsweredBatchLine | Pick<BatchLineRecord, 'line' | 'customId'>)[]>;
  /** The answered lines in file order: every one, or a page of at most `limit` after line `after` (-1: from the first). */
  answeredLines(id: string, page?: { after: number; limit: number }): Promise<AnsweredBatchLine[]>;
}

type Row = typeof batches.$inferSelect;

const toRecord = ({ leaseOwner: _owner, leaseUntil: _until, pollAt: _poll, ...row }: Row): BatchRecord => ({ ...row, status: row.status as BatchStatus });

/** "Comes after the batch `after`" newest first (keyset); an unknown `after` matches nothing. */
function afterBatch(orgId: string, after: string): SQL {
  return sql`(${batches.createdAt}, ${batches.id}) < (select ${batches.createdAt}, ${batches.id} from ${batches} where ${batches.orgId} = ${orgId} and ${batches.id} = ${after})`;
}

const leaseFree = (now: Date) => or(isNull(batches.leaseUntil), lt(batches.leaseUntil, now));

function claimable(now: Date): SQL {
  const due = or(isNull(batches.pollAt), lte(batches.pollAt, now));
  return sql`(select ${batches.id} from ${batches} where ${inArray(batches.status, [...workableBatchStatuses])} and ${leaseFree(now)} and ${due} order by ${batches.createdAt} limit 1 for update skip locked)`;
}

/** Marks line `line` answered unless it was, and counts it on the batch, in one statement. */
function answerStatement(id: string, answer: Omit<AnsweredBatchLine, 'customId'>): SQL {
  const ok = answer.statusCode >= 200 && answer.statusCode < 300;
  return sql`with answered as (
    update ${batchLines} set result = ${JSON.stringify(answer.result)}::jsonb, status_code = ${answer.statusCode}, answered_at = now()
    where batch_id = ${id} and line = ${answer.line} and result is null returning 1
  )
  update ${batches} set completed = completed + ${ok ? 1 : 0}, failed = failed + ${ok ? 0 : 1}
  where id = ${id} and exists (select 1 from answered) returning 1`;
}

export function createBatchRepository(db: Drizzle): BatchRepository {
  return { ...createBatchRowRepository(db), ...createBatchLeaseRepository(db), ...createEndedHoldRepository(db), ...createNativePartRepository(db), ...createBatchLineRepository(db), ...createNativeLineRepository(db) };
}

/** The batches themselves: create, read, status changes. */
function createBatchRowRepository(db: Drizzle): Pick<BatchRepository, 'create' | 'get' | 'list' | 'delete' | 'deleteEnded' | 'transition'> {
  return {
    async create(batch, lines) {
      // One transaction: no worker claims a batch whose lines are still going in, and a failed insert leaves nothing.
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(batches).values(batch).returning();
        await insertLines(tx, batch.id, lines);
        return toRecord(row!);
      });
    },

    async get(orgId, id) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db.select().from(batches).where(and(eq(batches.orgId, orgId), eq(batches.id, id))).limit(1);
      return row ? toRecord(row) : undefined;
    },

    async list(orgId, options) {
      if (!isUuid(orgId)) return { data: [], hasMore: false };
      const rows = await db
        .select()
        .from(batches)
        .where(and(eq(batches.orgId, orgId), inArray(batches.endpoint, [...options.endpoints]), options.after === undefined ? undefined : afterBatch(orgId, options.after)))
        .orderBy(desc(batches.createdAt), desc(batches.id))
        .limit(options.limit + 1);
      return toPage(rows.map(toRecord), options.limit);
    },

    async delete(orgId, id, statuses) {
      if (!isUuid(orgId)) return false;
      const rows = await db
        .delete(batches)
        .where(and(eq(batches.orgId, orgId), eq(batches.id, id), inArray(batches.status, [...statuses])))
        .returning({ id: batches.id });
      return rows.length > 0;
    },

    async deleteEnded(before) {
      const rows = await db
        .delete(batches)
        .where(and(inArray(batches.status, [...endedBatchStatuses]), lt(batches.expiresAt, before)))
        .returning({ id: batches.id });
      return rows.length;
    },

    async transition(id, from, patch) {
      const { times, ...rest } = patch;
      const [row] = await db
        .update(batches)
        .set({ ...rest, ...(times ? { times: sql`${batches.times} || ${JSON.stringify(times)}::jsonb` } : {}) })
        .where(and(eq(batches.id, id), inArray(batches.status, [...from])))
        .returning();
      return row ? toRecord(row) : undefined;
    },

  };
}

/** Which worker works which batch: claim, renew, release. */
function createBatchLeaseRepository(db: Drizzle): Pick<BatchRepository, 'claim' | 'renew' | 'release' | 'setNatives' | 'setHold'> {
  return {
    async claim(owner, until, now = new Date()) {
      const [row] = await db
        .update(batches)
        .set({ leaseOwner: owner, leaseUntil: until })
        .where(and(eq(batches.id, claimable(now)), leaseFree(now)))
        .returning();
      return row ? toRecord(row) : undefined;
    },

    async renew(id, owner, until) {
      const [row] = await db
        .update(batches)
        .set({ leaseUntil: until })
        .where(and(eq(batches.id, id), eq(batches.leaseOwner, owner)))
        .returning();
      return row ? toRecord(row) : undefined;
    },

    async release(id, owner, pollAt) {
      await db
        .update(batches)
        .set({ leaseOwner: null, leaseUntil: null, pollAt: pollAt ?? null })
        .where(and(eq(batches.id, id), eq(batches.leaseOwner, owner)));
    },

    async setNatives(id, owner, natives) {
      const [row] = await db
        .update(batches)
        .set({ natives })
        .where(and(eq(batches.id, id), eq(batches.leaseOwner, owner)))
        .returning();
      return row ? toRecord(row) : undefined;
    },

    async setHold(id, owner, hold) {
      const [row] = await db
        .update(batches)
        .set({ hold })
        .where(and(eq(batches.id, id), eq(batches.leaseOwner, owner)))
        .returning();
      return row ? toRecord(row) : undefined;
    },

  };
}

/** The holds of batches ended without giving them back (a rolling deploy over 0028): found and ended, no lease needed. */
function createEndedHoldRepository(db: Drizzle): Pick<BatchRepository, 'heldAfterEnd' | 'setEndedHold'> {
  return {
    async heldAfterEnd(limit) {
      const rows = await db
        .select()
        .from(batches)
        .where(and(inArray(batches.status, [...endedBatchStatuses]), sql`(${batches.hold} ->> 'ended') = 'false'`))
        .orderBy(asc(batches.createdAt))
        .limit(limit);
      return rows.map(toRecord);
    },

    async setEndedHold(id, hold) {
      const [row] = await db
        .update(batches)
        .set({ hold })
        .where(and(eq(batches.id, id), inArray(batches.status, [...endedBatchStatuses])))
        .returning();
      return row ? toRecord(row) : undefined;
    },
  };
}

/** The native parts across batches. */
function createNativePartRepository(db: Drizzle): Pick<BatchRepository, 'nativeTaken'> {
  return {
    async nativeTaken(provider, upstreamId) {
      const part = { provider, upstreamId };
      const rows = await db
        .select({ id: batches.id })
        .from(batches)
        .where(sql`${batches.natives} @> ${JSON.stringify([part])}::jsonb and exists (select 1 from jsonb_array_elements(${batches.natives}) as p where p @> ${JSON.stringify(part)}::jsonb and not coalesce((p->>'unconfirmed')::boolean, false))`)
        .limit(1);
      return rows.length > 0;
    },
  };
}

/** The lines of batches: pending ones, answering each once, the answered ones. */
function createBatchLineRepository(db: Drizzle): Pick<BatchRepository, 'pendingLines' | 'answerLine' | 'answeredLines' | 'linesPage'> {
  return {
    async linesPage(id, { after, limit }) {
      const rows = await db
        .select({ line: batchLines.line, customId: batchLines.customId, result: batchLines.result, statusCode: batchLines.statusCode })
        .from(batchLines)
        .where(and(eq(batchLines.batchId, id), gt(batchLines.line, after)))
        .orderBy(asc(batchLines.line))
        .limit(limit);
      return rows.map(({ line, customId, result, statusCode }) => (result === null ? { line, customId } : { line, customId, result, statusCode: statusCode ?? 0 }));
    },

    async pendingLines(id, limit, after = -1) {
      return db
        .select({ line: batchLines.line, customId: batchLines.customId, body: batchLines.body })
        .from(batchLines)
        .where(and(eq(batchLines.batchId, id), isNull(batchLines.result), isNull(batchLines.nativeId), gt(batchLines.line, after)))
        .orderBy(asc(batchLines.line))
        .limit(limit);
    },

    async answerLine(id, answer) {
      return rowsOf(await db.execute(answerStatement(id, answer))).length > 0;
    },

    async answeredLines(id, page) {
      const query = db
        .select({ line: batchLines.line, customId: batchLines.customId, result: batchLines.result, statusCode: batchLines.statusCode })
        .from(batchLines)
        .where(and(eq(batchLines.batchId, id), isNotNull(batchLines.result), page ? gt(batchLines.line, page.after) : undefined))
        .orderBy(asc(batchLines.line));
      const rows = await (page ? query.limit(page.limit) : query);
      return rows.map((row) => ({ line: row.line, customId: row.customId, result: row.result ?? {}, statusCode: row.statusCode ?? 0 }));
    },
  };
}

/** The lines submitted to providers' own batch APIs. */
function createNativeLineRepository(db: Drizzle): Pick<BatchRepository, 'assignNative' | 'nativeLines' | 'nativeAnswered' | 'countAnswered'> {
  return {
    async assignNative(id, lines, nativeId) {
      for (let start = 0; start < lines.length; start += 1000) {
        const chunk = lines.slice(start, start + 1000);
        await db
          .update(batchLines)
          .set({ nativeId })
          .where(and(eq(batchLines.batchId, id), inArray(batchLines.line, [...chunk]), isNull(batchLines.result)));
      }
    },

    async nativeLines(id, nativeId, { after, limit }) {
      return db
        .select({ line: batchLines.line, customId: batchLines.customId, body: batchLines.body })
        .from(batchLines)
        .where(and(eq(batchLines.batchId, id), eq(batchLines.nativeId, nativeId), isNull(batchLines.result), gt(batchLines.line, after)))
        .orderBy(asc(batchLines.line))
        .limit(limit);
    },

    async nativeAnswered(id, nativeId, { after, limit }) {
      const rows = await db
        .select({ line: batchLines.line, customId: batchLines.customId, result: batchLines.result, statusCode: batchLines.statusCode })
        .from(batchLines)
        .where(and(eq(batchLines.batchId, id), eq(batchLines.nativeId, nativeId), isNotNull(batchLines.result), gt(batchLines.line, after)))
        .orderBy(asc(batchLines.line))
        .limit(limit);
      return rows.map((row) => ({ line: row.line, customId: row.customId, result: row.result ?? {}, statusCode: row.statusCode ?? 0 }));
    },

    async countAnswered(id, statusCode) {
      const [row] = await db
        .select({ n: count() })
        .from(batchLines)
        .where(and(eq(batchLines.batchId, id), eq(batchLines.statusCode, statusCode)));
      return Number(row?.n ?? 0);
    },
  };
}
