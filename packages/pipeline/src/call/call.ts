import type { ModelInfo } from '@svc/catalog';
import { type ChatRequest, type ChatResult, type GatewayError, type StreamEvent, isProviderError, modelNotFound, noProviderConfigured, toGatewayError } from '@svc/core';
import type { KeyAttempt, KeyPoolCallOptions, Provider, ProviderChatRequest, ProviderLookup } from '@svc/providers';
import { type CircuitBreakers, type HedgeStats, type LatencyTracker, type RetryPolicy, allBreakersOpen, hedge, retryDelay, sleep } from '@svc/resilience';
import type { TraceSpan } from '@svc/telemetry';
import { leftByClient } from '@svc/core';
import { createDeadline, type Deadline } from './deadline.js';
import type { Attempt } from './attempt.js';
import { forModel } from '../chat/reasoning-controls.js';

export type { ProviderLookup };

/** Hooks the call stage reports through (metrics live in the gateway). */
export interface CallObserver {
  attempt(model: ModelInfo, attempt: Attempt): void;
}

export interface CallSettings {
  providers: ProviderLookup;
  observer: CallObserver;
  /** Upper bound on candidates tried for one request. */
  maxAttempts: number;
  signal: AbortSignal;
  /**
   * Models with a larger context window than `model` that can serve the request, best first:
   * where the waterfall continues after a context-length error.
   */
  largerContext?: (model: ModelInfo) => readonly ModelInfo[];
  headers?: Record<string, string>;
  /** The request's span: each attempt becomes a child (GenAI semantic conventions) and sends its traceparent upstream. */
  trace?: TraceSpan;
  /** Circuit breakers per `provider/model` slug; absent: every candidate is admitted. */
  breakers?: BreakerGate;
  /**
   * Providers serving with the organisation's own key (BYOK): a fault of that key (rate limit,
   * billing, authentication) says nothing about the model's health for everyone else, so it
   * never counts against the shared breaker.
   */
  ownKey?: (providerId: string) => boolean;
  /**
   * Longest wait for the first byte before the candidate counts as timed out and the next one is
   * tried: a stream's first event, a JSON call's response headers; per provider id (0: no limit).
   */
  firstByteTimeoutMs?: (provider: string) => number;
  /**
   * The calls are a single-model endpoint's (embeddings, moderations, audio, images), not chat():
   * an adapter keeps the first-byte bound itself only for chat and stream (`Provider.boundsFirstByte`),
   * so these are always bounded by a signal of the attempt's own.
   */
  unitCalls?: boolean;
  /** Retries of the last candidate left (retry-after honoured, bounded by the deadline). */
  retry?: Pick<RetryPolicy, 'maxRetries' | 'baseMs' | 'capMs'>;
  /** Epoch ms the request must be done by. */
  deadline?: number;
  /** Latency learning (always) and hedging (when `enabled` for this request). */
  hedging?: HedgingSettings;
}

/** Hedging state shared by every request, and this request's switch. */
export interface HedgingSettings {
  latency: LatencyTracker;
  stats: HedgeStats;
  /** `svc.enable_hedging` (or the deployment default) for this request. */
  enabled: boolean;
}

/** The part of @svc/resilience's CircuitBreakers the call stage uses. */
export type BreakerGate = Pick<CircuitBreakers, 'allow' | 'record' | 'releaseProbe'> & Partial<Pick<CircuitBreakers, 'knownOpen'>>;

/** The request a candidate's adapter gets: its upstream model name, and only the controls it can apply. */
function toProviderRequest(request: ChatRequest, model: ModelInfo): ProviderChatRequest {
  return { ...forModel(request, model), model: model.upstreamId };
}

/**
 * Walks the waterfall, for chat and every single-model endpoint alike: the next candidate is
 * tried when a provider fails in a way another model may not (ProviderError.retryable); a
 * caller-fault error is returned at once. A candidate whose provider is not configured is
 * skipped, one whose breaker is open too. `firstByte` says what ends a candidate's first-byte
 * timer: a stream's first event, or a JSON call's response headers.
 */
