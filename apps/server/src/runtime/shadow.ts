import { DailyShadowBudget, ShadowJudging, type ShadowSettings, readShadowSettings, verdictTableSink } from '@svc/judging';
import { type OrgCache, createOrgCache } from '@svc/kv';
import { type ShadowModelDeps, createShadowModels } from '@svc/pipeline';
import type { RuntimeBase } from './runtime-base.js';

/** Shadow judging of the process and the cache of organisations' settings it reads (a write invalidates it on every instance). */
export interface ShadowService {
  judging: ShadowJudging;
  settings: Pick<OrgCache<ShadowSettings | undefined>, 'invalidate'>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Shadow judging (docs/routing.md): settings from `org_settings.shadow_judging`, cached 30 s and
 * invalidated through the kv; calls through the gateway's providers with the organisation's own
 * keys and model access; the day budget in the kv; verdicts into `shadow_verdicts`.
 */
export function createShadowService(base: RuntimeBase, parts: Omit<ShadowModelDeps, 'metrics'>): ShadowService {
  const { db, kv, logger } = base;
  const settings = createOrgCache<ShadowSettings | undefined>({
    load: async (orgId) => readShadowSettings(await db.settings.get(orgId)),
    channel: 'shadow-judging:changed',
    bus: kv,
    ttlMs: 30_000,
    retryAfterMs: 5_000,
    fallback: () => undefined,
    onError: (error) => logger.warn({ err: error }, 'shadow judging settings unavailable; judging is off until they load'),
  });
  const onError = (error: unknown) => logger.warn({ err: error }, 'shadow judging: a sampled request was not judged');
  const judging = new ShadowJudging({
    models: createShadowModels({ ...parts, metrics: base.metrics }),
    settings: async (orgId) => settings.get(orgId),
    budget: new DailyShadowBudget(kv),
    sink: verdictTableSink(db.shadowVerdicts),
    onError,
  });
  return {
    judging,
    settings,
    start: () => settings.start(),
    async stop() {
      await judging.idle();
      await settings.stop();
    },
  };
}
