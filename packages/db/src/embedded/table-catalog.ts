import type { SqlRunner } from './sql-runner.js';

/** One column of a stored table, as the catalog describes it. */
export interface ColumnInfo {
  name: string;
  /** `format_type` of the column, e.g. `uuid`, `text[]`, `timestamp with time zone`. */
  type: string;
}

/** A single-column foreign key (`column` references `parent`'s primary key). */
export interface ReferenceInfo {
  column: string;
  parent: string;
}

/** What copying and merging a table needs to know about it. */
export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** Primary-key columns, in key order. */
  primaryKey: string[];
  /** Unique keys other than the primary key (not partial indexes), each a list of columns. */
  uniqueKeys: string[][];
  references: ReferenceInfo[];
}

/** Quotes an SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function tableNames(pg: SqlRunner, schema: string): Promise<string[]> {
  const { rows } = await pg.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind in ('r', 'p') order by c.relname`,
    [schema],
  );
  return rows.map((row) => row.name);
}

async function columnsOf(pg: SqlRunner, relation: string): Promise<ColumnInfo[]> {
  const { rows } = await pg.query<ColumnInfo>(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type from pg_attribute a
     where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     order by a.attnum`,
    [relation],
  );
  return rows;
}

async function uniqueIndexesOf(pg: SqlRunner, relation: string): Promise<{ primary: boolean; columns: string[] }[]> {
  const { rows } = await pg.query<{ primary: boolean; columns: string[] }>(
    `select i.indisprimary as primary,
            array(select a.attname from unnest(i.indkey) with ordinality k(attnum, n)
                  join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum order by k.n) as columns
     from pg_index i where i.indrelid = $1::regclass and i.indisunique and i.indpred is null and i.indexprs is null`,
    [relation],
  );
  return rows;
}

async function referencesOf(pg: SqlRunner, relation: string): Promise<ReferenceInfo[]> {
  const { rows } = await pg.query<ReferenceInfo>(
    `select a.attname as column, p.relname as parent from pg_constraint c
     join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
     join pg_class p on p.oid = c.confrelid
     where c.conrelid = $1::regclass and c.contype = 'f' and cardinality(c.conkey) = 1`,
    [relation],
  );
  return rows;
}

/** Every table of `schema` with its columns, keys and single-column foreign keys. */
export async function describeTables(pg: SqlRunner, schema: string): Promise<TableInfo[]> {
  const tables: TableInfo[] = [];
  for (const name of await tableNames(pg, schema)) {
    const relation = `${ident(schema)}.${ident(name)}`;
    const unique = await uniqueIndexesOf(pg, relation);
    tables.push({
      name,
      columns: await columnsOf(pg, relation),
      primaryKey: unique.find((index) => index.primary)?.columns ?? [],
      uniqueKeys: unique.filter((index) => !index.primary).map((index) => index.columns),
      references: await referencesOf(pg, relation),
    });
  }
  return tables;
}
