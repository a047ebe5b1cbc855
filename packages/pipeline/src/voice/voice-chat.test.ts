import { describe, expect, it } from 'vitest';
import { VOICE_FEE_MODEL } from './voice-billing.js';
import { chatByVoice } from './voice-chat.js';
import { fitForSpeech } from './voice-speech-text.js';
import { audioOf, speechProvider, voiceSetup } from '../test/voice-harness.js';

const request = (patch: Record<string, string> = {}) => ({ ...audioOf(2), language: 'en', ...patch });

describe('voice chat', () => {
  it('hears, asks the chat pipeline with voice routing, speaks the reply, and bills each step apart', async () => {
    const deepgram = speechProvider('deepgram', { heard: 'What time is it?', seconds: 3, language: 'en' });
    const { deps, usage, chats, chatContexts, limiter, context } = voiceSetup([deepgram.provider], { reply: 'It is noon.', feePerMinute: 0.002 });
    const ctx = context();
    const out = await chatByVoice(deps, { ...request(), system: 'Be brief.' }, ctx);
    expect(chats[0]).toMatchObject({
      model: 'svc/auto',
      stream: false,
      maxTokens: 500,
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'What time is it?' }],
      svc: { voiceMode: 'true', intelligenceMode: 'full' },
    });
    expect(chatContexts[0]).toMatchObject({ requestId: `${ctx.requestId}:chat`, mode: 'full' });
    expect(deepgram.speeches[0]).toMatchObject({ model: 'aura', input: 'It is noon.', voice: 'asteria-en', responseFormat: 'mp3', sampleRate: 22050 });
    expect(out).toMatchObject({
      transcript: { text: 'What time is it?', language: 'en', durationSeconds: 3, model: 'deepgram/nova-3' },
      reply: { text: 'It is noon.', model: 'mock/mock-speed', truncated: false },
      audio: { contentType: 'audio/mpeg', outputFormat: 'mp3_22050', model: 'deepgram/aura', voice: 'asteria-en' },
      conversationId: null,
      historyTurns: 0,
    });
    expect(new TextDecoder().decode(out.audio!.data)).toBe('RIFFIt is noon.');
    // 3 s heard at $0.0043/min, 11 characters at $15 per million, a fee on 3 s + 11/15 s.
    const stt = (3 / 60) * 0.0043;
    const tts = (11 * 15) / 1e6;
    const fee = (Math.ceil(3 + 11 / 15) / 60) * 0.002;
    expect(out.cost.sttUsd).toBeCloseTo(stt, 10);
    expect(out.cost.ttsUsd).toBeCloseTo(tts, 10);
    expect(out.cost.platformFeeUsd).toBeCloseTo(fee, 10);
    expect(out.cost.totalUsd).toBeCloseTo(stt + tts + fee + 0.0001, 10);
    expect(usage.map((row) => [row.requestId, row.model])).toEqual([
      [`${ctx.requestId}:stt`, 'deepgram/nova-3'],
      [`${ctx.requestId}:tts`, 'deepgram/aura'],
      [`${ctx.requestId}:platform_fee`, VOICE_FEE_MODEL],
    ]);
    expect(limiter.settled[0]?.actualCostUsd).toBeCloseTo(stt + tts + fee, 10);
    expect(out.headers).toMatchObject({ 'x-svc-stt-model': 'deepgram/nova-3', 'x-svc-chat-model': 'mock/mock-speed', 'x-svc-model': 'deepgram/aura', 'x-svc-intelligence-mode': 'full' });
  });

  it('uses another provider\'s cheap model when `provider` is set, and the chat model asked for', async () => {
    const deepgram = speechProvider('deepgram', { seconds: 1 });
    const elevenlabs = speechProvider('elevenlabs');
    const { deps, chats } = voiceSetup([deepgram.provider, elevenlabs.provider]);
    const out = await chatByVoice(deps, { ...request(), provider: 'elevenlabs', model: 'mock/mock-quality' }, voiceSetup([]).context());
    // The chat model is the chat step's: the speech-to-text call keeps its own.
    expect(deepgram.recognitions[0]).toEqual({ model: 'nova-3', file: expect.any(Uint8Array), filename: 'speech.wav', fileType: 'audio/wav', language: 'en' });
    expect(elevenlabs.speeches[0]).toMatchObject({ model: 'eleven_flash_v2_5', voice: 'JBFqnCBsd6RMkjVDRZzb', responseFormat: 'mp3', sampleRate: 44100 });
    expect(out.audio?.model).toBe('elevenlabs/eleven_flash_v2_5');
    expect(chats[0]?.model).toBe('mock/mock-quality');
  });

  it('answers 400 naming file when no speech was heard, still billing what was heard', async () => {
    const { deps, usage, chats, context } = voiceSetup([speechProvider('deepgram', { heard: '  ', seconds: 2 }).provider]);
    await expect(chatByVoice(deps, request(), context())).rejects.toMatchObject({ status: 400, param: 'file', code: 'no_speech' });
    expect(chats).toHaveLength(0);
    expect(usage.map((row) => row.model)).toEqual(['deepgram/nova-3', VOICE_FEE_MODEL]);
  });

  it('bills the speech-to-text step when the chat or the speech step fails', async () => {
    const chatFails = voiceSetup([speechProvider('deepgram', { seconds: 2 }).provider], { failChat: true });
    await expect(chatByVoice(chatFails.deps, request(), chatFails.context())).rejects.toMatchObject({ status: 502 });
    expect(chatFails.usage.map((row) => row.model)).toEqual(['deepgram/nova-3', VOICE_FEE_MODEL]);
    const speechFails = voiceSetup([speechProvider('deepgram', { seconds: 2, failSpeech: true }).provider]);
    await expect(chatByVoice(speechFails.deps, request(), speechFails.context())).rejects.toMatchObject({ kind: 'server' });
    expect(speechFails.usage.map((row) => row.model)).toEqual(['deepgram/nova-3', VOICE_FEE_MODEL]);
    expect(speechFails.limiter.settled).toHaveLength(1);
  });

  it('cuts a reply that is too long for the speech model at a sentence, and says so', async () => {
    const long = `${'A short sentence. '.repeat(150)}`.trim();
    const { deps, context } = voiceSetup([speechProvider('deepgram', { seconds: 1 }).provider], { reply: long });
    const out = await chatByVoice(deps, request(), context());
    expect(out.reply.truncated).toBe(true);
    expect(out.reply.text).toBe(long);
    expect(new TextDecoder().decode(out.audio!.data).length).toBeLessThanOrEqual(4 + 2_000);
    expect(fitForSpeech('First part. Second bit', 15)).toEqual({ text: 'First part.', truncated: true });
    // A sentence end in the first half would drop too much: cut at the last word instead.
    expect(fitForSpeech('One. Two three four', 12)).toEqual({ text: 'One. Two', truncated: true });
    expect(fitForSpeech('short', 12)).toEqual({ text: 'short', truncated: false });
  });
});

