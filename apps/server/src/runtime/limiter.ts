import type { AlertEvaluator } from '@svc/alerts';
import { Limiter } from '@svc/billing';
import type { RuntimeBase } from './runtime-base.js';

/** Limits: atomic across instances in the kv; a missing month is seeded from the usage ledger; a refusal is an alert event. */
export function createLimiter({ db, kv, logger }: RuntimeBase, alerts: AlertEvaluator): Limiter {
  return new Limiter({
    kv,
    loadMonth: async (orgId, month) => {
      const summary = await db.usage.summary(orgId, month.start);
      return { spentUsd: summary.costUsd, tokens: summary.totalTokens };
    },
    loadKeyMonth: async (orgId, keyId, month) => {
      const summary = await db.usage.summary(orgId, month.start, keyId);
      return { spentUsd: summary.costUsd, tokens: summary.totalTokens };
    },
    onError: (error) => logger.warn({ err: error }, 'limits state unavailable; admitting'),
    onRefusal: (refusal) => alerts.emit({ type: 'limit_refused', orgId: refusal.orgId, kind: refusal.kind }),
  });
}
