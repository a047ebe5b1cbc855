/**
 * Schema changes are expand-then-contract, so that release N and N+1 run side by side over one
 * PostgreSQL during a rolling deploy: a migration only adds (tables, nullable or defaulted
 * columns, indexes, foreign keys, rows) or backfills rows, and what N still reads or writes is removed or changed
 * only in a later release, once no instance of N runs. A migration that must contract is listed
 * here with why; a rolling deploy cannot cross it (docs/operations.md "Upgrading" repeats the
 * list). A test holds every migration to this.
 */
export const CONTRACT_MIGRATIONS: Readonly<Record<string, string>> = {
  '0009_memory_scopes':
    'moves the memories of releases before it to memories_legacy and empties memories (the new memory contract cannot attribute them), and drops the index memories_org_conversation_created_idx: stop every instance of an earlier release before starting this one, or an old instance keeps writing org-wide transcripts the new one cannot attribute',
};

/**
 * Migrations that drop a `NOT NULL`, each with how release N reads the nulls N+1 writes. N's
 * writes still satisfy the looser column, so a rolling deploy crosses them; what N does with a
 * null must be said here (a test holds every such statement to this list).
 */
export const RELAXING_MIGRATIONS: Readonly<Record<string, string>> = {
  '0023_file_chunks':
    "files.content is null for a file kept in file_chunks: N answers such a file's content, and a batch naming it as input, with 404 not_found_error (its metadata and listing stay right) until N is stopped",
};

/** How a statement of a migration changes the schema: `relax` drops a `NOT NULL` (see {@link RELAXING_MIGRATIONS}). */
export type StatementKind = 'expand' | 'relax' | 'contract';

const expanding: readonly RegExp[] = [
  /^create table( if not exists)? /i,
  /^create (unique )?index( if not exists)? /i,
  /^alter table "?[\w.]+"? add constraint "?\w+"? foreign key /i,
  /^insert into /i,
  // A backfill: the schema is unchanged, so an earlier release's queries still run.
  /^update "?\w+"? set /i,
  // An idempotent foreign key (DO $$ ... ADD CONSTRAINT ... FOREIGN KEY ... EXCEPTION ... $$).
  /^do \$\$\s*begin\s+alter table "?\w+"? add constraint "?\w+"? foreign key [^;]*;\s*exception when duplicate_object then null;\s*end \$\$;?$/is,
];

/** A column added NOT NULL needs a default, or N's inserts (which do not name it) fail. */
function addsUsableColumn(statement: string): boolean {
  if (!/^alter table "?[\w.]+"? add column /i.test(statement)) return false;
  return !/\bnot null\b/i.test(statement) || /\bdefault\b/i.test(statement);
}

/** The statements of a drizzle migration file, comments dropped. */
export function migrationStatements(sql: string): string[] {
  return sql
    .split('--> statement-breakpoint')
    .map((chunk) =>
      chunk
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((statement) => statement.length > 0);
}

export function classifyStatement(statement: string): StatementKind {
  const text = statement.replace(/\s+/g, ' ').trim();
  if (/^alter table "?[\w.]+"? alter column "?\w+"? drop not null;?$/i.test(text)) return 'relax';
  return expanding.some((pattern) => pattern.test(text)) || addsUsableColumn(text) ? 'expand' : 'contract';
}
