import { createCatalog } from '@svc/catalog';
import { ProviderError, type RealtimeUsage } from '@svc/core';
import { createMemoryKv } from '@svc/kv';
import type { Provider, RealtimeRequest, RealtimeSocket } from '@svc/providers';
import { createMetrics } from '@svc/telemetry';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../gateway.js';
import type { UsageEvent } from '../learn/learn-queue.js';
import { type RealtimeDeps, openRealtimeSession } from './realtime-session.js';
import { caller } from '../test/gateway-harness.js';
import { createKvVoiceSessionStore } from './voice-session.js';
import { resolveVoiceMode } from './voice-mode.js';

/** Stands in for the open upstream socket: the session only holds it for the relay. */
const upstream = { readyState: 1 } as unknown as RealtimeSocket;
const usage: RealtimeUsage = { textInputTokens: 100, cachedTextInputTokens: 0, audioInputTokens: 1000, cachedAudioInputTokens: 0, textOutputTokens: 50, audioOutputTokens: 2000 };

function setup(options: { fail?: ProviderError; mode?: 'proxy' | 'cache' | 'full' } = {}) {
  const rows: UsageEvent[] = [];
  const opened: RealtimeRequest[] = [];
  const provider: Provider = {
    id: 'openai',
    chat: () => Promise.reject(new Error('not used')),
    stream: () => Promise.reject(new Error('not used')),
    async realtime(request) {
      opened.push(request);
      if (options.fail) throw options.fail;
      return upstream;
    },
  };
  const kv = createMemoryKv();
  const voiceContext = createKvVoiceSessionStore({ kv, ttlMs: 60_000 });
  const deps: RealtimeDeps = {
    catalog: createCatalog().forProviders(new Set(['openai'])),
    providers: { get: (id) => (id === 'openai' ? provider : undefined) },
    learn: { recordUsage: (event) => rows.push(event) },
    metrics: createMetrics({ defaultMetrics: false }),
    platformFeePerMinute: 0.002,
    voiceContext,
  };
  const context: Exchange = {
    caller,
    requestId: 'req_rt',
    startedAt: performance.now(),
    signal: new AbortController().signal,
    mode: resolveVoiceMode(options.mode, null),
  };
  return { deps, rows, opened, context, voiceContext };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('openRealtimeSession', () => {
  it('opens the named realtime model upstream and reports it in the upgrade headers, proxy escalated to cache', async () => {
    const { deps, opened, context } = setup({ mode: 'proxy' });
    const session = await openRealtimeSession(deps, { model: 'gpt-realtime-mini', beta: true }, context);
    expect(opened).toEqual([{ model: 'gpt-realtime-mini', beta: true }]);
    expect(session.mode).toBe('cache');
    expect(session.headers).toMatchObject({ 'x-svc-intelligence-mode': 'cache', 'x-svc-model': 'openai/gpt-realtime-mini', 'x-svc-request-id': 'req_rt' });
    expect(session.headers['x-svc-conversation-id']).toBeUndefined();
    session.end('client');
  });

  it('refuses a model that is not a realtime model, and bills nothing when the upstream refuses', async () => {
    const { deps, context, rows } = setup();
    await expect(openRealtimeSession(deps, { model: 'gpt-4o-mini', beta: false }, context)).rejects.toMatchObject({ status: 404, param: 'model', code: 'model_not_found' });
    const refused = setup({ fail: new ProviderError({ provider: 'openai', kind: 'rate_limit', message: 'slow down', upstreamStatus: 429 }) });
    await expect(openRealtimeSession(refused.deps, { beta: false }, refused.context)).rejects.toMatchObject({ status: 429 });
    expect(rows).toHaveLength(0);
    expect(refused.rows).toHaveLength(0);
  });

  it('meters every started minute at the platform fee plus the reported tokens, writing each minute to the ledger as it starts', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { deps, rows, context } = setup();
    const session = await openRealtimeSession(deps, { model: 'openai/gpt-realtime', beta: false }, context);
    expect(rows).toMatchObject([{ requestId: 'req_rt:minute-1', costUsd: 0.002, promptTokens: 0, status: 101 }]);
    session.addUsage(usage);
    vi.advanceTimersByTime(60_000);
    session.addUsage({ ...usage, textInputTokens: 0, audioInputTokens: 0, textOutputTokens: 0, audioOutputTokens: 1000 });
    vi.advanceTimersByTime(65_000);
    const bill = session.end('client');
    expect(session.end('upstream')).toBe(bill);
    const tokenCost = (100 * 4 + 1000 * 32 + 50 * 16 + 3000 * 64) / 1e6;
    expect(bill).toMatchObject({ minutes: 3, durationMs: 125_000, platformFeeUsd: 0.006 });
    expect(bill.costUsd).toBeCloseTo(tokenCost + 0.006, 10);
    // Minute 2 carries the tokens reported during minute 1, minute 3 those of minute 2; the
    // session's own row has its length and status and nothing left to bill.
    expect(rows.map((r) => r.requestId)).toEqual(['req_rt:minute-1', 'req_rt:minute-2', 'req_rt:minute-3', 'req_rt']);
    expect(rows[1]).toMatchObject({ promptTokens: 1100, completionTokens: 2050, latencyMs: 60_000 });
    expect(rows[2]).toMatchObject({ promptTokens: 0, completionTokens: 1000, latencyMs: 120_000 });
    expect(rows[3]).toMatchObject({ promptTokens: 0, completionTokens: 0, costUsd: 0, latencyMs: 125_000, status: 101, stream: true });
    const sum = (key: 'costUsd' | 'promptTokens' | 'completionTokens') => rows.reduce((total, row) => total + row[key], 0);
    expect(sum('costUsd')).toBeCloseTo(tokenCost + 0.006, 10);
    expect([sum('promptTokens'), sum('completionTokens')]).toEqual([1100, 3050]);
    expect(await deps.metrics.metrics()).toMatch(/svc_realtime_session_minutes_total\{provider="openai",model="openai\/gpt-realtime"\} 3/);
  });

  it('never bills fewer minutes than were written: a session ending as its next minute starts keeps that minute', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { deps, rows, context } = setup();
    const session = await openRealtimeSession(deps, { model: 'openai/gpt-realtime', beta: false }, context);
    vi.advanceTimersByTime(60_000); // the tick writes minute 2 at 60 s
    const bill = session.end('client'); // a session of exactly 60 s would otherwise be 1 minute
    expect(bill.minutes).toBe(2);
    expect(rows.reduce((total, row) => total + row.costUsd, 0)).toBeCloseTo(bill.costUsd, 10);
    expect(rows.every((row) => row.costUsd >= 0)).toBe(true);
  });

  it('admits with the first minute, charges each minute as it starts and settles the bill', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { deps, context } = setup();
    const calls: unknown[][] = [];
    deps.limiter = {
      admit: async (request) => {
        calls.push(['admit', request.estimatedCostUsd]);
        return { headers: {}, charge: async (tokens, cost) => void calls.push(['charge', tokens, cost]), settle: async (used) => void calls.push(['settle', used]), release: async () => {} };
      },
    };
    const session = await openRealtimeSession(deps, { model: 'openai/gpt-realtime', beta: false }, context);
    vi.advanceTimersByTime(60_000);
    vi.advanceTimersByTime(60_000);
    session.end('client');
    expect(calls.map((c) => c[0])).toEqual(['admit', 'charge', 'charge', 'settle']);
    expect(calls[0]?.[1]).toBe(0.002);
    expect(calls[1]?.[2]).toBeCloseTo(0.004, 10); // minutes 1 and 2 so far
    expect(calls[2]?.[2]).toBeCloseTo(0.002, 10); // minute 3 started
    // Ended as minute 3 started: that minute was charged and written, so it is billed.
    expect(calls[3]?.[1]).toEqual({ actualTokens: 0, actualCostUsd: 0.006 });
  });

  it('records a session the upstream broke as 502, still billed', async () => {
    const { deps, rows, context } = setup();
    const session = await openRealtimeSession(deps, { beta: false }, context);
    session.end('upstream_error');
    expect(rows).toMatchObject([{ requestId: 'req_rt:minute-1', costUsd: 0.002 }, { requestId: 'req_rt', status: 502, costUsd: 0 }]);
  });

  it('keeps the turns under the conversation id in full mode only', async () => {
    const full = setup({ mode: 'full' });
    const session = await openRealtimeSession(full.deps, { beta: false, conversationId: 'conv-42' }, full.context);
    expect(session.headers['x-svc-conversation-id']).toBe('conv-42');
    session.addTurn({ role: 'user', text: 'Hello' });
    session.addTurn({ role: 'assistant', text: 'Hi there' });
    await session.contextWritten();
    expect(await full.voiceContext.history(caller.org.id, 'conv-42')).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi there' },
    ]);
    session.end('client');

    const cache = setup({ mode: 'cache' });
    const skipped = await openRealtimeSession(cache.deps, { beta: false, conversationId: 'conv-42' }, cache.context);
    skipped.addTurn({ role: 'user', text: 'Hello' });
    await skipped.contextWritten();
    expect(await cache.voiceContext.history(caller.org.id, 'conv-42')).toEqual([]);
    skipped.end('client');
  });

  it('names a conversation in full mode when the client did not, and refuses an oversized id', async () => {
    const { deps, context } = setup({ mode: 'full' });
    const session = await openRealtimeSession(deps, { beta: false }, context);
    expect(session.headers['x-svc-conversation-id']).toBe('conv_req_rt');
    session.end('client');
    await expect(openRealtimeSession(deps, { beta: false, conversationId: 'x'.repeat(257) }, context)).rejects.toMatchObject({ status: 400, param: 'conversation_id' });
  });
});
