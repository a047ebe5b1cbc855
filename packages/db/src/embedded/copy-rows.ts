import type { PGlite } from '@electric-sql/pglite';
import { DECISION_COLUMNS, decisionRow } from '../repositories/decisions.js';
import { USAGE_COLUMNS, usageRow } from '../repositories/usage.js';
import type { RowTables } from '../row-intake.js';
import type { NewUsageEvent } from '../types.js';

/**
 * The intake's tables on the embedded store, written with `COPY ... FROM '/dev/blob'` (one blob of
 * COPY's text a batch) before the repositories' `INSERT ... SELECT FROM jsonb_to_recordset ... ON
 * CONFLICT`: COPY has no per-row JSON unpacking and no speculative insertion, and costs the store
 * thread about half as much a ledger row (docs/benchmarks.md, 2026-12-05). COPY is one statement,
 * all or nothing, and it has no ON CONFLICT: a batch with a request id already stored (a journal
 * replayed after a kill, a row handed twice) fails as a whole with nothing written, and goes the
 * repositories' way, which skips or replaces by request id as before. So what is stored is the
 * same either way. Batches COPY could store differently go that way from the start: a row without
 * `createdAt` (the insert's `now()`), a usage row of a batch line (replaced, not skipped), a
 * string JSON would escape but UTF-8 cannot carry (a lone surrogate).
 */
export function copyFirst(client: PGlite, tables: RowTables): RowTables {
  return {
    usage: {
      insertMany: (rows) => copyOr(client, { table: 'usage_events', columns: USAGE_COLUMNS, records: copyable(rows, isBatchLine)?.map(usageRow) }, () => tables.usage.insertMany(rows)),
    },
    decisions: {
      insertMany: (rows) => copyOr(client, { table: 'routing_decisions', columns: DECISION_COLUMNS, records: copyable(rows, () => false)?.map(decisionRow) }, () => tables.decisions.insertMany(rows)),
    },
  };
}

/** A UTF-16 half without its other half (`u`: a pair is one code point). */
const LONE_SURROGATE = /\p{Surrogate}/u;

interface CopyBatch {
  table: string;
  columns: readonly string[];
  /** Undefined: the batch goes the repositories' way. */
  records: readonly Record<string, unknown>[] | undefined;
}

async function copyOr(client: PGlite, batch: CopyBatch, otherwise: () => Promise<number>): Promise<number> {
  const text = batch.records && batch.records.length > 0 ? toCopyText(batch.records, batch.columns) : undefined;
  if (text === undefined || LONE_SURROGATE.test(text)) return otherwise();
  try {
    const result = await client.query(`COPY ${batch.table} (${batch.columns.join(', ')}) FROM '/dev/blob'`, [], { blob: new Blob([text]) });
    return result.affectedRows ?? batch.records?.length ?? 0;
  } catch {
    return otherwise();
  }
}

function copyable<T extends { createdAt?: Date }>(rows: readonly T[], otherWay: (row: T) => boolean): readonly T[] | undefined {
  return rows.every((row) => row.createdAt !== undefined && !otherWay(row)) ? rows : undefined;
}

function isBatchLine(event: NewUsageEvent): boolean {
  return event.tags?.batch_id !== undefined;
}

/**
 * Rows in COPY's text format, in `columns` order: tab between fields, `\N` for NULL, a backslash
 * before a backslash, newline, carriage return or tab (JSON text has none of the last three, and
 * a backslash only where a string held a quote or a control character).
 */
export function toCopyText(records: readonly Record<string, unknown>[], columns: readonly string[]): string {
  const lines: string[] = [];
  const fields: string[] = [];
  for (const record of records) {
    fields.length = 0;
    for (const column of columns) fields.push(textField(record[column]));
    lines.push(fields.join('\t'));
  }
  return `${lines.join('\n')}\n`;
}

function textField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return escaped(value);
  // JSON's way: what JSON.stringify writes as null (NaN, Infinity) is NULL.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return escaped(JSON.stringify(value));
}

const TEXT_SPECIAL = /[\\\n\r\t]/;
const TEXT_SPECIALS = /[\\\n\r\t]/g;
const TEXT_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(text: string): string {
  return TEXT_SPECIAL.test(text) ? text.replace(TEXT_SPECIALS, (special) => TEXT_ESCAPES[special] ?? special) : text;
}
