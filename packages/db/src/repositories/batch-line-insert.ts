import { sql } from 'drizzle-orm';
import type { Drizzle } from './drizzle.js';

/** At most this many lines, or about this many bytes of their JSON, go in one statement. */
const LINE_CHUNK_ROWS = 1000;
const LINE_CHUNK_BYTES = 4 * 1024 * 1024;

/** One chunk of lines (their JSON records) in one statement with one JSON parameter, unpacked by the database. */
function insertLineChunk(db: Drizzle, batchId: string, records: string[]) {
  return db.execute(sql`insert into batch_lines (batch_id, line, custom_id, body)
    select ${batchId}, x.line, x.custom_id, x.body from jsonb_to_recordset(${`[${records.join(',')}]`}::jsonb) as x(line integer, custom_id text, body jsonb)`);
}

/**
 * The lines in chunks of {@link LINE_CHUNK_ROWS} rows or ~{@link LINE_CHUNK_BYTES} bytes, each one
 * `INSERT ... SELECT FROM jsonb_to_recordset($1)` (a line's record is `JSON.stringify`d, native;
 * building a parameterised multi-row `VALUES` through the query builder cost ~200 µs a row).
 */
export async function insertLines(db: Drizzle, batchId: string, lines: readonly { customId: string; body: Record<string, unknown> }[]): Promise<void> {
  let records: string[] = [];
  let bytes = 0;
  for (const [line, { customId, body }] of lines.entries()) {
    const record = JSON.stringify({ line, custom_id: customId, body });
    records.push(record);
    bytes += record.length;
    if (records.length < LINE_CHUNK_ROWS && bytes < LINE_CHUNK_BYTES && line < lines.length - 1) continue;
    await insertLineChunk(db, batchId, records);
    records = [];
    bytes = 0;
  }
}