describe('voice session context', () => {
  it('full mode keeps the turns of a conversation in the shared store and feeds them to the next chat step', async () => {
    const { deps, chats, context } = voiceSetup([speechProvider('deepgram', { heard: 'first question', seconds: 1 }).provider], { reply: 'first answer' });
    const first = await chatByVoice(deps, { ...request(), conversationId: 'conv-1' }, context('full'));
    expect(first).toMatchObject({ conversationId: 'conv-1', historyTurns: 0 });
    const second = await chatByVoice(deps, { ...request(), conversationId: 'conv-1' }, context());
    expect(second.historyTurns).toBe(2);
    expect(chats[1]?.messages).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'first question' },
    ]);
    expect(chats[1]?.svc).toMatchObject({ conversationId: 'conv-1', intelligenceMode: 'full' });
    // Another conversation starts empty.
    expect((await chatByVoice(deps, { ...request(), conversationId: 'conv-2' }, context())).historyTurns).toBe(0);
  });

  it('cache mode (and proxy, escalated to it) neither reads nor writes the session, nor links the chain', async () => {
    const { deps, chats, context } = voiceSetup([speechProvider('deepgram', { seconds: 1 }).provider]);
    await chatByVoice(deps, { ...request(), conversationId: 'conv-c' }, context('full'));
    const cached = await chatByVoice(deps, { ...request(), conversationId: 'conv-c' }, context('cache'));
    expect(cached).toMatchObject({ conversationId: null, historyTurns: 0, mode: 'cache' });
    expect(chats[1]?.messages).toHaveLength(1);
    expect(chats[1]?.svc).not.toHaveProperty('conversationId');
    const proxied = await chatByVoice(deps, { ...request(), conversationId: 'conv-c' }, context('proxy'));
    expect(proxied).toMatchObject({ mode: 'cache', historyTurns: 0 });
    // The cache-mode turns were not stored: full mode sees only its own first turn.
    expect((await chatByVoice(deps, { ...request(), conversationId: 'conv-c' }, context('full'))).historyTurns).toBe(2);
  });
});
