import { Counter, Gauge, Registry, collectDefaultMetrics, prometheusContentType } from 'prom-client';
import { BoundCounter, BoundHistogram, type CounterSeries, type HistogramSeries } from './series.js';

/** Settings of {@link createMetrics}. */
export interface MetricsOptions {
  /** Prepended to every metric name. Default `svc_`. */
  prefix?: string;
  /**
   * Also collect prom-client's process/runtime metrics (CPU, memory, event-loop lag, GC) into
   * this registry, under the same prefix. Default true; they are computed at scrape time and
   * hold no timer that keeps the process alive.
   */
  defaultMetrics?: boolean;
}

/**
 * The gateway's Prometheus metrics, on a registry of its own (never prom-client's global one),
 * so several gateways in one process or test run never share or clash.
 *
 * Label cardinality is bounded by design: `model` and `provider` only ever take values from the
 * model catalog (callers map unknown ids to `unknown`, never echo user input); `route` is the
 * route pattern (`/v1/chat/completions`), never the raw path; `status` is the HTTP status
 * code; the remaining labels are small closed sets documented on each metric.
 *
 * Request-path metrics are {@link BoundCounter}s and {@link BoundHistogram}s: bind a series once
 * (`series(...)`, or {@link Metrics.model} for a model's set) and `inc`/`observe` on it costs a
 * number addition; `inc(labels)`/`observe(labels)` remain for cold paths.
 */
export interface Metrics {
  readonly registry: Registry;
  /** Requests answered. `cache`: the `x-svc-cache-hit` header (`true` | `false` | empty when none). */
  readonly requests: BoundCounter<'route' | 'status' | 'model' | 'provider' | 'cache'>;
  /** End-to-end request time in seconds, until the last byte (streams included). */
  readonly requestDuration: BoundHistogram<'route' | 'status'>;
  /**
   * Time spent in the gateway itself, seconds: the request's time minus the provider calls'
   * (JSON answers: until the answer is ready; streams: until the first event is ready to send).
   * `route`: `chat` | `chat_stream`.
   */
  readonly gatewayOverhead: BoundHistogram<'route'>;
  /** One provider attempt, seconds. `outcome`: `ok` | `error` | `skipped`. */
  readonly providerDuration: BoundHistogram<'provider' | 'model' | 'outcome'>;
  /** Time from the request's arrival to its first streamed content token, seconds. */
  readonly timeToFirstToken: BoundHistogram<'provider' | 'model'>;
  /** Tokens billed. `direction`: `prompt` | `completion`. */
  readonly tokens: BoundCounter<'direction' | 'model' | 'provider'>;
  /** Cost charged at catalog prices, US dollars. */
  readonly costUsd: BoundCounter<'model' | 'provider'>;
  /** Savings against the baseline model (routing to a cheaper model, cache hits), US dollars. */
  readonly savingsUsd: BoundCounter<'model' | 'provider'>;
  /** Failed provider calls. `kind`: the normalised error type (`rate_limit`, `timeout`, `server`, ...); `status`: the upstream HTTP status (0 without one). */
  readonly upstreamErrors: BoundCounter<'provider' | 'kind' | 'status'>;
  /** Cache hits. `layer`: `l0` | `l1` | `semantic`; `type`: the request kind (`chat`, `embeddings`, ...). */
  readonly cacheHits: BoundCounter<'layer' | 'type'>;
  /** Requests refused by a limit. `scope`: `rate` (RPM/TPM, 429) | `budget` | `quota` (402). */
  readonly rateLimitRejections: BoundCounter<'scope'>;
  /**
   * Optional stages skipped by the operator's switches. `stage`: `exact_cache` | `semantic_cache`
   * | `memory` | `hedging` | `speculation` | `output_verification` | `router_exploration`;
   * `reason`: `degradation` | `flag`.
   */
  readonly stagesShed: BoundCounter<'stage' | 'reason'>;
  /** Circuit breaker state per provider/model: 0 closed, 1 half-open, 2 open. */
  readonly breakerState: Gauge<'provider' | 'model'>;
  /** The request-path series of one model, bound once and cached. */
  model(provider: string, id: string): ModelSeries;
  /** Live state read at scrape time (learn stage, degradation level, flags); later calls add or replace sources. */
  watch(sources: LiveSources): void;
  /** Realtime voice sessions open on this instance. */
  readonly realtimeSessions: Gauge<'provider' | 'model'>;
  /** Billed minutes of ended realtime sessions (every started minute). */
  readonly realtimeSessionMinutes: Counter<'provider' | 'model'>;
  /** Ended realtime sessions. `reason`: `client` | `upstream` | `upstream_error` | `deadline` | `shutdown` | `error`. */
  readonly realtimeSessionsClosed: Counter<'reason'>;
  /** The exposition text for `GET /metrics`. */
  metrics(): Promise<string>;
  /** `Content-Type` of {@link Metrics.metrics}: Prometheus text format 0.0.4. */
  readonly contentType: string;
}

