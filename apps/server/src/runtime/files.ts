import type { Database, FileRepository } from '@svc/db';
import type { Logger } from '@svc/telemetry';
import type { Env } from './env.js';

/** How often expired files and ended batches are deleted (an expired file is never served, swept or not). */
const SWEEP_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** `/v1/files` and the batches' files: the rows, the largest upload and how long a file lives. */
export interface KeptFiles {
  store: FileRepository;
  /** SVC_FILES_MAX_BYTES. */
  maxBytes: number;
  /** SVC_FILES_TTL_DAYS. */
  ttlDays: number;
}

/**
 * Files over `db.files`, with an hourly sweep of the expired ones and of the batches that ended
 * (their lines hold the requests): a batch is deleted SVC_FILES_TTL_DAYS after its completion
 * window closed, so never before its output files, which live that long from when they were
 * written. `stop` ends the sweep.
 */
export function keepFiles(env: Env, db: Database, logger: Logger): KeptFiles & { stop(): void } {
  const sweep = () => {
    db.files.deleteExpired().catch((error: unknown) => logger.warn({ err: error }, 'files: the expiry sweep failed'));
    const before = new Date(Date.now() - env.SVC_FILES_TTL_DAYS * DAY_MS);
    db.batches.deleteEnded(before).catch((error: unknown) => logger.warn({ err: error }, 'batches: the retention sweep failed'));
  };
  const timer = setInterval(sweep, SWEEP_MS);
  timer.unref();
  sweep();
  return { store: db.files, maxBytes: env.SVC_FILES_MAX_BYTES, ttlDays: env.SVC_FILES_TTL_DAYS, stop: () => clearInterval(timer) };
}
