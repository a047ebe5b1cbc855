import type { SqlRunner } from './sql-runner.js';
import { SOFT_REFERENCES, type SoftReference } from './soft-references.js';
import { type TableInfo, ident } from './table-catalog.js';

/** A reference from a column to a parent table's (single-column) primary key. */
type Reference = Pick<SoftReference, 'column' | 'parent' | 'prefix'>;

function referencesOf(table: TableInfo): Reference[] {
  return [...table.references, ...SOFT_REFERENCES.filter((soft) => soft.table === table.name)];
}

/** Tables ordered so that each comes after the tables it references. */
export function parentsFirst(tables: readonly TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableInfo[] = [];
  const seen = new Set<string>();
  const visit = (table: TableInfo, path: Set<string>) => {
    if (seen.has(table.name) || path.has(table.name)) return;
    path.add(table.name);
    for (const reference of referencesOf(table)) {
      const parent = byName.get(reference.parent);
      if (parent && parent !== table) visit(parent, path);
    }
    seen.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

function typeOf(table: TableInfo, column: string): string {
  return table.columns.find((candidate) => candidate.name === column)?.type ?? 'text';
}

/** Points the live rows' references at the staged parents that replaced theirs. */
async function repoint(pg: SqlRunner, table: TableInfo, staging: string): Promise<void> {
  const live = ident(table.name);
  for (const reference of referencesOf(table)) {
    const column = ident(reference.column);
    const remap = `${ident(staging)}.remap`;
    const target = reference.prefix
      ? `${remapValue(reference.prefix)} || m.to_id`
      : `m.to_id::${typeOf(table, reference.column)}`;
    const match = reference.prefix ? `t.${column} = ${remapValue(reference.prefix)} || m.from_id` : `t.${column}::text = m.from_id`;
    await pg.query(`update public.${live} t set ${column} = ${target} from ${remap} m where m.tbl = $1 and ${match}`, [reference.parent]);
  }
}

function remapValue(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * For each natural key (a unique key other than the primary key), a live row that shares it
 * with a staged row of another id gives way: its id is remapped to the staged row's and it is
 * deleted, so the staged (original) identity and fields win.
 */
async function yieldToStaged(pg: SqlRunner, table: TableInfo, staging: string): Promise<void> {
  const [primary] = table.primaryKey;
  if (table.primaryKey.length !== 1 || primary === undefined) return;
  const live = `public.${ident(table.name)}`;
  const staged = `${ident(staging)}.${ident(table.name)}`;
  const pk = ident(primary);
  for (const key of table.uniqueKeys) {
    const same = key.map((column) => `l.${ident(column)} = s.${ident(column)}`).join(' and ');
    await pg.query(
      `insert into ${ident(staging)}.remap (tbl, from_id, to_id)
       select $1, l.${pk}::text, s.${pk}::text from ${live} l join ${staged} s on ${same} where l.${pk} <> s.${pk}
       on conflict do nothing`,
      [table.name],
    );
    await pg.query(`delete from ${live} l using ${staged} s where ${same} and l.${pk} <> s.${pk}`);
  }
}

/**
 * Merges the tables staged in `staging` (the same columns as the live ones) into the live
 * tables of `public`: rows already present (same primary key) stay as they are, new ones are
 * added, and where a live row and a staged row are the same thing under two ids (the same
 * organisation name, key hash or e-mail), the staged one keeps its id and every live
 * reference, declared or soft, is pointed at it. Foreign-key triggers are off meanwhile
 * (`session_replication_role = replica`), so run it inside a transaction: the merge commits
 * whole or not at all. Resolves to the rows added per table.
 */
export async function mergeStaged(pg: SqlRunner, tables: readonly TableInfo[], staging: string): Promise<Record<string, number>> {
  await pg.exec(`set local session_replication_role = replica;
    create table if not exists ${ident(staging)}.remap (tbl text not null, from_id text not null, to_id text not null, primary key (tbl, from_id))`);
  const added: Record<string, number> = {};
  for (const table of parentsFirst(tables)) {
    await repoint(pg, table, staging);
    await yieldToStaged(pg, table, staging);
    const columns = table.columns.map((column) => ident(column.name)).join(', ');
    const result = await pg.query(
      `insert into public.${ident(table.name)} (${columns}) select ${columns} from ${ident(staging)}.${ident(table.name)} on conflict do nothing`,
    );
    added[table.name] = result.affectedRows ?? 0;
  }
  return added;
}