/** A model's pre-bound series. */
export interface ModelSeries {
  readonly promptTokens: CounterSeries;
  readonly completionTokens: CounterSeries;
  readonly costUsd: CounterSeries;
  readonly savingsUsd: CounterSeries;
  readonly providerOk: HistogramSeries;
  readonly providerError: HistogramSeries;
  readonly providerSkipped: HistogramSeries;
  readonly timeToFirstToken: HistogramSeries;
}

/** Figures of the asynchronous learn stage, as `svc_learn_*` exports them. */
export interface LearnStageFigures {
  /** Entries waiting to be written: the shared journal's backlog when there is one, else this instance's queue. */
  depth: number;
  /** Entries written since start (this instance). */
  processed: number;
  /** Failed writes and journal appends since start (this instance). */
  failures: number;
  /** Epoch ms of the oldest entry still waiting; null when none waits. */
  oldestPendingAt: number | null;
}

/** Totals of shadow judging on this instance since start, as `svc_shadow_*` exports them. */
export interface ShadowFigures {
  /** Sampled requests queued for judging. */
  queued: number;
  /** Sampled requests dropped because the queue was full. */
  dropped: number;
  /** Queued requests whose judging ended (whatever the outcome). */
  done: number;
  /** Queued requests whose judging failed. */
  failed: number;
  /** Pairs judged (a verdict stored). */
  judged: number;
  /** Calls not made because the organisation's day budget was spent. */
  overBudget: number;
  /**
   * Requests the focused sampler took (absent: the sampler is not focused): those whose routing
   * choice was still open (the learner unsure of a candidate) and settled ones (judged at a quarter of the rate).
   */
  sampledOpen?: number;
  sampledSettled?: number;
  /** Answers not judged, by reason (not sampled, no store, proxy mode...). */
  skipped: Readonly<Record<string, number>>;
}

export interface LiveSources {
  learn?: () => LearnStageFigures;
  shadow?: () => ShadowFigures;
  /** 0 none, 1 light, 2 heavy. */
  degradationLevel?: () => number;
  /** Every feature flag and whether it is on. */
  flags?: () => Readonly<Record<string, boolean>>;
}

/** Breaker states as exported by {@link Metrics.breakerState}. */
export const BREAKER_STATE = { closed: 0, halfOpen: 1, open: 2 } as const;

// 1 ms .. 60 s: cached answers land in the first buckets, long generations in the last.
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];
// 10 µs .. 100 ms: the gateway's own work should sit well under a millisecond.
const OVERHEAD_BUCKETS = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];
const FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 20, 30];

/** Each model's series, bound once on its first request (a map lookup afterwards). */
function seriesByModel(families: Pick<Metrics, 'tokens' | 'costUsd' | 'savingsUsd' | 'providerDuration' | 'timeToFirstToken'>): Metrics['model'] {
  const { tokens, costUsd, savingsUsd, providerDuration, timeToFirstToken } = families;
  const models = new Map<string, ModelSeries>();
  return (provider, id) => {
    let bound = models.get(id);
    if (!bound) {
      bound = {
        promptTokens: tokens.series('prompt', id, provider),
        completionTokens: tokens.series('completion', id, provider),
        costUsd: costUsd.series(id, provider),
        savingsUsd: savingsUsd.series(id, provider),
        providerOk: providerDuration.series(provider, id, 'ok'),
        providerError: providerDuration.series(provider, id, 'error'),
        providerSkipped: providerDuration.series(provider, id, 'skipped'),
        timeToFirstToken: timeToFirstToken.series(provider, id),
      };
      models.set(id, bound);
    }
    return bound;
  };
}

