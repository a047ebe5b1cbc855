import { createCatalog } from '@svc/catalog';
import { ProviderError } from '@svc/core';
import type { ModerationRequest, Provider, SpeechRequest } from '@svc/providers';
import { createMetrics } from '@svc/telemetry';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../gateway.js';
import type { UsageEvent } from '../learn/learn-queue.js';
import { moderate } from './moderate.js';
import { speak } from './speech.js';
import { transcribe } from './transcribe.js';
import { caller } from '../test/gateway-harness.js';
import type { UnitStageDeps } from './unit-stage.js';

/** An OpenAI provider that moderates (flagging nothing) and speaks (`RIFF` + the text), recording the keys it was given. */
function openai(label: string, fail = false) {
  const moderations: ModerationRequest[] = [];
  const speeches: SpeechRequest[] = [];
  const provider: Provider = {
    id: 'openai',
    chat: () => Promise.reject(new Error('not used')),
    stream: () => Promise.reject(new Error('not used')),
    async moderate(request) {
      moderations.push(request);
      if (fail) throw new ProviderError({ provider: 'openai', kind: 'authentication', message: 'bad key', upstreamStatus: 401 });
      return { id: `modr-${label}`, model: request.model, results: [{ flagged: false, categories: { hate: false }, category_scores: { hate: 0.01 } }] };
    },
    async transcribe(request) {
      return request.responseFormat === 'verbose_json'
        ? { contentType: 'application/json', body: '{"text":"hi","duration":90}', durationSeconds: 90 }
        : { contentType: 'text/plain', body: 'hi' };
    },
    async speech(request) {
      speeches.push(request);
      return { contentType: 'audio/wav', body: (async function* () { yield new TextEncoder().encode(`RIFF${request.input}`); })() };
    },
  };
  return { provider, moderations, speeches };
}

function setup(platform: Provider | undefined, own?: Provider) {
  const usage: UsageEvent[] = [];
  const deps: UnitStageDeps = {
    catalog: createCatalog().forProviders(new Set(['openai'])),
    providers: { get: (id) => (id === platform?.id ? platform : undefined) },
    learn: { recordUsage: (event) => usage.push(event) },
    metrics: createMetrics({ defaultMetrics: false }),
    ...(own ? { byok: { forOrg: () => ({ get: (id: string) => (id === own.id ? own : undefined) }) } } : {}),
  };
  const context: Exchange = { caller, requestId: 'req_1', startedAt: performance.now(), signal: new AbortController().signal, mode: 'full' };
  return { deps, usage, context };
}

describe('moderate', () => {
  it('defaults to the catalog moderation model, passes the verdicts through and records a free ledger row', async () => {
    const platform = openai('platform');
    const { deps, usage, context } = setup(platform.provider);
    const out = await moderate(deps, { input: ['hello', 'world'] }, context);
    expect(platform.moderations).toEqual([{ model: 'omni-moderation-latest', input: ['hello', 'world'] }]);
    expect(out.moderation.id).toBe('modr-platform');
    expect(out.headers['x-svc-model']).toBe('openai/omni-moderation-latest');
    expect(usage).toMatchObject([{ model: 'openai/omni-moderation-latest', costUsd: 0, status: 200 }]);
  });

  it('serves with the organisation\'s own key first, and a fault of that key is its own', async () => {
    const platform = openai('platform');
    const own = openai('own');
    const { deps, context } = setup(platform.provider, own.provider);
    expect((await moderate(deps, { input: 'x' }, context)).moderation.id).toBe('modr-own');
    expect(platform.moderations).toEqual([]);
    const failing = setup(platform.provider, openai('own', true).provider);
    await expect(moderate(failing.deps, { input: 'x' }, failing.context)).rejects.toMatchObject({ kind: 'authentication', upstreamStatus: 401 });
  });

  it('answers 500 no provider key configured without any key, 400 for a model of another kind', async () => {
    const { deps, context } = setup(undefined);
    await expect(moderate(deps, { input: 'x' }, context)).rejects.toMatchObject({ status: 500, type: 'provider_error', message: expect.stringContaining('No provider key configured') });
    const served = setup(openai('p').provider);
    await expect(moderate(served.deps, { model: 'gpt-4o', input: 'x' }, served.context)).rejects.toMatchObject({ status: 404, param: 'model', code: 'model_not_found' });
  });

  it('ends as 499 client_closed_request when the client leaves, 504 request_timeout when the deadline passes', async () => {
    const hung: Provider = {
      ...openai('hung').provider,
      moderate: (_request, options) =>
        new Promise<never>((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new ProviderError({ provider: 'openai', kind: 'timeout', message: 'aborted' })));
        }),
    };
    const left = setup(hung);
    const client = new AbortController();
    setTimeout(() => client.abort(), 20);
    await expect(moderate(left.deps, { input: 'x' }, { ...left.context, signal: client.signal })).rejects.toMatchObject({ status: 499, code: 'client_closed_request' });
    const late = setup(hung);
    await expect(moderate({ ...late.deps, timeouts: { requestMs: 30, firstByteMs: 10_000 } }, { input: 'x' }, late.context)).rejects.toMatchObject({ status: 504, code: 'request_timeout' });
  });

  it('bounds the first byte of a provider that keeps the chat bound itself: its unit methods do not', async () => {
    const hung: Provider = {
      ...openai('hung').provider,
      boundsFirstByte: true,
      moderate: (_request, options) =>
        new Promise<never>((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new ProviderError({ provider: 'openai', kind: 'timeout', message: 'no headers in time' })));
        }),
    };
    const { deps, context } = setup(hung);
    const bounded = { ...deps, timeouts: { requestMs: 10_000, firstByteMs: 30 } };
    await expect(moderate(bounded, { input: 'x' }, context)).rejects.toMatchObject({ kind: 'timeout', message: 'no headers in time' });
  });
});