export async function walkWaterfall<T>(
  waterfall: readonly ModelInfo[],
  settings: CallSettings,
  attempts: Attempt[],
  firstByte: FirstByte,
  run: (provider: Provider, model: ModelInfo, options: KeyPoolCallOptions) => Promise<T>,
  dispose?: (value: T) => void,
): Promise<{ value: T; model: ModelInfo; providerMs: number }> {
  let lastError: unknown;
  let tried = 0;
  let queue: readonly ModelInfo[] = waterfall;
  const state: Walk<T> = { settings, attempts, spent: { providerMs: 0 }, firstByte, run, dispose, attempted: new Set<string>() };
  const { attempted, spent } = state;
  const skipped: { key: string; retryAfterMs?: number }[] = [];
  for (let position = 0; position < queue.length; position++) {
    const model = queue[position]!;
    if (tried >= settings.maxAttempts || settings.signal.aborted) break;
    const provider = settings.providers.get(model.provider);
    if (!provider || attempted.has(model.id)) continue;
    attempted.add(model.id);
    const admission = settings.breakers ? await settings.breakers.allow(model.id) : admitted;
    if (!admission.allowed) {
      skipped.push({ key: model.id, ...(admission.retryAfterMs === undefined ? {} : { retryAfterMs: admission.retryAfterMs }) });
      attempts.push({ model: model.id, provider: model.provider, outcome: 'skipped', errorKind: 'circuit_open', latencyMs: 0 });
      continue;
    }
    tried++;
    for (let retries = 0; ; retries++) {
      // Without hedging the walk does not await a hedge that cannot be (a promise and a turn a request).
      const hedged = retries === 0 && settings.hedging?.enabled === true ? await hedgedPair(state, queue, position, provider) : undefined;
      if (hedged?.partner) tried++;
      if (hedged?.won) return { value: hedged.won.value, model: hedged.won.model, providerMs: spent.providerMs };
      const outcome = hedged?.failed ?? (await attemptOnce(state, provider, model, settings.signal));
      if (outcome.ok) {
        void settings.breakers?.record(model.id, 'success', { probe: admission.probe });
        return { value: outcome.value, model, providerMs: spent.providerMs };
      }
      const error = outcome.error;
      lastError = error;
      if (countsAgainstBreaker(error, settings, model)) void settings.breakers?.record(model.id, 'failure', { probe: admission.probe });
      else if (admission.probe) void settings.breakers?.releaseProbe(model.id);
      if (!isProviderError(error) || !error.retryable) throw toGatewayError(error);
      if (error.kind === 'context_length' && settings.largerContext) {
        // Same-size siblings would overflow too: continue with larger windows only.
        queue = [...queue.slice(0, position + 1), ...settings.largerContext(model).filter((m) => !attempted.has(m.id))];
      }
      // Another candidate beats waiting; the last one left gets a bounded, retry-after-aware retry.
      const last =
        tried >= settings.maxAttempts || !queue.slice(position + 1).some((m) => !attempted.has(m.id) && settings.providers.get(m.provider) !== undefined);
      const policy = settings.retry && { ...settings.retry, ...(settings.deadline ? { deadline: settings.deadline } : {}) };
      const delay = last && policy && !settings.signal.aborted ? retryDelay(error, retries, policy) : undefined;
      if (delay === undefined || !(await sleep(delay, settings.signal).then(() => true, () => false))) break;
    }
  }
  if (lastError !== undefined) throw lastFailure(lastError, waterfall);
  if (skipped.length > 0) throw allBreakersOpen(skipped);
  throw noProviderConfigured(`No configured provider serves ${waterfall[0]?.id ?? 'this request'}.`);
}

/**
 * The error a walk that failed answers: the last candidate's, except that a passed-through model
 * the provider does not have is the provider's own refusal as a 404 `model_not_found` (the client
 * named a model that does not exist there), not a 502.
 */
function lastFailure(error: unknown, waterfall: readonly ModelInfo[]): GatewayError {
  const model = waterfall[0];
  if (isProviderError(error) && error.kind === 'not_found' && model?.source === 'passthrough' && waterfall.length === 1) {
    return modelNotFound(`${model.provider} does not serve the model '${model.upstreamId}': ${error.message}`);
  }
  return toGatewayError(error);
}

/**
 * What ends a candidate's first-byte timer: a stream's first event, or a JSON call's response
 * headers (an upstream that accepted the request and never answers is abandoned either way).
 */
export type FirstByte = 'event' | 'headers';

/** Failures of a key rather than of the model. */
const keyFaults = new Set<string>(['rate_limit', 'billing', 'authentication']);

/**
 * Whether a failed call counts against its model's shared circuit breaker: upstream trouble
 * only (a retryable provider error), not a caller fault, not our client leaving, and not a fault
 * of the organisation's own key (BYOK) that is the key's (rate limit, billing, authentication):
 * that says nothing about the model's health for everyone else, while its 5xx or timeout does.
 */
function countsAgainstBreaker(error: unknown, settings: Pick<CallSettings, 'signal' | 'ownKey'>, model: ModelInfo): boolean {
  if (!isProviderError(error) || !error.retryable || settings.signal.aborted) return false;
  return !(settings.ownKey?.(model.provider) === true && keyFaults.has(error.kind));
}