/** The realtime voice sessions' gauge and counters. */
function realtimeMetrics(prefix: string, registers: Registry[]): Pick<Metrics, 'realtimeSessions' | 'realtimeSessionMinutes' | 'realtimeSessionsClosed'> {
  return {
    realtimeSessions: new Gauge({
      name: `${prefix}realtime_sessions_open`,
      help: 'Realtime voice sessions open on this instance.',
      labelNames: ['provider', 'model'] as const,
      registers,
    }),
    realtimeSessionMinutes: new Counter({
      name: `${prefix}realtime_session_minutes_total`,
      help: 'Billed minutes of ended realtime voice sessions (every started minute).',
      labelNames: ['provider', 'model'] as const,
      registers,
    }),
    realtimeSessionsClosed: new Counter({
      name: `${prefix}realtime_sessions_closed_total`,
      help: 'Ended realtime voice sessions by who or what ended them.',
      labelNames: ['reason'] as const,
      registers,
    }),
  };
}

/** Creates the metric set on a fresh registry. Nothing is global; nothing runs until scraped. */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const prefix = options.prefix ?? 'svc_';
  const registry = new Registry();
  registry.setContentType(prometheusContentType);
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix });
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new BoundCounter({ name: prefix + name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: readonly number[]) =>
    new BoundHistogram({ name: prefix + name, help, labelNames, buckets, registers });

  const providerDuration = histogram('provider_duration_seconds', 'Duration of one provider attempt in seconds.', ['provider', 'model', 'outcome'], REQUEST_BUCKETS);
  const timeToFirstToken = histogram('time_to_first_token_seconds', 'Time from the request to its first streamed content token in seconds.', ['provider', 'model'], FIRST_TOKEN_BUCKETS);
  const tokens = counter('tokens_total', 'Tokens billed, by direction.', ['direction', 'model', 'provider']);
  const costUsd = counter('cost_usd_total', 'Cost at catalog prices in US dollars.', ['model', 'provider']);
  const savingsUsd = counter('savings_usd_total', 'Savings against the baseline model in US dollars.', ['model', 'provider']);
  const sources: LiveSources = {};
  watchLive(prefix, registers, sources);

  return {
    registry,
    requests: counter('requests_total', 'Requests answered by the gateway.', ['route', 'status', 'model', 'provider', 'cache']),
    requestDuration: histogram('request_duration_seconds', 'End-to-end request duration in seconds.', ['route', 'status'], REQUEST_BUCKETS),
    gatewayOverhead: histogram('gateway_overhead_seconds', 'Time spent in the gateway excluding provider calls, in seconds.', ['route'], OVERHEAD_BUCKETS),
    providerDuration,
    timeToFirstToken,
    tokens,
    costUsd,
    savingsUsd,
    upstreamErrors: counter('upstream_errors_total', 'Failed provider calls.', ['provider', 'kind', 'status']),
    cacheHits: counter('cache_hits_total', 'Cache hits by layer.', ['layer', 'type']),
    rateLimitRejections: counter('rate_limit_rejections_total', 'Requests rejected by a rate limit, budget or quota.', ['scope']),
    stagesShed: counter('stages_shed_total', 'Optional stages skipped by degradation or a feature flag.', ['stage', 'reason']),
    breakerState: new Gauge({
      name: `${prefix}breaker_state`,
      help: 'Circuit breaker state: 0 closed, 1 half-open, 2 open.',
      labelNames: ['provider', 'model'] as const,
      registers,
    }),
    model: seriesByModel({ tokens, costUsd, savingsUsd, providerDuration, timeToFirstToken }),
    watch(next) {
      Object.assign(sources, next);
    },
    ...realtimeMetrics(prefix, registers),
    metrics: () => registry.metrics(),
    contentType: prometheusContentType,
  };
}

