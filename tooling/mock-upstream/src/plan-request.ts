import type { IncomingHttpHeaders } from 'node:http';
import { isMockFault, type MockBehaviour, type MockFault, type RequestPlan } from './behaviour.js';

/** Counts requests per `x-mock-fail-key` (or the server-wide `failFirst`) for fail-first faults. */
export type FailCounters = Map<string, number>;

const GLOBAL_FAIL_KEY = '\0global';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function numberHeader(
  headers: IncomingHttpHeaders,
  name: string,
  fallback: number,
  max: number,
): number | string {
  const raw = header(headers, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > max) {
    return `${name} must be a number between 0 and ${max}, got "${raw}"`;
  }
  return value;
}

/**
 * Resolve what one request will do from the server defaults and its `x-mock-*` headers:
 * `x-mock-latency-ms`, `x-mock-tokens-per-second`, `x-mock-tokens`, `x-mock-fault`,
 * `x-mock-fault-probability`, `x-mock-fail-first` (+ `x-mock-fail-key`), `x-mock-retry-after`.
 * A credential listed in `defaults.faultKeys` gets its fault unless `x-mock-fault` is sent.
 * Returns a string naming the bad header when one is malformed.
 */
export function planRequest(
  defaults: MockBehaviour,
  headers: IncomingHttpHeaders,
  counters: FailCounters,
  random: () => number = Math.random,
): RequestPlan | string {
  const latencyMs = numberHeader(headers, 'x-mock-latency-ms', defaults.latencyMs, 600_000);
  if (typeof latencyMs === 'string') return latencyMs;
  const tokensPerSecond = numberHeader(
    headers,
    'x-mock-tokens-per-second',
    defaults.tokensPerSecond,
    1_000_000,
  );
  if (typeof tokensPerSecond === 'string') return tokensPerSecond;
  const tokens = numberHeader(headers, 'x-mock-tokens', defaults.tokens, 100_000);
  if (typeof tokens === 'string') return tokens;
  const retryAfterSeconds = numberHeader(
    headers,
    'x-mock-retry-after',
    defaults.retryAfterSeconds,
    86_400,
  );
  if (typeof retryAfterSeconds === 'string') return retryAfterSeconds;

  const fault = resolveFault(defaults, headers, counters, random);
  if (typeof fault === 'string' && !isMockFault(fault)) return fault;
  return {
    latencyMs,
    tokensPerSecond,
    tokens: Math.floor(tokens),
    fault,
    retryAfterSeconds,
  };
}

/**
 * The API key a request carries: `Authorization: Bearer <key>` (or Deepgram's `Token <key>`),
 * else `x-api-key`, `x-goog-api-key` or ElevenLabs' `xi-api-key`.
 */
export function requestCredential(headers: IncomingHttpHeaders): string | undefined {
  const authorization = header(headers, 'authorization');
  const scheme = authorization === undefined ? undefined : /^(?:bearer|token) +(.+)$/i.exec(authorization);
  if (scheme) return scheme[1]!.trim();
  return header(headers, 'x-api-key') ?? header(headers, 'x-goog-api-key') ?? header(headers, 'xi-api-key');
}

function resolveFault(
  defaults: MockBehaviour,
  headers: IncomingHttpHeaders,
  counters: FailCounters,
  random: () => number,
): MockFault | undefined | string {
  const faultHeader = header(headers, 'x-mock-fault');
  if (faultHeader !== undefined && !isMockFault(faultHeader)) {
    return `x-mock-fault must be one of 429|500|503|529|timeout|drop-mid-stream|context-length, got "${faultHeader}"`;
  }
  const failFirstHeader = numberHeader(headers, 'x-mock-fail-first', -1, 1_000_000);
  if (typeof failFirstHeader === 'string') return failFirstHeader;
  const probability = numberHeader(headers, 'x-mock-fault-probability', -1, 1);
  if (typeof probability === 'string') return probability;

  if (failFirstHeader >= 0) {
    const key = `k:${header(headers, 'x-mock-fail-key') ?? 'default'}`;
    const seen = (counters.get(key) ?? 0) + 1;
    counters.set(key, seen);
    return seen <= failFirstHeader ? (faultHeader ?? defaults.fault ?? '500') : undefined;
  }
  if (faultHeader === undefined && defaults.faultKeys !== undefined) {
    const credential = requestCredential(headers);
    const keyed =
      credential !== undefined && Object.hasOwn(defaults.faultKeys, credential) ? defaults.faultKeys[credential] : undefined;
    if (keyed !== undefined) return keyed;
  }
  const fault = faultHeader ?? defaults.fault;
  if (fault === undefined) return undefined;
  if (faultHeader === undefined && defaults.failFirst !== undefined) {
    const seen = (counters.get(GLOBAL_FAIL_KEY) ?? 0) + 1;
    counters.set(GLOBAL_FAIL_KEY, seen);
    if (seen > defaults.failFirst) return undefined;
  }
  const chance = probability >= 0 ? probability : defaults.faultProbability;
  if (chance >= 1) return fault;
  return random() < chance ? fault : undefined;
}
