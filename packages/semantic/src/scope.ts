import { createHash } from 'node:crypto';
import type { ChatRequest } from '@svc/core';

/** JSON with sorted object keys, so equal schemas hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Lower-cased with runs of whitespace collapsed: trivial variants of a system prompt or history still match. */
export function normaliseText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** `undefined` (the provider's default) is its own bucket; otherwise low <= 0.3 < mid <= 0.9 < high <= 1.3 < wild. */
export function temperatureBucket(temperature: number | undefined): string {
  if (temperature === undefined) return 'default';
  if (temperature <= 0.3) return 'low';
  if (temperature <= 0.9) return 'mid';
  if (temperature <= 1.3) return 'high';
  return 'wild';
}

/** Powers of two: 1000 and 1024 share bucket 10 (answers longer than the request allows are refused at lookup). */
export function maxTokensBucket(maxTokens: number | undefined): string {
  if (maxTokens === undefined) return 'default';
  return String(Math.ceil(Math.log2(Math.max(1, maxTokens))));
}

const tenth = (x: number | undefined): number | undefined => (x === undefined ? undefined : Math.round(x * 10) / 10);

/**
 * Everything besides the final question that changes the answer, as a value: the model or
 * alias as sent, routing controls that pick another model, the sampling parameter class, the
 * output format (with its schema), the system prompt and the earlier turns.
 */
export function parameterClass(request: ChatRequest, system: string, history: string): unknown {
  const format = request.responseFormat;
  return {
    v: 1,
    model: request.model.toLowerCase(),
    route: {
      mode: request.routingHints?.mode,
      maxTier: request.routingHints?.maxTier,
      dial: request.routingHints?.preferenceDial === undefined ? undefined : Math.round(request.routingHints.preferenceDial * 3),
      override: request.routingOverride,
    },
    temperature: temperatureBucket(request.temperature),
    topP: request.topP === undefined || request.topP >= 0.95 ? undefined : tenth(request.topP),
    maxTokens: maxTokensBucket(request.maxTokens ?? request.reasoning?.maxTokens),
    penalties: [tenth(request.frequencyPenalty) ?? 0, tenth(request.presencePenalty) ?? 0],
    stop: request.stop === undefined ? undefined : [...request.stop].sort(),
    seed: request.seed,
    n: request.n,
    reasoning: request.reasoningEffort ?? request.reasoning?.effort,
    format: format === undefined || format.type === 'text' ? undefined : format,
    system,
    history,
  };
}

/** The scope: a hash of {@link parameterClass}; searches only compare questions within one scope. */
export function scopeHash(parameters: unknown): string {
  return createHash('sha256').update(canonical(parameters)).digest('hex').slice(0, 32);
}

/** A deterministic UUID for a stored question, so storing it again replaces the old point. */
export function pointId(orgId: string, scope: string, text: string): string {
  const h = createHash('sha256').update(`${orgId}\u0000${scope}\u0000${text}`).digest('hex');
  // RFC 4122 layout, version 8 (custom), variant 10.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