/** The scrape-time gauges and counters over {@link LiveSources} (absent sources export nothing). */
function watchLive(prefix: string, registers: Registry[], sources: LiveSources): void {
  const gauge = (name: string, help: string, read: () => number | undefined) =>
    new Gauge({
      name: prefix + name,
      help,
      registers,
      collect() {
        const value = read();
        if (value !== undefined) this.set(value);
      },
    });
  // Totals the learn stage keeps itself: exported as they are.
  const total = (name: string, help: string, read: () => number | undefined) =>
    new Counter({
      name: prefix + name,
      help,
      registers,
      collect() {
        const value = read();
        if (value === undefined) return;
        this.reset();
        this.inc(value);
      },
    });
  const learn = () => sources.learn?.();
  gauge('learn_queue_depth', 'Entries of the learn stage (usage ledger, decision log) waiting to be written.', () => learn()?.depth);
  gauge('learn_lag_seconds', 'Age of the oldest entry waiting in the learn stage, seconds (0 when none waits).', () => {
    const oldest = learn()?.oldestPendingAt;
    return oldest === undefined ? undefined : oldest === null ? 0 : Math.max(0, Date.now() - oldest) / 1000;
  });
  total('learn_processed_total', 'Learn-stage entries written to the database by this instance.', () => learn()?.processed);
  total('learn_failures_total', 'Failed learn-stage writes and journal appends on this instance.', () => learn()?.failures);
  watchShadow({ prefix, registers, total, gauge }, sources);
  gauge('degradation_level', 'Degradation level in force: 0 none, 1 light, 2 heavy.', () => sources.degradationLevel?.());
  new Gauge({
    name: `${prefix}feature_flag_enabled`,
    help: 'Feature flags in force: 1 on, 0 off.',
    labelNames: ['flag'] as const,
    registers,
    collect() {
      const flags = sources.flags?.();
      if (!flags) return;
      for (const flag in flags) this.set({ flag }, flags[flag] ? 1 : 0);
    },
  });
}

type Live = (name: string, help: string, read: () => number | undefined) => Counter | Gauge;

/** Shadow judging's totals, its backlog, and its skips by reason (absent source: nothing). */
function watchShadow(live: { prefix: string; registers: Registry[]; total: Live; gauge: Live }, sources: LiveSources): void {
  const { total, gauge } = live;
  const shadow = () => sources.shadow?.();
  total('shadow_queued_total', 'Answered requests sampled and queued for shadow judging on this instance.', () => shadow()?.queued);
  total('shadow_dropped_total', 'Sampled requests dropped because the shadow-judging queue was full.', () => shadow()?.dropped);
  total('shadow_failed_total', 'Queued shadow judgings that failed.', () => shadow()?.failed);
  total('shadow_judged_total', 'Pairs judged (candidate against served answer) on this instance.', () => shadow()?.judged);
  total('shadow_over_budget_total', "Shadow or judge calls not made because the organisation's day budget was spent.", () => shadow()?.overBudget);
  gauge('shadow_queue_depth', 'Sampled requests waiting for or in shadow judging on this instance.', () => {
    const figures = shadow();
    return figures === undefined ? undefined : figures.queued - figures.done;
  });
  new Counter({
    name: `${live.prefix}shadow_sampled_total`,
    help: "Requests the focused shadow-judging sampler took, by whether the routing choice was still open or settled.",
    labelNames: ['choice'] as const,
    registers: live.registers,
    collect() {
      const figures = shadow();
      if (figures?.sampledOpen === undefined || figures.sampledSettled === undefined) return;
      this.reset();
      this.inc({ choice: 'open' }, figures.sampledOpen);
      this.inc({ choice: 'settled' }, figures.sampledSettled);
    },
  });
  new Counter({
    name: `${live.prefix}shadow_skipped_total`,
    help: 'Answered requests not shadow-judged, by reason.',
    labelNames: ['reason'] as const,
    registers: live.registers,
    collect() {
      const skipped = shadow()?.skipped;
      if (!skipped) return;
      this.reset();
      for (const reason in skipped) this.inc({ reason }, skipped[reason] ?? 0);
    },
  });
}
