import type { Catalog } from '@svc/catalog';
import { RouterFeedback, SHARED_WEIGHTS_KEY, type SharedSwitches, kvWeightStore } from '@svc/pipeline';
import { type LatencyStats, type PassThroughOptions, type Router, createChoiceLearner, createLatencyStats, createLinUcbPolicy, createRouter } from '@svc/router';
import type { RuntimeBase } from './runtime-base.js';
import type { ShadowSettingsCache } from './shadow.js';

/**
 * Share of a promoted task kind's requests the learner still sends to the model it replaced, where
 * shadow judging judges them (`ChoiceLearner.unsure` says open), so a promotion that a chance run
 * of verdicts carried is undone (docs/routing.md, "Repeated looks"). Costs the strong model's price
 * on that share, never quality.
 */
const REVISIT_SHARE = 0.05;

/** The router with its learned weights restored from the kv, its latency stats, and the feedback that trains and saves it. */
export interface Routing {
  router: Router;
  routerLatency: LatencyStats;
  feedback: RouterFeedback;
}

/**
 * The router over `catalog`; explicit names of `passThrough.providers` the catalog does not list
 * are forwarded as named. `perOrg`: each organisation's shadow-judging settings as the per-task
 * learner reads them, synchronously: its judge error share (`judge_error_rate`, estimated or the
 * default) and whether its kinds get a cautious start (`cautious_start`, default on).
 */
export async function startRouting(
  { env, kv, kvNamespace, servedBefore, logger }: RuntimeBase,
  catalog: Catalog,
  switches: SharedSwitches,
  passThrough: PassThroughOptions,
  perOrg: Pick<ShadowSettingsCache, 'judgeError' | 'cautiousStart'>,
): Promise<Routing> {
  const routerLatency = createLatencyStats();
  const router = createRouter({
    catalog,
    passThrough,
    latency: routerLatency,
    policy: createLinUcbPolicy({ explore: () => switches.current.flags.router_exploration }),
    // The deployment's own key; until its first save, what the earlier release kept for every deployment on the kv.
    state: { weights: kvWeightStore(kv, `${kvNamespace}router:weights`, servedBefore ? SHARED_WEIGHTS_KEY : undefined) },
    // A cautious start, per organisation (its shadow-judging `cautious_start`, default on): a kind the router sends to a cheap model is served by the pricier model judged against it until the cheap one is plausibly within the tolerance (docs/routing.md, "A cautious start").
    learner: createChoiceLearner({ judgeError: (orgId) => perOrg.judgeError(orgId), revisit: REVISIT_SHARE, cautiousStart: (orgId) => perOrg.cautiousStart(orgId) }),
    // A learned route change is applied only when the regression gate promotes it (the same rule and settings as /v1/admin/routing/gate).
    gate: { maxJudgedQualityDrop: env.SVC_GATE_MAX_JUDGED_DROP, minJudgedPairs: env.SVC_GATE_MIN_JUDGED_PAIRS },
  });
  const feedback = new RouterFeedback({
    router,
    saveIntervalMs: env.SVC_ROUTER_SAVE_INTERVAL_MS,
    onError: (error, what) => logger.warn({ err: error }, `${what} failed`),
  });
  await feedback.restore();
  return { router, routerLatency, feedback };
}