/**
 * An attempt nobody waits for any more: it lost a hedge race (its own signal aborted, not the
 * request's, not by its first-byte timer), or the client left. Neither says anything of the
 * model, so neither teaches the router a failure; a request's deadline passing does.
 */
function cancelled(attempt: AbortSignal, request: AbortSignal, firstByte: Deadline | undefined): boolean {
  if (leftByClient(request)) return true;
  return attempt.aborted && !request.aborted && firstByte?.expired !== true;
}

type AttemptOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** One walk down the waterfall: the request's settings, what it tried, and how a candidate is called. */
interface Walk<T> {
  settings: CallSettings;
  attempts: Attempt[];
  /** Time spent waiting for providers (every attempt, hedges included). */
  spent: { providerMs: number };
  firstByte: FirstByte;
  run: (provider: Provider, model: ModelInfo, options: KeyPoolCallOptions) => Promise<T>;
  /** Releases a value that lost a hedge race (a stream's upstream). */
  dispose: ((value: T) => void) | undefined;
  /** Candidates already called (or skipped by their breaker). */
  attempted: Set<string>;
}

/**
 * One call of one candidate. Key-pool fall-through happens inside the provider call: every key
 * that failed before the last one is its own attempt in the decision log.
 */
async function attemptOnce<T>(walk: Walk<T>, provider: Provider, model: ModelInfo, signal: AbortSignal): Promise<AttemptOutcome<T>> {
  const { settings } = walk;
  const started = performance.now();
  const limit = settings.firstByteTimeoutMs?.(model.provider) ?? 0;
  // A provider that keeps the first-byte bound itself gets it as a time and the call's own signal;
  // any other gets a signal of the attempt's own that the bound aborts.
  const own = provider.boundsFirstByte === true && settings.unitCalls !== true;
  const firstByte = own ? undefined : createDeadline(signal, limit);
  const keys = new KeyAttempts(model, walk, started);
  const span = settings.trace?.child(`chat ${model.upstreamId}`, 'client', {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': model.provider,
    'gen_ai.request.model': model.upstreamId,
    'svc.model': model.id,
  });
  const headers = span ? { ...settings.headers, ...span.headers() } : settings.headers;
  const options: KeyPoolCallOptions = {
    signal: firstByte === undefined ? signal : firstByte.signal,
    headers,
    // A JSON answer may take long to generate; only its headers are bounded. A stream's timer
    // runs until its first event (`run` resolves then).
    onResponse: firstByte !== undefined && walk.firstByte === 'headers' ? () => firstByte.clear() : undefined,
    firstByteBy: own && limit > 0 && Number.isFinite(limit) ? started + limit : undefined,
    onKeyAttempt: (key: KeyAttempt) => keys.next(key),
  };
  try {
    const value = await walk.run(provider, model, options);
    firstByte?.clear();
    const elapsed = performance.now() - started;
    walk.spent.providerMs += elapsed;
    settings.hedging?.latency.observe(model.id, elapsed);
    keys.record({ outcome: 'ok' });
    span?.end();
    return { ok: true, value };
  } catch (error) {
    firstByte?.release();
    walk.spent.providerMs += performance.now() - started;
    const errorKind = cancelled(signal, settings.signal, firstByte) ? 'cancelled' : isProviderError(error) ? error.kind : 'internal';
    const upstreamStatus = isProviderError(error) ? error.upstreamStatus : undefined;
    keys.record({ outcome: 'error', errorKind, ...(upstreamStatus !== undefined ? { upstreamStatus } : {}) });
    span?.set({ 'svc.error_kind': errorKind, ...(upstreamStatus !== undefined ? { 'http.response.status_code': upstreamStatus } : {}) });
    span?.end(error);
    return { ok: false, error };
  }
}

/** The attempts of one candidate's call, one per key of its pool that was tried. */
class KeyAttempts {
  private keyStarted: number;
  private lastKey: number | undefined;
  private pending: KeyAttempt | undefined;

  constructor(
    private readonly model: ModelInfo,
    private readonly walk: Pick<Walk<unknown>, 'attempts' | 'settings'>,
    started: number,
  ) {
    this.keyStarted = started;
  }

  /** The pool moves to another key: the one before it failed. */
  next(key: KeyAttempt): void {
    if (this.lastKey !== undefined) {
      this.push(keyFailure(this.model, this.lastKey, this.pending, this.keyStarted));
      this.keyStarted = performance.now();
    }
    this.lastKey = key.keyIndex;
    this.pending = key;
  }

