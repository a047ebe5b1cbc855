import type { SqlRunner } from './sql-runner.js';
import { type TableInfo, ident } from './table-catalog.js';

/** Heap pages per exported chunk: 2,048 pages of 8 kB bound one chunk's text to tens of MB. */
const PAGES_PER_CHUNK = 2048;

function columnList(table: Pick<TableInfo, 'columns'>): string {
  return table.columns.map((column) => ident(column.name)).join(', ');
}

/**
 * Streams `schema.table` out in PostgreSQL's COPY text format (portable across PostgreSQL
 * versions), a chunk per range of heap pages, so no chunk holds the whole table. Run it inside
 * one transaction to read one consistent snapshot.
 */
export async function* copyTableOut(pg: SqlRunner, schema: string, table: TableInfo): AsyncGenerator<Uint8Array> {
  const relation = `${ident(schema)}.${ident(table.name)}`;
  const { rows } = await pg.query<{ pages: number }>(
    `select (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int as pages`,
    [relation],
  );
  const pages = rows[0]?.pages ?? 0;
  for (let start = 0; start < pages; start += PAGES_PER_CHUNK) {
    const end = start + PAGES_PER_CHUNK;
    const select = `select ${columnList(table)} from ${relation} where ctid >= '(${start},0)'::tid and ctid < '(${end},0)'::tid`;
    const result = await pg.query(`copy (${select}) to '/dev/blob'`);
    if (result.blob && result.blob.size > 0) yield new Uint8Array(await result.blob.arrayBuffer());
  }
}

/** Loads one chunk written by {@link copyTableOut} into `schema.table`; resolves to its row count. */
export async function copyTableIn(pg: SqlRunner, schema: string, table: Pick<TableInfo, 'name' | 'columns'>, chunk: Uint8Array): Promise<number> {
  const relation = `${ident(schema)}.${ident(table.name)}`;
  const result = await pg.query(`copy ${relation} (${columnList(table)}) from '/dev/blob'`, [], { blob: new Blob([chunk]) });
  return result.affectedRows ?? 0;
}
