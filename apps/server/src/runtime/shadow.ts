import { DailyShadowBudget, type JudgedPairSink, ShadowJudging, type ShadowSettings, fanOutSinks, readShadowSettings, verdictTableSink } from '@svc/judging';
import { type OrgCache, createOrgCache } from '@svc/kv';
import { type RouterFeedback, type ShadowModelDeps, createShadowModels } from '@svc/pipeline';
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
 * keys and model access; the day budget in the kv; verdicts into `shadow_verdicts` and the
 * router's per-task learner.
 */
export function createShadowService(base: RuntimeBase, parts: Omit<ShadowModelDeps, 'metrics'> & { learner: Pick<RouterFeedback, 'recordJudgedPair'> }): ShadowService {
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
    settings: (orgId) => settings.get(orgId),
    budget: new DailyShadowBudget(kv),
    sink: fanOutSinks([verdictTableSink(db.shadowVerdicts), learnerSink(parts.learner)], onError),
    onError,
  });
  base.metrics.watch({ shadow: () => judging.stats() });
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

/** Teaches each verdict to the router's learner (a request the router did not classify teaches nothing). */
function learnerSink(learner: Pick<RouterFeedback, 'recordJudgedPair'>): JudgedPairSink {
  return {
    record: (pair) => {
      if (pair.taskKind === 'unknown') return;
      learner.recordJudgedPair({ orgId: pair.orgId, taskKind: pair.taskKind, incumbent: pair.incumbent, candidate: pair.candidate, verdict: pair.verdict });
    },
  };
}