  /** How the call ended, on its last key. */
  record(ended: Pick<Attempt, 'outcome' | 'errorKind' | 'upstreamStatus'>): void {
    const attempt: Attempt = { model: this.model.id, provider: this.model.provider, ...ended, latencyMs: Math.round(performance.now() - this.keyStarted) };
    if (this.lastKey !== undefined) attempt.keyIndex = this.lastKey;
    this.push(attempt);
  }

  private push(attempt: Attempt): void {
    this.walk.attempts.push(attempt);
    this.walk.settings.observer.attempt(this.model, attempt);
  }
}

interface HedgeOutcome<T> {
  /** The second candidate, when one was raced (it counts as tried). */
  partner?: ModelInfo;
  won?: { value: T; model: ModelInfo };
  /** The primary's failure when neither attempt succeeded: the walk handles it as usual. */
  failed?: AttemptOutcome<T>;
}

/**
 * Hedging: when enabled for the request and the primary's recent p95 is known, the next callable
 * candidate is started if the primary has not answered (JSON) or sent its first event (stream)
 * within that time; the first success wins and the other attempt is cancelled. Returns undefined
 * when there is nothing to hedge with, so the walk calls the primary alone.
 */
async function hedgedPair<T>(walk: Walk<T>, queue: readonly ModelInfo[], position: number, provider: Provider): Promise<HedgeOutcome<T> | undefined> {
  const { settings, attempted } = walk;
  const model = queue[position]!;
  const hedging = settings.hedging;
  if (!hedging?.enabled) return undefined;
  const delayMs = hedging.latency.hedgeDelay(model.id);
  if (delayMs === undefined) return undefined;
  const partner = queue.slice(position + 1).find((m) => !attempted.has(m.id) && settings.providers.get(m.provider) !== undefined);
  if (!partner) return undefined;
  const partnerProvider = settings.providers.get(partner.provider)!;
  const unwrap = (outcome: AttemptOutcome<T>): T => {
    if (outcome.ok) return outcome.value;
    throw outcome.error;
  };
  let partnerStarted = false;
  try {
    const result = await hedge(
      (signal) => attemptOnce(walk, provider, model, signal).then(unwrap),
      (signal) => {
        partnerStarted = true;
        attempted.add(partner.id);
        return attemptOnce(walk, partnerProvider, partner, signal).then(unwrap);
      },
      {
        delayMs,
        signal: settings.signal,
        stats: hedging.stats,
        fallBackOn: (error) => isProviderError(error) && error.retryable,
        ...(walk.dispose ? { dispose: walk.dispose } : {}),
      },
    );
    const winner = result.winner === 'primary' ? model : partner;
    void settings.breakers?.record(winner.id, 'success');
    return { ...(partnerStarted ? { partner } : {}), won: { value: result.value, model: winner } };
  } catch (error) {
    return { ...(partnerStarted ? { partner } : {}), failed: { ok: false, error } };
  }
}

const admitted = { allowed: true, probe: false } as const;

function keyFailure(model: ModelInfo, keyIndex: number, key: KeyAttempt | undefined, started: number): Attempt {
  const attempt: Attempt = { model: model.id, provider: model.provider, keyIndex, outcome: 'error', latencyMs: Math.round(performance.now() - started) };
  if (key?.errorKind) attempt.errorKind = key.errorKind;
  if (key?.upstreamStatus !== undefined) attempt.upstreamStatus = key.upstreamStatus;
  return attempt;
}

/** Non-streaming call with fallback. */
export function callChat(request: ChatRequest, waterfall: readonly ModelInfo[], settings: CallSettings, attempts: Attempt[]) {
  return walkWaterfall<ChatResult>(waterfall, settings, attempts, 'headers', (provider, model, options) => provider.chat(toProviderRequest(request, model), options));
}

/** An upstream stream whose first event has already arrived. */
export interface OpenedStream {
  first: IteratorResult<StreamEvent>;
  rest: AsyncIterator<StreamEvent>;
}

/**
 * Streaming call with fallback. A candidate counts as started only once its first event has
 * arrived, so an upstream that fails before anything reached the client still falls back.
 */
export function openStream(request: ChatRequest, waterfall: readonly ModelInfo[], settings: CallSettings, attempts: Attempt[]) {
  return walkWaterfall<OpenedStream>(waterfall, settings, attempts, 'event', async (provider, model, options) => {
    const iterable = await provider.stream(toProviderRequest(request, model), options);
    const rest = iterable[Symbol.asyncIterator]();
    const first = await rest.next();
    return { first, rest };
  }, (lost) => void lost.rest.return?.());
}
