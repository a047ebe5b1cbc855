import { withOwnKeys } from '@svc/byok';
import type { LatencyStats } from '@svc/router';
import type { Attempt } from '../call/attempt.js';
import type { CallSettings, ProviderLookup } from '../call/call.js';
import { observeAttempt } from '../call/call-metrics.js';
import { type Deadline, createDeadline, defaultTimeouts, requestTimeoutMs } from '../call/deadline.js';
import type { GatewayDeps } from '../gateway-types.js';
import { reliabilitySettings } from '../call/reliability.js';
import { largerContextModels, requiredCapabilities } from './route.js';
import { runs } from '../switches/switches.js';
import type { ChatTurn } from './chat-turn.js';

const defaultRetry = { maxRetries: 1, baseMs: 200, capMs: 2_000 };

/** How one request calls its providers: the settings of the waterfall, its deadline, the attempts it made. */
export interface CallPlan {
  settings: CallSettings;
  deadline: Deadline;
  /** Every provider call, in order (the decision log's `attempts`). */
  attempts: Attempt[];
  /** The organisation's own providers (BYOK), when it has any. */
  own: ProviderLookup | undefined;
  /** Which providers the request may reach: the organisation's own first. */
  providers: ProviderLookup;
}

type PlanDeps = Pick<GatewayDeps, 'byok' | 'providers' | 'timeouts' | 'retry' | 'hedging' | 'catalog' | 'breakers' | 'metrics'>;

/**
 * Stage 4's settings for one request: its reliability level (candidates, retries, hedging), the
 * organisation's own keys before the platform's, the deadline and first-byte bounds, breakers,
 * forwarded headers and the trace. Waits only for an organisation's keys that are not cached.
 */
export async function planCalls(deps: PlanDeps, turn: ChatTurn, maxAttempts: number, latency: LatencyStats): Promise<CallPlan> {
  const { request, exchange, switches, shed } = turn;
  const reliability = reliabilitySettings(request.svc?.reliabilityLevel, deps.retry ?? defaultRetry, maxAttempts);
  const found = deps.byok?.forOrg(exchange.caller.org.id);
  const own = found instanceof Promise ? await found : found;
  const { providers, ownKey } = withOwnKeys(own, deps.providers);
  const timeouts = deps.timeouts ?? defaultTimeouts;
  const requestMs = requestTimeoutMs(timeouts.requestMs, exchange.timeoutMs);
  const deadline = createDeadline(exchange.signal, requestMs, exchange.abort);
  const hedging = deps.hedging;
  // One literal with every key, absent ones undefined: conditional spreads made V8 copy it on a slow path.
  const settings: CallSettings = {
    providers,
    ownKey: own ? ownKey : undefined,
    observer: {
      attempt: (model, attempt) => {
        observeAttempt(deps.metrics, model, attempt);
        // Time to the answer (or to a stream's first event): what the router weighs as latency.
        if (attempt.outcome === 'ok') latency.observe(model.id, attempt.latencyMs);
      },
    },
    // Each fallback model gets its own attempt beyond what the first choice's waterfall may use.
    maxAttempts: reliability.maxAttempts + (turn.decision.fallbacks?.length ?? 0),
    signal: deadline.signal,
    firstByteTimeoutMs: (provider) => timeouts.perProvider?.[provider]?.firstByteMs ?? timeouts.firstByteMs,
    retry: reliability.retry,
    deadline: requestMs > 0 ? Date.now() + requestMs : undefined,
    hedging: hedging
      ? { latency: hedging.latency, stats: hedging.stats, enabled: (request.svc?.enableHedging ?? (reliability.hedge || hedging.config.enabledByDefault)) && runs(switches, 'hedging', shed) }
      : undefined,
    largerContext: (model) => largerContextModels(deps.catalog, model, requiredCapabilities(request)),
    breakers: deps.breakers,
    headers: exchange.forwardHeaders,
    trace: exchange.trace,
  };
  return { settings, deadline, attempts: [], own, providers };
}
