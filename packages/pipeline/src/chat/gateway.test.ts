import { ProviderError, type ProviderErrorKind, RequestAbort, type StreamEvent } from '@svc/core';
import type { CallOptions, Provider, ProviderChatRequest } from '@svc/providers';
import { createMemoryKv } from '@svc/kv';
import { unpackFeatures } from '@svc/db';
import { CircuitBreakers, HedgeStats, LatencyTracker } from '@svc/resilience';
import { describe, expect, it } from 'vitest';
import type { ChatStreamResponse } from '../gateway.js';
import { catalog, llama, request, scripted, setup } from '../test/gateway-harness.js';

async function drain(response: ChatStreamResponse): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of response.events) out.push(event);
  return out;
}

describe('Gateway.chat', () => {
  it('falls back to the same family on another provider after a retryable failure', async () => {
    const groq = scripted('groq', () => 'overloaded');
    const together = scripted('together', () => 'ok');
    const { gateway, decisions } = setup([groq, together]);
    const response = await gateway.chat(request({}), setup([]).context());
    expect(response.kind === 'json' && response.result.choices[0]!.message.content).toBe('from together');
    expect(response.kind === 'json' && response.metadata.provider).toBe('together');
    expect(decisions[0]!.attempts.map((a) => [a.provider, a.outcome, a.errorKind])).toEqual([
      ['groq', 'error', 'overloaded'],
      ['together', 'ok', undefined],
    ]);
  });

  it('returns a caller-fault error at once without trying other candidates', async () => {
    const groq = scripted('groq', () => 'invalid_request');
    const together = scripted('together', () => 'ok');
    const { gateway, decisions, context } = setup([groq, together]);
    await expect(gateway.chat(request({}), context())).rejects.toMatchObject({ status: 400 });
    expect(together.calls()).toBe(0);
    expect(decisions[0]!.outcome).toBe('error');
  });

  it('falls back before the first byte of a stream', async () => {
    const { gateway, usage, context } = setup([scripted('groq', () => 'rate_limit'), scripted('together', () => 'ok')]);
    const response = await gateway.chat(request({ stream: true }), context());
    if (response.kind !== 'stream') throw new Error('expected a stream');
    expect(response.headers['x-svc-provider']).toBe('together');
    const events = await drain(response);
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual(['hello ', 'world']);
    expect(response.metadata()).toMatchObject({ provider: 'together' });
    expect(usage[0]).toMatchObject({ promptTokens: 10, completionTokens: 2, stream: true });
  });

  it('replicates the first choice for n > 1 on a single-choice provider, and logs it', async () => {
    const claude = catalog.list({ provider: 'anthropic', kind: 'chat' })[0]!;
    const { gateway, decisions, context } = setup([scripted('anthropic', () => 'ok', { multipleChoices: false })]);
    const json = await gateway.chat(request({ model: claude.id, n: 3 }), context());
    expect(json.kind === 'json' && json.result.choices.map((c) => [c.index, c.message.content])).toEqual([
      [0, 'from anthropic'],
      [1, 'from anthropic'],
      [2, 'from anthropic'],
    ]);
    expect(decisions[0]!.details).toMatchObject({ replicatedChoices: 2, complexity: 'trivial', workflowType: 'single_turn', waterfall: [claude.id] });
    // The scalar features the decision was made on are logged with it (snake_case, as /v1/classify_complexity names them),
    // packed into one string as the record is handed to the store; its reads unpack them.
    const features = unpackFeatures(decisions[0]!.details.features) as Record<string, unknown>;
    expect(features).toMatchObject({ turns: 1, tools: false, has_system: false });
    expect(features.prompt_tokens).toBeGreaterThan(0);

    const stream = await gateway.chat(request({ model: claude.id, n: 2, stream: true }), context());
    if (stream.kind !== 'stream') throw new Error('expected a stream');
    const events = await drain(stream);
    expect(events.filter((e) => e.type === 'finish').map((e) => (e.type === 'finish' ? e.choice : -1))).toEqual([0, 1]);
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(1);
    expect(decisions[1]!.details).toMatchObject({ replicatedChoices: 1 });
  });

  it('estimates usage when a stream ends without the provider counting it, and says so', async () => {
    const { gateway, usage, decisions, context } = setup([scripted('groq', () => 'ok', { usage: false })]);
    const response = await gateway.chat(request({ stream: true }), context());
    if (response.kind !== 'stream') throw new Error('expected a stream');
    await drain(response);
    expect(usage[0]!.completionTokens).toBe(2); // "hello world": 2 tokens for the o200k tokenizer
    expect(usage[0]!.usageEstimated).toBe(true);
    expect(decisions[0]!.details).toMatchObject({ usageEstimated: true });
    expect(response.metadata()).toMatchObject({ usage_estimated: true });
  });

  it('answers 502 after every candidate failed', async () => {
    const { gateway, decisions, context } = setup([scripted('groq', () => 'server'), scripted('together', () => 'server')]);
    await expect(gateway.chat(request({}), context())).rejects.toMatchObject({ status: 502, type: 'upstream_error' });
    expect(decisions[0]!.attempts).toHaveLength(2);
  });

  it('retries a context-length failure on a model with a larger window, skipping same-size siblings', async () => {
    const calls: string[] = [];
    const tracking = (id: string, outcome: 'ok' | ProviderErrorKind) => {
      const inner = scripted(id, () => outcome);
      const chat = (request: ProviderChatRequest, options?: CallOptions) => {
        calls.push(`${id}/${request.model}`);
        return inner.chat(request, options);
      };
      return { ...inner, chat } satisfies Provider;
    };
    const { gateway, decisions, context } = setup([tracking('groq', 'context_length'), tracking('together', 'ok'), tracking('anthropic', 'ok'), tracking('openai', 'ok')]);
    const response = await gateway.chat(request({}), context());
    if (response.kind !== 'json') throw new Error('expected json');
    const served = catalog.get(`${response.metadata.provider}/${response.result.model}`) ?? catalog.resolve(response.result.model)!;
    expect(served.contextWindow).toBeGreaterThan(llama.contextWindow);
    const sameWindow = catalog.family(llama.family).filter((m) => m.contextWindow <= llama.contextWindow && m.id !== llama.id);
    for (const sibling of sameWindow) expect(calls).not.toContain(`${sibling.provider}/${sibling.upstreamId}`);
    expect(decisions[0]!.attempts[0]).toMatchObject({ provider: 'groq', errorKind: 'context_length' });
  });

  it('skips candidates whose breaker is open, and answers 503 circuit_breaker_open when all are', async () => {
    const breakers = new CircuitBreakers({ kv: createMemoryKv(), consecutiveFailures: 2, cooldownBaseMs: 60_000, cacheMs: 0 });
    const groq = scripted('groq', () => 'overloaded');
    const together = scripted('together', (call) => (call < 3 ? 'ok' : 'server'));
    const { gateway, decisions, context } = setup([groq, together], breakers);
    await gateway.chat(request({}), context());
    await gateway.chat(request({}), context());
    expect(groq.calls()).toBe(2);
    expect((await breakers.status(llama.id)).state).toBe('open');

    await gateway.chat(request({}), context()); // groq skipped, together answers; then together fails twice
    expect(groq.calls()).toBe(2);
    expect(decisions[2]!.attempts[0]).toMatchObject({ provider: 'groq', outcome: 'skipped', errorKind: 'circuit_open' });
    await expect(gateway.chat(request({}), context())).rejects.toMatchObject({ status: 502 });
    await expect(gateway.chat(request({}), context())).rejects.toMatchObject({ status: 502 });
    const error = await gateway.chat(request({}), context()).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 503, type: 'governance_error', code: 'circuit_breaker_open' });
    expect(Number((error as { headers: Record<string, string> }).headers['retry-after'])).toBeGreaterThan(0);
    expect(together.calls()).toBe(5);
  });

  it('does not count caller faults against the breaker', async () => {
    const breakers = new CircuitBreakers({ kv: createMemoryKv(), consecutiveFailures: 1, cacheMs: 0 });
    const { gateway, context } = setup([scripted('groq', () => 'invalid_request')], breakers);
    await expect(gateway.chat(request({}), context())).rejects.toMatchObject({ status: 400 });
    expect((await breakers.status(llama.id)).state).toBe('closed');
  });

  it('retries the last candidate once, honouring retry-after, and records both attempts', async () => {
    const flaky: Provider = {
      ...scripted('groq', () => 'ok'),
      chat: (() => {
        let calls = 0;
        return async (request: ProviderChatRequest) => {
          if (calls++ === 0) throw new ProviderError({ provider: 'groq', kind: 'overloaded', message: 'busy', upstreamStatus: 503, retryAfterMs: 30 });
          return { model: request.model, choices: [{ index: 0, message: { role: 'assistant' as const, content: 'second time' }, finishReason: 'stop' as const }] };
        };
      })(),
    };
    const { gateway, decisions, context } = setup([flaky], undefined, { retry: { maxRetries: 1, baseMs: 1, capMs: 1_000 } });
    const started = performance.now();
    const response = await gateway.chat(request({}), context());
    expect(response.kind === 'json' && response.result.choices[0]!.message.content).toBe('second time');
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(decisions[0]!.attempts.map((a) => a.outcome)).toEqual(['error', 'ok']);
  });

  it('gives up on a stream whose first event does not come in time, and moves on', async () => {
    const silent: Provider = {
      id: 'groq',
      chat: () => Promise.reject(new Error('unused')),
      stream: (_request, options) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new ProviderError({ provider: 'groq', kind: 'timeout', message: 'no first byte' })));
        }),
    };
    const { gateway, decisions, context } = setup([silent, scripted('together', () => 'ok')], undefined, { timeouts: { requestMs: 5_000, firstByteMs: 50 } });
    const response = await gateway.chat(request({ stream: true }), context());
    expect(response.kind === 'stream' && response.headers['x-svc-provider']).toBe('together');
    expect(decisions).toHaveLength(0);
    if (response.kind === 'stream') await drain(response);
    expect(decisions[0]!.attempts[0]).toMatchObject({ provider: 'groq', outcome: 'error', errorKind: 'timeout' });
  });

  it('gives up on a JSON call whose response headers do not come in time, and moves on', async () => {
    const hung: Provider = {
      id: 'groq',
      chat: (_request, options) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new ProviderError({ provider: 'groq', kind: 'timeout', message: 'no response headers' })));
        }),
      stream: () => Promise.reject(new Error('unused')),
    };
    const { gateway, decisions, context } = setup([hung, scripted('together', () => 'ok')], undefined, { timeouts: { requestMs: 5_000, firstByteMs: 50 } });
    const started = performance.now();
    const response = await gateway.chat(request({}), context());
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(response.kind === 'json' && response.metadata.provider).toBe('together');
    expect(decisions[0]!.attempts[0]).toMatchObject({ provider: 'groq', outcome: 'error', errorKind: 'timeout' });
  });

  it('bounds only the headers of a JSON call: a long answer after them is not cut', async () => {
    const slowBody: Provider = {
      ...scripted('groq', () => 'ok'),
      chat: (request, options) =>
        new Promise((resolve, reject) => {
          options?.onResponse?.();
          const timer = setTimeout(() => resolve({ model: request.model, choices: [{ index: 0, message: { role: 'assistant', content: 'long' }, finishReason: 'stop' }] }), 150);
          options?.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new ProviderError({ provider: 'groq', kind: 'timeout', message: 'aborted' }));
          });
        }),
    };
    const { gateway, context } = setup([slowBody, scripted('together', () => 'ok')], undefined, { timeouts: { requestMs: 5_000, firstByteMs: 50 } });
    const response = await gateway.chat(request({}), context());
    expect(response.kind === 'json' && response.result.choices[0]!.message.content).toBe('long');
  });

  it('gives a provider that bounds the first byte itself a time and the request’s one signal, and still moves on when it passes', async () => {
    const seen: CallOptions[] = [];
    const ownBound: Provider = {
      id: 'groq',
      boundsFirstByte: true,
      chat: (_request, options = {}) => {
        seen.push(options);
        const late = Math.max(0, (options.firstByteBy ?? 0) - performance.now());
        return new Promise((_resolve, reject) => setTimeout(() => reject(new ProviderError({ provider: 'groq', kind: 'timeout', message: 'no response headers' })), late));
      },
      stream: () => Promise.reject(new Error('unused')),
    };
    const { gateway, decisions, context } = setup([ownBound, scripted('together', () => 'ok')], undefined, { timeouts: { requestMs: 5_000, firstByteMs: 50 } });
    const client = new RequestAbort();
    const before = performance.now();
    const response = await gateway.chat(request({}), { ...context(), signal: client.signal, abort: client });
    expect(response.kind === 'json' && response.metadata.provider).toBe('together');
    expect(seen[0]!.signal).toBe(client.signal);
    expect(seen[0]!.firstByteBy).toBeGreaterThanOrEqual(before + 50);
    expect(seen[0]!.firstByteBy).toBeLessThan(performance.now() + 50);
    expect(seen[0]!.onResponse).toBeUndefined();
    expect(decisions[0]!.attempts[0]).toMatchObject({ provider: 'groq', outcome: 'error', errorKind: 'timeout' });
  });

  it('ends a request past its deadline with 504 request_timeout on the exchange’s own signal, JSON and stream alike', async () => {
    const hung = (stream: boolean): Provider => {
      const wait = (options: CallOptions | undefined) =>
        new Promise<never>((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new ProviderError({ provider: 'groq', kind: 'timeout', message: 'aborted' })));
        });
      return { id: 'groq', boundsFirstByte: true, chat: (_r, options) => wait(options), stream: stream ? (_r, options) => wait(options) : () => Promise.reject(new Error('unused')) };
    };
    for (const stream of [false, true]) {
      const { gateway, context } = setup([hung(stream)], undefined, { timeouts: { requestMs: 40, firstByteMs: 10_000 } });
      const client = new RequestAbort();
      await expect(gateway.chat(request({ stream }), { ...context(), signal: client.signal, abort: client })).rejects.toMatchObject({ status: 504, code: 'request_timeout' });
      expect(client.signal.aborted).toBe(true);
    }
  });

  it('teaches the router nothing when the client leaves a JSON call, and a failure when the deadline passes', async () => {
    const hung: Provider = {
      id: 'groq',
      boundsFirstByte: true,
      chat: (_r, options) =>
        new Promise<never>((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new ProviderError({ provider: 'groq', kind: 'timeout', message: 'aborted' })));
        }),
      stream: () => Promise.reject(new Error('unused')),
    };
    const ended = async (leaves: boolean) => {
      const outcomes: unknown[] = [];
      const { gateway, decisions, context } = setup([hung], undefined, { timeouts: { requestMs: leaves ? 10_000 : 40, firstByteMs: 10_000 }, feedback: { record: (o) => outcomes.push(o) } });
      const client = new RequestAbort();
      if (leaves) setTimeout(() => client.abort(), 20);
      const failure = await gateway.chat(request({}), { ...context(), signal: client.signal, abort: client }).catch((error: unknown) => error);
      return { outcomes, attempt: decisions[0]!.attempts[0], failure };
    };
    const left = await ended(true);
    expect(left.attempt).toMatchObject({ provider: 'groq', outcome: 'error', errorKind: 'cancelled' });
    expect(left.outcomes).toEqual([]);
    // What the access log, the metrics and the trace record: the client's leaving, not a 504.
    expect(left.failure).toMatchObject({ status: 499, code: 'client_closed_request' });
    const late = await ended(false);
    expect(late.failure).toMatchObject({ status: 504, code: 'request_timeout' });
    expect(late.attempt).toMatchObject({ provider: 'groq', outcome: 'error', errorKind: 'timeout' });
    expect(late.outcomes).toMatchObject([{ modelId: expect.stringContaining('groq'), success: false }]);
  });

  it('ends a stream past its deadline with a request_timeout error, not as a client that left', async () => {
    const stalls: Provider = {
      id: 'groq',
      boundsFirstByte: true,
      chat: () => Promise.reject(new Error('unused')),
      stream: async (_r, options) =>
        (async function* () {
          yield { type: 'text-delta', choice: 0, text: 'first' } satisfies StreamEvent;
          await new Promise((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(new ProviderError({ provider: 'groq', kind: 'timeout', message: 'aborted' }))));
        })(),
    };
    const { gateway, context } = setup([stalls], undefined, { timeouts: { requestMs: 60, firstByteMs: 10_000 } });
    const client = new RequestAbort();
    const response = await gateway.chat(request({ stream: true }), { ...context(), signal: client.signal, abort: client });
    expect(response.kind).toBe('stream');
    if (response.kind === 'stream') await expect(drain(response)).rejects.toMatchObject({ status: 504, code: 'request_timeout' });
  });

  it('hedges a slow primary once its p95 is known: the partner wins, the primary is cancelled', async () => {
    let slow = false;
    const primary: Provider = {
      ...scripted('groq', () => 'ok'),
      chat: (request, options) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ model: request.model, choices: [{ index: 0, message: { role: 'assistant', content: 'primary' }, finishReason: 'stop' }] }), slow ? 2_000 : 1);
          options?.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new ProviderError({ provider: 'groq', kind: 'timeout', message: 'aborted' }));
          });
        }),
    };
    const hedging = { latency: new LatencyTracker({ minSamples: 3, minDelayMs: 20 }), stats: new HedgeStats(), config: { enabledByDefault: false } };
    const { gateway, decisions, context } = setup([primary, scripted('together', () => 'ok')], undefined, { hedging });
    for (let i = 0; i < 3; i++) await gateway.chat(request({}), context()); // learn the primary's latency
    slow = true;
    const notHedged = gateway.chat(request({}), context()); // hedging is off unless asked
    const hedged = await gateway.chat(request({ svc: { enableHedging: true } }), context());
    expect(hedged.kind === 'json' && hedged.result.choices[0]!.message.content).toBe('from together');
    expect(hedging.stats.snapshot()).toMatchObject({ requests: 1, fired: 1, secondaryWins: 1 });
    const attempts = decisions.at(-1)!.attempts;
    expect(attempts.map((a) => [a.provider, a.outcome, a.errorKind])).toEqual([
      ['together', 'ok', undefined],
      ['groq', 'error', 'cancelled'],
    ]);
    expect((await notHedged).kind === 'json').toBe(true);
  });
});
