import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

/** OpenAI's batch `usage`: the tokens of every answered line, summed. */
export interface BatchUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A part of a batch submitted to its provider's own batch API: the local id its lines carry
 * (`batch_lines.native_id`), the provider and whose key (`byok`: the organisation's own), the
 * provider's batch id and key index once submitted, where it stands, and the budget reservation
 * held for it until its results are recorded.
 */
export interface NativeBatchPart {
  id: string;
  provider: string;
  byok: boolean;
  /** The provider's batch id; absent while it is being submitted. */
  upstreamId?: string;
  /** The fingerprint of the provider key that submitted it (`keyFingerprint`): its later calls use that key wherever it sits in the pool. */
  key?: string;
  /** The key's position in the pool at submission (what a part written before `key` has). */
  keyIndex?: number;
  /** When it was first submitted (unix seconds), written before the submission: a part left `submitting` looks for the provider batch carrying its id from then on. */
  submittingAt?: number;
  /**
   * The provider batch was found by listing after a lost submission, not by the provider's own
   * record of the part (Anthropic): it is the part's only once its results carry the part id.
   */
  unconfirmed?: boolean;
  /** Provider batches taken up for the part and disproved by their results: never taken up again. */
  rejected?: string[];
  /** `submitting` -> `in_progress` -> `cancelling` -> `collected` (every line's answer recorded). */
  state: 'submitting' | 'in_progress' | 'cancelling' | 'collected';
  lines: number;
  /** The limiter's reservation of the part's estimate (`ReservationState`), settled when it is collected; null: nothing held. */
  reservation: Record<string, unknown> | null;
}

/**
 * The budget a batch holds from its creation (every line's estimate, docs/operations.md "Batch
 * budget"): the limiter's reservation (`ReservationState`) and how much of it was given back.
 * The hold shrinks in `steps` equal shares as lines are answered, then the rest at the end; each
 * share is given back once (a step's Kv guard), `released` counts those written here.
 */
export interface BatchHold {
  reservation: Record<string, unknown>;
  /** The lines the hold was taken for, and how many lines make one step. */
  lines: number;
  stepLines: number;
  /** Steps given back (the last, `ended`, gives back the rest). */
  released: number;
  ended: boolean;
}

/**
 * Batches (`POST /v1/batches`): what was asked, where it stands, and which instance works it.
 * `key_id` is the key that submitted it: its lines run as that key (limits, budgets, ledger).
 * `times` holds the status timestamps (`in_progress_at`, ...) by their OpenAI names. The lease
 * (`lease_owner` until `lease_until`) lets one instance at a time work the batch.
 */
export const batches = pgTable(
  'batches',
  {
    id: text('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    keyId: text('key_id').notNull(),
    endpoint: text('endpoint').notNull(),
    inputFileId: text('input_file_id').notNull(),
    completionWindow: text('completion_window').notNull(),
    status: text('status').notNull(),
    metadata: jsonb('metadata').$type<Record<string, string>>(),
    errors: jsonb('errors').$type<object[]>(),
    outputFileId: text('output_file_id'),
    errorFileId: text('error_file_id'),
    total: integer('total').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    times: jsonb('times').$type<Record<string, number>>().notNull().default({}),
    /** OpenAI's batch `usage` (tokens summed over the answered lines), written when the batch ends. */
    usage: jsonb('usage').$type<BatchUsage>(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamptz('lease_until'),
    /** The parts submitted to providers' own batch APIs; null until the batch's lines were sorted. */
    natives: jsonb('natives').$type<NativeBatchPart[]>(),
    /** A batch waiting on its providers is not claimed before this (its next poll). */
    pollAt: timestamptz('poll_at'),
    /** The budget held for the batch since its creation; null: none (no budget, or created before 0028). */
    hold: jsonb('hold').$type<BatchHold>(),
  },
  (table) => [index('batches_org_created_idx').on(table.orgId, table.createdAt, table.id), index('batches_status_idx').on(table.status)],
);

/**
 * The lines of a batch: the request as submitted (`body`), and once answered its output line
 * (`result`, OpenAI's `{id, custom_id, response, error}`). A line with a result is never run again.
 */
export const batchLines = pgTable(
  'batch_lines',
  {
    batchId: text('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    customId: text('custom_id').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    statusCode: integer('status_code'),
    answeredAt: timestamptz('answered_at'),
    /** The native part (`batches.natives[].id`) the line was submitted in; null: the gateway runs it. */
    nativeId: text('native_id'),
  },
  (table) => [primaryKey({ columns: [table.batchId, table.line] })],
);