describe('speak', () => {
  it('prices the characters per million, passes the options and streams the audio', async () => {
    const platform = openai('platform');
    const { deps, usage, context } = setup(platform.provider);
    const out = await speak(deps, { model: 'tts-1-hd', input: 'x'.repeat(1000), voice: 'nova', responseFormat: 'wav', speed: 1.25 }, context);
    expect(platform.speeches[0]).toMatchObject({ model: 'tts-1-hd', voice: 'nova', responseFormat: 'wav', speed: 1.25 });
    // 1000 characters at $30 per million.
    expect(out.costUsd).toBeCloseTo(0.03, 10);
    expect(out.headers['x-svc-cost-usd']).toBe('0.03');
    expect(out.audio.contentType).toBe('audio/wav');
    expect(usage).toMatchObject([{ model: 'openai/tts-1-hd', costUsd: 0.03 }]);
  });

  it('refuses instructions on tts-1 and a chat model as the speech model', async () => {
    const { deps, context } = setup(openai('p').provider);
    await expect(speak(deps, { model: 'tts-1', input: 'x', voice: 'alloy', instructions: 'calm' }, context)).rejects.toMatchObject({ status: 400, param: 'instructions' });
    await expect(speak(deps, { model: 'gpt-4o-mini', input: 'x', voice: 'alloy' }, context)).rejects.toMatchObject({ status: 404, param: 'model', code: 'model_not_found' });
    await expect(speak(deps, { model: 'gpt-4o-mini-tts', input: 'x', voice: 'alloy', instructions: 'calm' }, context)).resolves.toMatchObject({ model: 'openai/gpt-4o-mini-tts' });
    // `ballad` is a gpt-4o-mini-tts voice; tts-1 does not have it.
    await expect(speak(deps, { model: 'tts-1', input: 'x', voice: 'ballad' }, context)).rejects.toMatchObject({ status: 400, param: 'voice' });
    await expect(speak(deps, { model: 'gpt-4o-mini-tts', input: 'x', voice: 'ballad' }, context)).resolves.toMatchObject({ model: 'openai/gpt-4o-mini-tts' });
  });
});

describe('transcribe', () => {
  it('prices the reported duration per minute, else the size-estimated one, and says which', async () => {
    const { deps, usage, context } = setup(openai('p').provider);
    const file = new Uint8Array(16_000 * 30);
    const reported = await transcribe(deps, { task: 'transcription', model: 'whisper-1', file, filename: 'a.mp3', responseFormat: 'verbose_json' }, context);
    // 90 s at $0.006 per minute.
    expect(reported).toMatchObject({ costUsd: 0.009, costEstimated: false });
    expect(reported.headers['x-svc-cost-estimated']).toBe('false');
    const estimated = await transcribe(deps, { task: 'translation', model: 'whisper-1', file, filename: 'a.mp3', responseFormat: 'text' }, context);
    // 480 kB at 16 kB/s: 30 s.
    expect(estimated).toMatchObject({ costUsd: 0.003, costEstimated: true });
    expect(usage.map((row) => row.costUsd)).toEqual([0.009, 0.003]);
  });

  it('sends a model of a provider without OpenAI formats (Deepgram) to the voice endpoint with a 400', async () => {
    const deepgram: Provider = { id: 'deepgram', chat: () => Promise.reject(new Error('not used')), stream: () => Promise.reject(new Error('not used')), recognize: async () => ({ text: 'x' }) };
    const { deps, context } = setup(deepgram);
    deps.catalog = createCatalog().forProviders(new Set(['deepgram']));
    await expect(transcribe(deps, { task: 'transcription', model: 'deepgram/nova-3', file: new Uint8Array(1), filename: 'a.wav', responseFormat: 'json' }, context)).rejects.toMatchObject({ status: 400, param: 'model', message: expect.stringContaining('/v1/voice/transcribe') });
  });
});
