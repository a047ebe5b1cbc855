import { KvLearnJournal, type LearnSink, LearnQueue, type LearnWriter } from '@svc/pipeline';
import type { RuntimeBase } from './runtime-base.js';

/**
 * The learn stage's sink: usage ledger and decision log writes, batched off the response path.
 * With a shared kv the ledger is journaled there first (Redis Streams): a crash loses nothing
 * queued. Its backlog is watched by the metrics.
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
  const learn: LearnSink = env.REDIS_URL
    ? new KvLearnJournal({ kv, writer, flushIntervalMs: env.SVC_LEARN_FLUSH_MS, onError: onLearnError })
    : new LearnQueue({ writer, flushIntervalMs: env.SVC_LEARN_FLUSH_MS, onError: onLearnError });
  metrics.watch({
    learn: () => {
      const backlog = learn.lastBacklog();
      const stats = learn.stats();
      return { depth: backlog.usage + backlog.decisions, processed: stats.processed, failures: stats.failures, oldestPendingAt: backlog.oldestPendingAt };
    },
  });
  return learn;
}
