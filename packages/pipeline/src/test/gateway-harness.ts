import { createCatalog } from '@svc/catalog';
import { type Caller, type ChatRequest, type IntelligenceMode, type ChatResult, ProviderError, type ProviderErrorKind, RequestAbort, type StreamEvent } from '@svc/core';
import type { Provider, ProviderChatRequest } from '@svc/providers';
import type { CircuitBreakers } from '@svc/resilience';
import { createLogger, createMetrics } from '@svc/telemetry';
import { Gateway, type GatewayDeps, type Exchange } from '../gateway.js';
import type { DecisionRecord, UsageEvent } from '../learn/learn-queue.js';

/** A provider scripted per call: an answer, or a failure of a given kind. */
export function scripted(id: string, plan: (call: number) => 'ok' | ProviderErrorKind, options: { multipleChoices?: boolean; usage?: boolean } = {}) {
  let calls = 0;
  const fail = (kind: ProviderErrorKind) => new ProviderError({ provider: id, kind, message: `${id} ${kind}`, upstreamStatus: kind === 'overloaded' ? 503 : 400 });
  const provider: Provider & { calls(): number } = {
    id,
    ...(options.multipleChoices === false ? { multipleChoices: false } : {}),
    calls: () => calls,
    async chat(request): Promise<ChatResult> {
      const step = plan(calls++);
      if (step !== 'ok') throw fail(step);
      return { model: request.model, choices: [{ index: 0, message: { role: 'assistant', content: `from ${id}` }, finishReason: 'stop' }], usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } };
    },
    async stream() {
      const step = plan(calls++);
      if (step !== 'ok') throw fail(step);
      async function* events(): AsyncGenerator<StreamEvent> {
        yield { type: 'text-delta', choice: 0, text: 'hello ' };
        yield { type: 'text-delta', choice: 0, text: 'world' };
        yield { type: 'finish', choice: 0, finishReason: 'stop' };
        if (options.usage !== false) yield { type: 'usage', usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 } };
      }
      return events();
    },
  };
  return provider;
}

/**
 * A provider answering the text `answer` gives for each call (0-based, streams included),
 * recording what it was asked.
 */
export function answering(id: string, answer: (call: number, request: ProviderChatRequest) => string = () => 'an answer') {
  const asked: ProviderChatRequest[] = [];
  const provider: Provider & { asked: ProviderChatRequest[] } = {
    id,
    asked,
    async chat(req): Promise<ChatResult> {
      asked.push(req);
      const content = answer(asked.length - 1, req);
      return { model: req.model, choices: [{ index: 0, message: { role: 'assistant', content }, finishReason: 'stop' }], usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 } };
    },
    async stream(req) {
      asked.push(req);
      const text = answer(asked.length - 1, req);
      async function* events(): AsyncGenerator<StreamEvent> {
        yield { type: 'text-delta', choice: 0, text };
        yield { type: 'finish', choice: 0, finishReason: 'stop' };
      }
      return events();
    },
  };
  return provider;
}

export const catalog = createCatalog().forProviders(new Set(['groq', 'together', 'anthropic', 'openai']));
export const llama = catalog.list({ provider: 'groq', kind: 'chat' }).find((m) => catalog.family(m.family).some((s) => s.provider === 'together'))!;
export const caller: Caller = {
  keyId: 'key_1',
  keyPrefix: 'sk-svc-x',
  scopes: new Set(['inference:chat']),
  org: { id: 'org_1', name: 'o', plan: 'free', rpmLimit: null, tpmLimit: null, monthlyBudgetUsd: null, tokenQuota: null, defaultIntelligenceMode: null, createdAt: new Date() },
};

export function setup(providers: Provider[], breakers?: CircuitBreakers, extra: Partial<GatewayDeps> = {}) {
  const usage: UsageEvent[] = [];
  const decisions: DecisionRecord[] = [];
  const byId = new Map(providers.map((p) => [p.id, p]));
  const gateway = new Gateway({
    catalog,
    providers: { get: (id) => byId.get(id) },
    learn: { recordUsage: (e) => usage.push(e), recordDecision: (d) => decisions.push(d) },
    metrics: createMetrics({ defaultMetrics: false }),
    logger: createLogger({ level: 'silent' }),
    ...(breakers ? { breakers } : {}),
    retry: { maxRetries: 0, baseMs: 1, capMs: 1 },
    ...extra,
  });
  /** The exchange the edge would hand over: `mode` as resolved there (default `full`). */
  const context = (mode: IntelligenceMode = 'full'): Exchange => {
    // As the edge makes it (exchangeOf): the request's own controller, whose signal is not Node's class.
    const abort = new RequestAbort();
    return { caller, requestId: `req_${Math.random()}`, startedAt: performance.now(), signal: abort.signal, abort, mode };
  };
  return { gateway, usage, decisions, context };
}

export const request = (patch: Partial<ChatRequest>): ChatRequest => ({ model: llama.id, messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false, ...patch });

