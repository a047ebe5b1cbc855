import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, prometheusContentType } from 'prom-client';

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
 */
export interface Metrics {
  readonly registry: Registry;
  /** Requests answered. `cache`: `hit` | `miss` | `bypass`. */
  readonly requests: Counter<'route' | 'status' | 'model' | 'provider' | 'cache'>;
  /** End-to-end request time in seconds, until the last byte (streams included). */
  readonly requestDuration: Histogram<'route' | 'status'>;
  /** Time spent in the gateway itself (everything except waiting for providers), seconds. */
  readonly gatewayOverhead: Histogram<'route'>;
  /** One provider attempt, seconds. `outcome`: `success` | `error` | `timeout` | `cancelled`. */
  readonly providerDuration: Histogram<'provider' | 'model' | 'outcome'>;
  /** Time from sending a streaming request to its first content token, seconds. */
  readonly timeToFirstToken: Histogram<'provider' | 'model'>;
  /** Tokens billed. `direction`: `prompt` | `completion`. */
  readonly tokens: Counter<'direction' | 'model' | 'provider'>;
  /** Cost charged at catalog prices, US dollars. */
  readonly costUsd: Counter<'model' | 'provider'>;
  /** Savings against the baseline model (routing to a cheaper model, cache hits), US dollars. */
  readonly savingsUsd: Counter<'model' | 'provider'>;
  /** Failed provider calls. `kind`: the normalised error type (`rate_limit`, `timeout`, `server`, ...). */
  readonly upstreamErrors: Counter<'provider' | 'kind' | 'status'>;
  /** Cache hits. `layer`: `l0` | `l1` | `semantic`; `type`: the request kind (`chat`, `embeddings`, ...). */
  readonly cacheHits: Counter<'layer' | 'type'>;
  /** Requests rejected by a limit. `scope`: `rpm` | `tpm` | `budget` | `quota` | `ip`. */
  readonly rateLimitRejections: Counter<'scope'>;
  /** Entries waiting in the learn queue (ledger, decisions, feedback). */
  readonly learnQueueDepth: Gauge;
  /** Circuit breaker state per provider/model: 0 closed, 1 half-open, 2 open. */
  readonly breakerState: Gauge<'provider' | 'model'>;
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

/** Breaker states as exported by {@link Metrics.breakerState}. */
export const BREAKER_STATE = { closed: 0, halfOpen: 1, open: 2 } as const;

// 1 ms .. 60 s: cached answers land in the first buckets, long generations in the last.
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];
// 10 µs .. 100 ms: the gateway's own work should sit well under a millisecond.
const OVERHEAD_BUCKETS = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];
const FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 20, 30];

/** Creates the metric set on a fresh registry. Nothing is global; nothing runs until scraped. */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const prefix = options.prefix ?? 'svc_';
  const registry = new Registry();
  registry.setContentType(prometheusContentType);
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix });
  const registers = [registry];

  return {
    registry,
    requests: new Counter({
      name: `${prefix}requests_total`,
      help: 'Requests answered by the gateway.',
      labelNames: ['route', 'status', 'model', 'provider', 'cache'] as const,
      registers,
    }),
    requestDuration: new Histogram({
      name: `${prefix}request_duration_seconds`,
      help: 'End-to-end request duration in seconds.',
      labelNames: ['route', 'status'] as const,
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    gatewayOverhead: new Histogram({
      name: `${prefix}gateway_overhead_seconds`,
      help: 'Time spent in the gateway excluding provider calls, in seconds.',
      labelNames: ['route'] as const,
      buckets: OVERHEAD_BUCKETS,
      registers,
    }),
    providerDuration: new Histogram({
      name: `${prefix}provider_duration_seconds`,
      help: 'Duration of one provider attempt in seconds.',
      labelNames: ['provider', 'model', 'outcome'] as const,
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    timeToFirstToken: new Histogram({
      name: `${prefix}time_to_first_token_seconds`,
      help: 'Time to the first streamed content token in seconds.',
      labelNames: ['provider', 'model'] as const,
      buckets: FIRST_TOKEN_BUCKETS,
      registers,
    }),
    tokens: new Counter({
      name: `${prefix}tokens_total`,
      help: 'Tokens billed, by direction.',
      labelNames: ['direction', 'model', 'provider'] as const,
      registers,
    }),
    costUsd: new Counter({
      name: `${prefix}cost_usd_total`,
      help: 'Cost at catalog prices in US dollars.',
      labelNames: ['model', 'provider'] as const,
      registers,
    }),
    savingsUsd: new Counter({
      name: `${prefix}savings_usd_total`,
      help: 'Savings against the baseline model in US dollars.',
      labelNames: ['model', 'provider'] as const,
      registers,
    }),
    upstreamErrors: new Counter({
      name: `${prefix}upstream_errors_total`,
      help: 'Failed provider calls.',
      labelNames: ['provider', 'kind', 'status'] as const,
      registers,
    }),
    cacheHits: new Counter({
      name: `${prefix}cache_hits_total`,
      help: 'Cache hits by layer.',
      labelNames: ['layer', 'type'] as const,
      registers,
    }),
    rateLimitRejections: new Counter({
      name: `${prefix}rate_limit_rejections_total`,
      help: 'Requests rejected by a rate limit, budget or quota.',
      labelNames: ['scope'] as const,
      registers,
    }),
    learnQueueDepth: new Gauge({
      name: `${prefix}learn_queue_depth`,
      help: 'Entries waiting in the learn queue.',
      registers,
    }),
    breakerState: new Gauge({
      name: `${prefix}breaker_state`,
      help: 'Circuit breaker state: 0 closed, 1 half-open, 2 open.',
      labelNames: ['provider', 'model'] as const,
      registers,
    }),
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
    metrics: () => registry.metrics(),
    contentType: prometheusContentType,
  };
}
