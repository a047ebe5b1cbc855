import { DailyShadowBudget, type JudgedPairSink, ShadowJudging, type ShadowSettings, cautiousStartOf, fanOutSinks, readShadowSettings, verdictTableSink } from '@svc/judging';
import { type OrgCache, createOrgCache } from '@svc/kv';
import { type RouterFeedback, type ShadowModelDeps, createShadowModels, learnerFocus, learnerOrder } from '@svc/pipeline';
import type { ChoiceLearner } from '@svc/router';
import type { RuntimeBase } from './runtime-base.js';

/** How far back judged pairs are read against feedback for the judge's error estimate. */
const AGREEMENT_WINDOW_MS = 30 * 86_400_000;

/** Shadow judging of the process and the cache of organisations' settings it reads (a write invalidates it on every instance). */
export interface ShadowService {
  judging: ShadowJudging;
  /** Read (`get`: a fresh entry at once, else its load) and dropped on every instance (`invalidate`). */
  settings: Pick<OrgCache<ShadowSettings | undefined>, 'get' | 'invalidate'>;
  stop(): Promise<void>;
}

/** The organisations' shadow-judging settings, and the judge's error share the router's learner assumes for each. */
export interface ShadowSettingsCache {
  cache: OrgCache<ShadowSettings | undefined>;
  /**
   * The organisation's judge error share (`ShadowSettings.judgeError`: set, estimated from
   * feedback, or the default); 0 for an organisation that never set shadow judging (no judge).
   * While a reload is in flight, the share last loaded. Synchronous: the router asks it while routing.
   */
  judgeError(orgId: string): number;
  /**
   * Whether the router's learner gives the organisation's task kinds a cautious start
   * (`ShadowSettings.cautiousStart`): on for an organisation that never set it. While a reload is
   * in flight, the setting last loaded. Synchronous, as `judgeError`.
   */
  cautiousStart(orgId: string): boolean;
}

/**
 * `org_settings.shadow_judging`, cached 30 s and invalidated through the kv; when no judge error
 * rate is set, the estimate reads the last 30 days' judged pairs against feedback on the same requests.
 */
export function createShadowSettings({ db, kv, logger }: RuntimeBase): ShadowSettingsCache {
  // The settings last loaded per organisation, read while a reload is in flight.
  const lastLoaded = new Map<string, ShadowSettings | undefined>();
  const load = async (orgId: string) => {
    const stored = await db.settings.get(orgId);
    const set = readShadowSettings(stored);
    const settings = set && set.judgeErrorRate === undefined ? readShadowSettings(stored, await db.shadowVerdicts.judgeAgreement({ orgId, since: new Date(Date.now() - AGREEMENT_WINDOW_MS) })) : set;
    lastLoaded.set(orgId, settings);
    return settings;
  };
  const cache = createOrgCache<ShadowSettings | undefined>({
    load,
    channel: 'shadow-judging:changed',
    bus: kv,
    ttlMs: 30_000,
    retryAfterMs: 5_000,
    fallback: () => undefined,
    onError: (error) => logger.warn({ err: error }, 'shadow judging settings unavailable; judging is off until they load'),
  });
  /** The organisation's settings as cached, or the ones last loaded while a reload is in flight (synchronous: the router asks while routing). */
  const current = (orgId: string): ShadowSettings | undefined => {
    const settings = cache.get(orgId);
    return settings instanceof Promise ? lastLoaded.get(orgId) : settings;
  };
  return {
    cache,
    judgeError: (orgId) => current(orgId)?.judgeError.rate ?? 0,
    cautiousStart: (orgId) => cautiousStartOf(current(orgId)),
  };
}

/**
 * Shadow judging (docs/routing.md), started (listening for settings changes): settings from `createShadowSettings`; calls through the
 * gateway's providers with the organisation's own keys and model access; the day budget in the
 * kv; samples focused where the router's learner is unsure, first on the task kinds its judging order ranks first; verdicts into `shadow_verdicts` and the learner.
 */
export async function startShadowService(
  base: RuntimeBase,
  parts: Omit<ShadowModelDeps, 'metrics'> & { settings: ShadowSettingsCache; learner: Pick<RouterFeedback, 'recordJudgedPair'>; choices: Pick<ChoiceLearner, 'unsure' | 'judgedCounts' | 'winRate'> | undefined },
): Promise<ShadowService> {
  const { db, logger } = base;
  const { cache } = parts.settings;
  const onError = (error: unknown) => logger.warn({ err: error }, 'shadow judging: a sampled request was not judged');
  const judging = new ShadowJudging({
    models: createShadowModels({ ...parts, metrics: base.metrics }),
    settings: (orgId) => cache.get(orgId),
    budget: new DailyShadowBudget(base.kv),
    sink: fanOutSinks([verdictTableSink(db.shadowVerdicts), learnerSink(parts.learner)], onError),
    focus: parts.choices ? learnerFocus(parts.choices) : undefined,
    order: parts.choices ? learnerOrder(parts.choices) : undefined,
    onError,
  });
  base.metrics.watch({ shadow: () => judging.stats() });
  await cache.start();
  return {
    judging,
    settings: cache,
    async stop() {
      await judging.idle();
      await cache.stop();
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
