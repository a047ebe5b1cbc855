import { join } from 'node:path';
import { FileLearnJournal, KvLearnJournal, type LearnSink, LearnQueue, type LearnWriter } from '@svc/pipeline';
import { embeddedDataDir } from '../control-file.js';
import type { RuntimeBase } from './runtime-base.js';

/**
 * The learn stage's sink: usage ledger and decision log writes, batched off the response path.
 * The ledger is journaled first, so a crash loses nothing queued: in the shared kv with Redis
 * (Redis Streams), in the embedded data directory's `journal/` without (a file per flush, the rows
 * themselves handed at once to the store thread, which batches them); only
 * an in-memory PGlite or PostgreSQL without Redis queue in memory. Its backlog is watched by the
 * metrics.
 */
export function createLearnSink({ env, db, kv, metrics, logger }: RuntimeBase): LearnSink {
  const writer: LearnWriter = {
    writeUsage: async (events) => {
      await db.usage.insertMany(events);
    },
    writeDecisions: async (rows) => {
      await db.decisions.insertMany(rows);
    },
  };
  const onLearnError = (error: unknown) => logger.error({ err: error }, 'learn stage: batch write failed; will retry');
  const settings = { writer, flushIntervalMs: env.SVC_LEARN_FLUSH_MS, onError: onLearnError };
  const dataDir = embeddedDataDir(env);
  const learn: LearnSink = env.REDIS_URL
    ? new KvLearnJournal({ kv, ...settings })
    : dataDir
      ? new FileLearnJournal({ dir: join(dataDir, 'journal'), intake: db.intake, flushIntervalMs: settings.flushIntervalMs, onError: onLearnError })
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
