import { describe, expect, it } from 'vitest';
import { VOICE_FEE_MODEL } from './voice-billing.js';
import { transcribeVoice } from './voice-transcribe.js';
import { synthesizeVoice } from './voice-synthesize.js';
import { audioOf, speechProvider, voiceSetup } from '../test/voice-harness.js';

describe('voice transcribe: billing', () => {
  it('bills the provider per minute of the reported duration plus the platform fee, as two ledger rows and one settlement', async () => {
    const deepgram = speechProvider('deepgram', { heard: 'Hello there.', seconds: 90, language: 'en' });
    const { deps, usage, limiter, context } = voiceSetup([deepgram.provider], { feePerMinute: 0.002 });
    const ctx = context();
    const out = await transcribeVoice(deps, { ...audioOf(3), language: 'en' }, ctx);
    // 90 s of nova-3 at $0.0043/min, and 90 s of fee at $0.002/min.
    const provider = 0.00645;
    const fee = 0.003;
    expect(out).toMatchObject({ text: 'Hello there.', language: 'en', durationSeconds: 90, durationEstimated: false, model: 'deepgram/nova-3', modelChosen: true });
    expect(out.cost.providerUsd).toBeCloseTo(provider, 10);
    expect(out.cost.platformFeeUsd).toBeCloseTo(fee, 10);
    expect(out.cost.totalUsd).toBeCloseTo(provider + fee, 10);
    expect(usage).toEqual([
      expect.objectContaining({ requestId: ctx.requestId, model: 'deepgram/nova-3', provider: 'deepgram', costUsd: provider }),
      expect.objectContaining({ requestId: `${ctx.requestId}:platform_fee`, model: VOICE_FEE_MODEL, provider: 'svc', costUsd: fee }),
    ]);
    expect(limiter.settled).toEqual([{ actualTokens: 0, actualCostUsd: provider + fee }]);
    expect(out.headers).toMatchObject({ 'x-svc-model': 'deepgram/nova-3', 'x-svc-provider-cost-usd': String(provider), 'x-svc-platform-fee-usd': String(fee), 'x-svc-cost-estimated': 'false', 'x-svc-audio-seconds': '90', 'x-ratelimit-limit-requests': '60' });
    expect(deepgram.recognitions[0]).toMatchObject({ model: 'nova-3', language: 'en', filename: 'speech.wav' });
  });

  it('estimates the duration from the size when the provider reports none, and admits the estimate first', async () => {
    const { deps, limiter, context } = voiceSetup([speechProvider('deepgram').provider], { feePerMinute: 0.01 });
    const out = await transcribeVoice(deps, audioOf(30), context());
    expect(out).toMatchObject({ durationSeconds: 30, durationEstimated: true, language: null });
    expect(out.headers['x-svc-cost-estimated']).toBe('true');
    // 30 s: $0.00215 at nova-3's rate and $0.005 of fee, admitted before the call.
    expect(limiter.admitted[0]?.estimatedCostUsd).toBeCloseTo(0.00215 + 0.005, 10);
  });

  it('charges only the fee to the budget when the organisation\'s own key served, and nothing when the fee is 0', async () => {
    const own = speechProvider('deepgram', { seconds: 60 });
    const { deps, usage, limiter, context } = voiceSetup([speechProvider('deepgram').provider], { feePerMinute: 0.002, own: own.provider });
    const out = await transcribeVoice(deps, audioOf(1), context());
    expect(own.recognitions).toHaveLength(1);
    expect(out.byok).toBe(true);
    expect(limiter.settled[0]?.actualCostUsd).toBeCloseTo(0.002, 10);
    expect(usage.map((row) => row.costUsd)).toEqual([0.0043, 0.002]);
    const free = voiceSetup([speechProvider('deepgram', { seconds: 60 }).provider], { feePerMinute: 0 });
    await transcribeVoice(free.deps, audioOf(1), free.context());
    expect(free.usage.map((row) => row.model)).toEqual(['deepgram/nova-3']);
  });

  it('releases the reservation when the provider fails', async () => {
    const { deps, limiter, context } = voiceSetup([speechProvider('deepgram').provider]);
    await expect(transcribeVoice(deps, { ...audioOf(1), sttModel: 'openai/whisper-1' }, context())).rejects.toMatchObject({ status: 404, param: 'stt_model' });
    expect(limiter.admitted).toHaveLength(0);
    deps.providers = { get: () => undefined };
    await expect(transcribeVoice(deps, audioOf(1), context())).rejects.toMatchObject({ status: 500 });
    expect(limiter.released).toBe(1);
  });
});

describe('voice synthesize: billing', () => {
  it('bills the characters plus the fee on the speech\'s estimated length, and passes voice, format and rate', async () => {
    const deepgram = speechProvider('deepgram');
    const { deps, usage, limiter, context } = voiceSetup([deepgram.provider], { feePerMinute: 0.002 });
    const text = 'x'.repeat(1_500);
    const out = await synthesizeVoice(deps, { text, model: 'deepgram/aura-2', voice: 'orion-en', outputFormat: 'pcm_16000' }, context());
    expect(deepgram.speeches[0]).toEqual({ model: 'aura-2', input: text, voice: 'orion-en', responseFormat: 'pcm', sampleRate: 16000 });
    // 1,500 characters at $30 per million; 100 s of speech (15 characters a second) at $0.002/min.
    expect(out.cost).toMatchObject({ providerUsd: 0.045, billedSeconds: 100 });
    expect(out.cost.platformFeeUsd).toBeCloseTo((100 / 60) * 0.002, 10);
    expect(usage.map((row) => [row.model, row.costUsd])).toEqual([['deepgram/aura-2', 0.045], [VOICE_FEE_MODEL, out.cost.platformFeeUsd]]);
    expect(limiter.settled[0]?.actualCostUsd).toBeCloseTo(out.cost.totalUsd, 10);
    expect(out.headers).toMatchObject({ 'x-svc-audio-format': 'pcm_16000', 'x-svc-voice-id': 'orion-en', 'x-svc-model': 'deepgram/aura-2' });
    expect(out.audio.contentType).toBe('audio/mpeg');
  });
});

describe('voice intelligence modes', () => {
  it('escalates proxy to cache, from the header or the organisation\'s default, and answers 400 for an unknown header', async () => {
    const provider = speechProvider('deepgram', { seconds: 1 }).provider;
    const header = voiceSetup([provider]);
    expect((await transcribeVoice(header.deps, audioOf(1), header.context('proxy'))).headers['x-svc-intelligence-mode']).toBe('cache');
    expect((await transcribeVoice(header.deps, audioOf(1), header.context())).mode).toBe('full');
    const org = voiceSetup([provider], { defaultMode: 'proxy' });
    expect((await transcribeVoice(org.deps, audioOf(1), org.context())).mode).toBe('cache');
    expect((await transcribeVoice(org.deps, audioOf(1), org.context('FULL'))).mode).toBe('full');
    expect(() => org.context('turbo')).toThrow(expect.objectContaining({ status: 400, param: 'X-Intelligence-Mode' }));
  });
});
