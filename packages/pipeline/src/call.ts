import type { ModelInfo } from '@svc/catalog';
import { type ChatRequest, type ChatResult, type StreamEvent, isProviderError, noProviderConfigured, toGatewayError } from '@svc/core';
import type { KeyAttempt, KeyPoolCallOptions, Provider, ProviderChatRequest } from '@svc/providers';
import { type CircuitBreakers, type RetryPolicy, allBreakersOpen, retryDelay, sleep } from '@svc/resilience';
import { createDeadline } from './deadline.js';
import type { Attempt } from './attempt.js';

export interface ProviderLookup {
  get(id: string): Provider | undefined;
}

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
  /** Circuit breakers per `provider/model` slug; absent: every candidate is admitted. */
  breakers?: BreakerGate;
  /**
   * Longest wait for a stream's first event before the candidate counts as timed out and the
   * next one is tried; per provider id (0: no limit).
   */
  firstByteTimeoutMs?: (provider: string) => number;
  /** Retries of the last candidate left (retry-after honoured, bounded by the deadline). */
  retry?: Pick<RetryPolicy, 'maxRetries' | 'baseMs' | 'capMs'>;
  /** Epoch ms the request must be done by. */
  deadline?: number;
}

/** The part of @svc/resilience's CircuitBreakers the call stage uses. */
export type BreakerGate = Pick<CircuitBreakers, 'allow' | 'record' | 'releaseProbe'>;

function toProviderRequest(request: ChatRequest, model: ModelInfo): ProviderChatRequest {
  return { ...request, model: model.upstreamId };
}

/**
 * Walks the waterfall: the next candidate is tried when a provider fails in a way another
 * model may not (ProviderError.retryable); a caller-fault error is returned at once. A
 * candidate whose provider is not configured is skipped.
 */
async function walk<T>(
  waterfall: readonly ModelInfo[],
  settings: CallSettings,
  attempts: Attempt[],
  firstByteTimer: boolean,
  run: (provider: Provider, model: ModelInfo, options: KeyPoolCallOptions) => Promise<T>,
): Promise<{ value: T; model: ModelInfo; providerMs: number }> {
  let lastError: unknown;
  let tried = 0;
  const spent = { providerMs: 0 };
  let queue: readonly ModelInfo[] = waterfall;
  const attempted = new Set<string>();
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
      const timeoutMs = firstByteTimer ? (settings.firstByteTimeoutMs?.(model.provider) ?? 0) : 0;
      const outcome = await attemptOnce(provider, model, settings, attempts, spent, timeoutMs, run);
      if (outcome.ok) {
        void settings.breakers?.record(model.id, 'success', { probe: admission.probe });
        return { value: outcome.value, model, providerMs: spent.providerMs };
      }
      const error = outcome.error;
      lastError = error;
      // The breaker hears about upstream trouble only: not caller faults, not our client leaving.
      const upstreamFault = isProviderError(error) && error.retryable && !settings.signal.aborted;
      if (upstreamFault) void settings.breakers?.record(model.id, 'failure', { probe: admission.probe });
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
  if (lastError !== undefined) throw toGatewayError(lastError);
  if (skipped.length > 0) throw allBreakersOpen(skipped);
  throw noProviderConfigured(`No configured provider serves ${waterfall[0]?.id ?? 'this request'}.`);
}

type AttemptOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * One call of one candidate. Key-pool fall-through happens inside the provider call: every key
 * that failed before the last one is its own attempt in the decision log.
 */
async function attemptOnce<T>(
  provider: Provider,
  model: ModelInfo,
  settings: CallSettings,
  attempts: Attempt[],
  spent: { providerMs: number },
  timeoutMs: number,
  run: (provider: Provider, model: ModelInfo, options: KeyPoolCallOptions) => Promise<T>,
): Promise<AttemptOutcome<T>> {
  const started = performance.now();
  const firstByte = createDeadline(settings.signal, timeoutMs);
  let keyStarted = started;
  let lastKey: number | undefined;
  let pendingKey: KeyAttempt | undefined;
  const options: KeyPoolCallOptions = {
    signal: firstByte.signal,
    ...(settings.headers ? { headers: settings.headers } : {}),
    onKeyAttempt: (key: KeyAttempt) => {
      if (lastKey !== undefined) {
        const failed = keyFailure(model, lastKey, pendingKey, keyStarted);
        attempts.push(failed);
        settings.observer.attempt(model, failed);
        keyStarted = performance.now();
      }
      lastKey = key.keyIndex;
      pendingKey = key;
    },
  };
  try {
    const value = await run(provider, model, options);
    firstByte.clear();
    spent.providerMs += performance.now() - started;
    const attempt: Attempt = { model: model.id, provider: model.provider, outcome: 'ok', latencyMs: Math.round(performance.now() - keyStarted) };
    if (lastKey !== undefined) attempt.keyIndex = lastKey;
    attempts.push(attempt);
    settings.observer.attempt(model, attempt);
    return { ok: true, value };
  } catch (error) {
    firstByte.clear();
    spent.providerMs += performance.now() - started;
    const attempt: Attempt = {
      model: model.id,
      provider: model.provider,
      outcome: 'error',
      errorKind: isProviderError(error) ? error.kind : 'internal',
      latencyMs: Math.round(performance.now() - keyStarted),
    };
    if (lastKey !== undefined) attempt.keyIndex = lastKey;
    if (isProviderError(error) && error.upstreamStatus !== undefined) attempt.upstreamStatus = error.upstreamStatus;
    attempts.push(attempt);
    settings.observer.attempt(model, attempt);
    return { ok: false, error };
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
  // A non-stream answer arrives whole, so its "first byte" is the answer: only the overall deadline bounds it.
  return walk<ChatResult>(waterfall, settings, attempts, false, (provider, model, options) => provider.chat(toProviderRequest(request, model), options));
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
  return walk<OpenedStream>(waterfall, settings, attempts, true, async (provider, model, options) => {
    const iterable = await provider.stream(toProviderRequest(request, model), options);
    const rest = iterable[Symbol.asyncIterator]();
    const first = await rest.next();
    return { first, rest };
  });
}
