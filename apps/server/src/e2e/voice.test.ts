import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

interface Transcription {
  object: string;
  text: string;
  language: string | null;
  duration: number;
  duration_estimated: boolean;
  model: string;
  intelligence_mode: string;
  cost: { provider_usd: number; platform_fee_usd: number; total_usd: number; attribution: string };
}

interface VoiceChat {
  object: string;
  conversation_id: string | null;
  history_turns: number;
  transcript: { text: string; language: string | null; duration: number; model: string };
  reply: { text: string; model: string; truncated: boolean };
  audio: { data: string; content_type: string; format: string; model: string; voice: string } | null;
  latency_ms: { stt: number; chat: number; tts: number; total: number };
  cost: { stt_usd: number; chat_usd: number; tts_usd: number; platform_fee_usd: number; total_usd: number; billed_seconds: number };
  intelligence_mode: string;
}

/** The voice endpoints over the real adapters (OpenAI, Groq, Deepgram, ElevenLabs) against the project's mock upstream. */
describe('voice endpoints (mock upstream)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    gateway = await startGateway({
      OPENAI_API_KEY: 'sk-upstream-openai',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      GROQ_API_KEY: 'gsk-upstream',
      GROQ_BASE_URL: `${upstream.url}/v1`,
      DEEPGRAM_API_KEY: 'dg-upstream',
      DEEPGRAM_BASE_URL: upstream.url,
      ELEVENLABS_API_KEY: 'xi-upstream',
      ELEVENLABS_BASE_URL: upstream.url,
      SVC_VOICE_PLATFORM_FEE_PER_MINUTE: '0.002',
    });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  function upload(path: string, fields: Record<string, string>, options: { bytes?: number; key?: string | null; headers?: Record<string, string> } = {}) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(options.bytes ?? 3000)], { type: 'audio/wav' }), 'hello.wav');
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const key = options.key === undefined ? masterKey : options.key;
    return fetch(`${gateway.inferenceUrl}${path}`, { method: 'POST', headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers }, body: form });
  }

  async function ledger(response: Response) {
    await gateway.runtime.learn.flush();
    const id = response.headers.get('x-svc-request-id')!;
    const rows = await gateway.runtime.db.usage.listByOrg(response.headers.get('x-svc-org-id')!, { limit: 50 });
    return rows.filter((row) => row.requestId === id || row.requestId.startsWith(`${id}:`)).sort((a, b) => a.requestId.localeCompare(b.requestId));
  }

  async function chatOnlyKey(name: string): Promise<string> {
    const org = await gateway.runtime.db.orgs.ensure(name);
    return (await gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
  }

  describe('POST /v1/voice/transcribe', () => {
    it('sends English to the low-latency default (Groq Whisper turbo), billing pass-through and fee as separate ledger rows', async () => {
      const response = await upload('/v1/voice/transcribe', { language: 'en' });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-svc-intelligence-mode')).toBe('full');
      const body = (await response.json()) as Transcription;
      expect(body).toMatchObject({ object: 'voice.transcription', text: 'Transcribed hello.wav.', language: 'en', duration: 3, duration_estimated: false, model: 'groq/whisper-large-v3-turbo' });
      const sent = upstream.stats().lastRequest!;
      expect(sent).toMatchObject({ path: '/v1/audio/transcriptions', body: { model: 'whisper-large-v3-turbo', language: 'en', response_format: 'verbose_json' } });
      expect(sent.headers.authorization).toBe('Bearer gsk-upstream');
      // 3 s at $0.04 per hour, and 3 s of the $0.002 per minute fee.
      const provider = (3 / 3600) * 0.04;
      const fee = (3 / 60) * 0.002;
      expect(body.cost.provider_usd).toBeCloseTo(provider, 9);
      expect(body.cost.platform_fee_usd).toBeCloseTo(fee, 9);
      expect(Number(response.headers.get('x-svc-platform-fee-usd'))).toBeCloseTo(fee, 9);
      const rows = await ledger(response);
      expect(rows.map((row) => [row.requestId.replace(/^.*?(:|$)/, '$1'), row.model, row.provider])).toEqual([
        ['', 'groq/whisper-large-v3-turbo', 'groq'],
        [':platform_fee', 'svc/voice-platform-fee', 'svc'],
      ]);
      expect(rows[0]!.costUsd).toBeCloseTo(provider, 9);
      expect(rows[1]!.costUsd).toBeCloseTo(fee, 9);
    });

    it('sends another language to the classic multilingual default, and a named model to its provider', async () => {
      const german = (await (await upload('/v1/voice/transcribe', { language: 'de' })).json()) as Transcription;
      expect(german.model).toBe('groq/whisper-large-v3');
      const deepgram = await upload('/v1/voice/transcribe', { stt_model: 'deepgram/nova-3' }, { bytes: 2000 });
      expect((await deepgram.json()) as Transcription).toMatchObject({ text: 'Transcribed 2000 bytes of audio.', language: 'en', duration: 2, model: 'deepgram/nova-3' });
      expect(upstream.stats().lastRequest).toMatchObject({ path: '/v1/listen', query: 'model=nova-3&smart_format=true&detect_language=true', headers: { authorization: 'Token dg-upstream' } });
      const scribe = (await (await upload('/v1/voice/transcribe', { stt_model: 'elevenlabs/scribe_v1', language: 'fr' })).json()) as Transcription;
      expect(scribe).toMatchObject({ text: 'Transcribed hello.wav.', language: 'fr', duration: 3, model: 'elevenlabs/scribe_v1' });
      expect(upstream.stats().lastRequest?.headers['xi-api-key']).toBe('xi-upstream');
      const whisper = (await (await upload('/v1/voice/transcribe', { stt_model: 'openai/gpt-4o-mini-transcribe', language: 'en' })).json()) as Transcription;
      // gpt-4o transcription models answer json: no duration, so it is estimated from the size.
      expect(whisper).toMatchObject({ model: 'openai/gpt-4o-mini-transcribe', duration_estimated: true });
    });

    it('escalates proxy to cache, and maps an upstream rate limit to a 429', async () => {
      const cached = await upload('/v1/voice/transcribe', {}, { headers: { 'x-intelligence-mode': 'proxy' } });
      expect([cached.status, cached.headers.get('x-svc-intelligence-mode')]).toEqual([200, 'cache']);
      upstream.configure({ fault: '429', retryAfterSeconds: 0 });
      try {
        const limited = await upload('/v1/voice/transcribe', { stt_model: 'deepgram/nova-2' });
        expect(limited.status).toBe(429);
        expect(((await limited.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
        expect(limited.headers.get('x-svc-intelligence-mode')).toBe('full');
      } finally {
        upstream.configure({ fault: undefined });
      }
    });

    it('answers 401 without a key and 403 without the audio scope', async () => {
      const anonymous = await upload('/v1/voice/transcribe', {}, { key: null });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('x-error-id')).toBeTruthy();
      expect((await upload('/v1/voice/transcribe', {}, { key: await chatOnlyKey('e2e-voice-transcribe-scope') })).status).toBe(403);
    });
  });

  describe('POST /v1/voice/synthesize (openai SDK)', () => {
    const synthesize = (body: Record<string, unknown>, sdk: OpenAI = client) => sdk.post<Response>('/voice/synthesize', { body, __binaryResponse: true });

    it('streams Deepgram raw PCM at the rate asked with its content type, billed per character plus the fee', async () => {
      const text = 'Hello from the voice gateway.';
      const response = await synthesize({ text, model: 'deepgram/aura-2', voice: 'orion-en', output_format: 'pcm_16000' });
      expect(response.headers.get('content-type')).toBe('audio/pcm');
      expect(response.headers.get('x-svc-audio-format')).toBe('pcm_16000');
      expect((await response.arrayBuffer()).byteLength).toBe(text.length);
      expect(upstream.stats().lastRequest).toMatchObject({ path: '/v1/speak', query: 'model=aura-2-orion-en&encoding=linear16&container=none&sample_rate=16000', body: { text } });
      const characters = (text.length * 30) / 1e6;
      const fee = (Math.ceil(text.length / 15) / 60) * 0.002;
      const rows = await ledger(response);
      expect(rows.map((row) => row.model)).toEqual(['deepgram/aura-2', 'svc/voice-platform-fee']);
      expect(rows[0]!.costUsd).toBeCloseTo(characters, 9);
      expect(rows[1]!.costUsd).toBeCloseTo(fee, 9);
      expect(Number(response.headers.get('x-svc-cost-usd'))).toBeCloseTo(characters + fee, 9);
    });

    it('speaks ElevenLabs WAV with the default voice, and OpenAI by default format', async () => {
      const wav = await synthesize({ text: 'Hi', model: 'elevenlabs/eleven_flash_v2_5', output_format: 'wav_24000' });
      expect(wav.headers.get('content-type')).toBe('audio/wav');
      expect(Buffer.from(await wav.arrayBuffer()).subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(upstream.stats().lastRequest).toMatchObject({ path: '/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb', query: 'output_format=wav_24000', body: { text: 'Hi', model_id: 'eleven_flash_v2_5' } });
      const mp3 = await synthesize({ text: 'Hi', model: 'openai/tts-1', voice: 'nova' });
      expect([mp3.headers.get('content-type'), mp3.headers.get('x-svc-audio-format')]).toEqual(['audio/mpeg', 'mp3_24000']);
    });

    it('answers 400 naming each bad field, 404 for a model of another kind, 401 and 403', async () => {
      for (const [param, change, kind] of [
        ['voice', { voice: 'alloy' }, OpenAI.BadRequestError],
        ['output_format', { output_format: 'mp3_44100' }, OpenAI.BadRequestError],
        ['text', { text: 'x'.repeat(2_001) }, OpenAI.BadRequestError],
        ['model', { model: 'groq/whisper-large-v3' }, OpenAI.NotFoundError],
      ] as const) {
        const error = await synthesize({ text: 'Hi', model: 'deepgram/aura-2', ...change }).then(() => undefined, (e: unknown) => e);
        expect(error, param).toBeInstanceOf(kind);
        expect((error as InstanceType<typeof OpenAI.APIError>).param).toBe(param);
      }
      const anonymous = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: 'sk-svc-nobody-000000000000', maxRetries: 0 });
      await expect(synthesize({ text: 'Hi', model: 'deepgram/aura-2' }, anonymous)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
      const chatOnly = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: await chatOnlyKey('e2e-voice-synth-scope'), maxRetries: 0 });
      await expect(synthesize({ text: 'Hi', model: 'deepgram/aura-2' }, chatOnly)).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
    });
  });

  describe('POST /v1/voice/chat', () => {
    it('hears, answers through the chat pipeline and speaks with the provider asked for, each step in the ledger', async () => {
      const response = await upload('/v1/voice/chat', { language: 'en', provider: 'deepgram', model: 'openai/gpt-4o-mini', output_format: 'mp3_22050' });
      expect(response.status).toBe(200);
      const body = (await response.json()) as VoiceChat;
      expect(body).toMatchObject({
        object: 'voice.chat',
        transcript: { text: 'Transcribed hello.wav.', language: 'en', duration: 3, model: 'groq/whisper-large-v3-turbo' },
        reply: { model: 'openai/gpt-4o-mini', truncated: false },
        audio: { content_type: 'audio/mpeg', format: 'mp3_22050', model: 'deepgram/aura', voice: 'asteria-en' },
        intelligence_mode: 'full',
        conversation_id: null,
      });
      expect(body.reply.text.length).toBeGreaterThan(0);
      expect(upstream.stats().byPath['/v1/audio/transcriptions']).toBeGreaterThan(0);
      const audio = Buffer.from(body.audio!.data, 'base64');
      expect(audio.subarray(0, 3).toString('latin1')).toBe('ID3');
      expect(audio.length).toBe(3 + body.reply.text.length);
      const rows = await ledger(response);
      const id = response.headers.get('x-svc-request-id')!;
      expect(rows.map((row) => [row.requestId, row.model])).toEqual([
        [`${id}:chat`, 'openai/gpt-4o-mini'],
        [`${id}:platform_fee`, 'svc/voice-platform-fee'],
        [`${id}:stt`, 'groq/whisper-large-v3-turbo'],
        [`${id}:tts`, 'deepgram/aura'],
      ]);
      expect(body.cost.total_usd).toBeCloseTo(body.cost.stt_usd + body.cost.chat_usd + body.cost.tts_usd + body.cost.platform_fee_usd, 9);
      expect(rows.find((row) => row.requestId === `${id}:chat`)?.costUsd).toBeCloseTo(body.cost.chat_usd, 9);
    });

    it('full mode keeps the conversation\'s turns and feeds them to the chat step; cache mode does not', async () => {
      const headers = { 'x-svc-conversation-id': `voice-e2e-${Date.now()}` };
      const first = (await (await upload('/v1/voice/chat', { language: 'en', model: 'openai/gpt-4o-mini' }, { headers })).json()) as VoiceChat;
      expect(first).toMatchObject({ conversation_id: headers['x-svc-conversation-id'], history_turns: 0 });
      const second = (await (await upload('/v1/voice/chat', { language: 'en', model: 'openai/gpt-4o-mini' }, { headers })).json()) as VoiceChat;
      expect(second.history_turns).toBe(2);
      const cached = await upload('/v1/voice/chat', { language: 'en', model: 'openai/gpt-4o-mini', tts_model: 'openai/tts-1' }, { headers: { ...headers, 'x-intelligence-mode': 'cache' } });
      expect(cached.headers.get('x-svc-intelligence-mode')).toBe('cache');
      expect((await cached.json()) as VoiceChat).toMatchObject({ conversation_id: null, history_turns: 0, intelligence_mode: 'cache' });
    });

    it('answers 400 naming a bad part, 401 and 403', async () => {
      const missing = await upload('/v1/voice/chat', {});
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { error: { param: string } }).error.param).toBe('language');
      expect((await upload('/v1/voice/chat', { language: 'en' }, { key: null })).status).toBe(401);
      expect((await upload('/v1/voice/chat', { language: 'en' }, { key: await chatOnlyKey('e2e-voice-chat-scope') })).status).toBe(403);
    });
  });
});
