import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FileLearnJournal, KvLearnJournal, type LearnSink, LearnQueue, type LearnWriter, type OwnedOrgs, earlierDrainLock } from '@svc/pipeline';
import { embeddedDataDir } from '../control-file.js';
import type { RuntimeBase } from './runtime-base.js';

/**
 * The learn stage's sink: usage ledger and decision log writes, batched off the response path.
 * The ledger is journaled first, so a crash loses nothing queued: on the embedded store in its
 * data directory's `journal/` (a file per flush, the rows themselves handed at once to the store
 * thread, which batches them), with or without Redis: only one process writes an embedded store,
 * so its journal is its own; with PostgreSQL and Redis in the shared kv (Redis Streams) under the
 * store's identity, drained by any instance of the deployment and by no other deployment on that
 * Redis database; only an in-memory PGlite or PostgreSQL without Redis queue in memory. Its
 * backlog is watched by the metrics.
 */
export async function createLearnSink(base: RuntimeBase): Promise<LearnSink> {
  const { env, db, kv, metrics, logger } = base;
  const writer = ledgerWriter(db);
  const onLearnError = (error: unknown) => logger.error({ err: error }, 'learn stage: batch write failed; will retry');
  const settings = { writer, flushIntervalMs: env.SVC_LEARN_FLUSH_MS, onError: onLearnError };
  const dataDir = embeddedDataDir(env);
  const journalDir = dataDir ? join(dataDir, 'journal') : undefined;
  if (journalDir) await drainEarlierKvJournal(base, writer, journalDir);
  const learn: LearnSink = journalDir
    ? new FileLearnJournal({ dir: journalDir, intake: db.intake, flushIntervalMs: settings.flushIntervalMs, onError: onLearnError })
    : env.REDIS_URL
      ? new KvLearnJournal({ kv, ...settings, prefix: journalPrefix(base.kvNamespace), earlier: { owns: ownedBy(db), everyMs: EARLIER_JOURNAL_EVERY_MS } })
      : new LearnQueue(settings);
  metrics.watch({
    learn: () => {
      const backlog = learn.lastBacklog();
      const stats = learn.stats();
      return { depth: backlog.usage + backlog.decisions, processed: stats.processed, failures: stats.failures, oldestPendingAt: backlog.oldestPendingAt };
    },
  });
  return learn;
}

/** The deployment's ledger journal in the kv (its streams and locks). */
const journalPrefix = (kvNamespace: string): string => `${kvNamespace}learn:`;

/** How often a PostgreSQL deployment drains this store's rows from the journal earlier releases shared. */
const EARLIER_JOURNAL_EVERY_MS = 60_000;

/** The organisations of `orgIds` the store knows (one query a batch): a journal shared by deployments holds others' too. */
function ownedBy(db: RuntimeBase['db']): OwnedOrgs {
  return (orgIds) => db.orgs.existing(orgIds);
}

function ledgerWriter(db: RuntimeBase['db']): LearnWriter {
  return {
    writeUsage: async (events) => {
      await db.usage.insertMany(events);
    },
    writeDecisions: async (rows) => {
      await db.decisions.insertMany(rows);
    },
  };
}

/**
 * Releases before this one journaled an embedded store's ledger in Redis when `REDIS_URL` was
 * set, where another deployment sharing that Redis database drained it into its own store. An
 * embedded store that has served (a ledger row) but has no `journal/` yet was run so: what that
 * release left in Redis (a crash before it drained) for this store's organisations is written
 * here once, before the file journal takes over. A new store, or one that has its `journal/`, never reads Redis's journal. A drain
 * that failed fails the start, before `journal/` is made, so the next start tries again.
 */
async function drainEarlierKvJournal({ env, db, kv, kvNamespace, servedBefore, logger }: RuntimeBase, writer: LearnWriter, journalDir: string): Promise<void> {
  if (!env.REDIS_URL || existsSync(journalDir) || !servedBefore) return;
  const onError = (error: unknown) => logger.error({ err: error }, 'learn stage: the journal an earlier release left in Redis could not be written');
  const earlier = new KvLearnJournal({ kv, writer, owns: ownedBy(db), onError, drainLock: earlierDrainLock(journalPrefix(kvNamespace)) });
  await earlier.close();
  const { processed, failures } = earlier.stats();
  // Before `journal/` exists this runs again at the next start: failing now loses nothing.
  if (failures > 0) throw new Error('The ledger rows an earlier release journaled in Redis for this embedded store could not be written (see the log); start again once Redis and the store answer.');
  if (processed > 0) logger.info({ rows: processed }, 'learn stage: wrote the rows an earlier release journaled in Redis for this embedded store');
}
