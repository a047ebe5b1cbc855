/** A write hit a unique constraint, e.g. an organisation name or key hash already in use. */
export class DbConflictError extends Error {
  readonly code = 'db_conflict';
  /** Name of the violated constraint when the driver reports it, e.g. `organizations_name_unique`. */
  readonly constraint: string | undefined;

  constructor(message: string, options: { constraint?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'DbConflictError';
    this.constraint = options.constraint;
  }
}

interface PgErrorFields {
  code?: unknown;
  constraint?: unknown;
  constraint_name?: unknown;
  cause?: unknown;
}

/** The driver's error under drizzle's DrizzleQueryError wrapper, if it carries a SQLSTATE. */
function findPgError(error: unknown): PgErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const fields = current as PgErrorFields;
    if (typeof fields.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code)) return fields;
    current = fields.cause;
  }
  return undefined;
}

/** Rethrows a unique violation (SQLSTATE 23505) as DbConflictError; other errors unchanged. */
export function toDbError(error: unknown, message: string): unknown {
  const pg = findPgError(error);
  if (pg?.code !== '23505') return error;
  const constraint = typeof pg.constraint === 'string' ? pg.constraint : pg.constraint_name;
  return new DbConflictError(message, {
    constraint: typeof constraint === 'string' ? constraint : undefined,
    cause: error,
  });
}
