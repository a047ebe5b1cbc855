import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { useMockOpenAIGateway } from './mock-openai-gateway.js';

/** Moderations, speech and transcription through the OpenAI adapter against the project's mock upstream, with the official SDK. */
describe('openai SDK: moderations and audio (mock upstream)', () => {
  const served = useMockOpenAIGateway();
  const { ledgerRow } = served;

  it('moderates texts with the default model, one verdict per input, and lands a free ledger row', async () => {
    const { data: moderation, response } = await served.client.moderations.create({ input: ['I will kill the process', 'good morning'] }).withResponse();
    expect(moderation.id).toMatch(/^modr-/);
    expect(moderation.model).toBe('omni-moderation-latest');
    expect(moderation.results.map((r) => r.flagged)).toEqual([true, false]);
    expect(moderation.results[0]!.categories.violence).toBe(true);
    expect(moderation.results[0]!.category_scores.violence).toBeGreaterThan(0.5);
    expect(served.upstream.stats().lastRequest?.headers.authorization).toBe('Bearer sk-upstream-openai');
    expect(await ledgerRow(response.headers)).toMatchObject({ model: 'openai/omni-moderation-latest', provider: 'openai', costUsd: 0 });
  });

  it('moderates the multimodal form with category_applied_input_types', async () => {
    const moderation = await served.client.moderations.create({
      model: 'omni-moderation-latest',
      input: [
        { type: 'text', text: 'a picture of a cat' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      ],
    });
    expect(moderation.results).toHaveLength(1);
    expect(moderation.results[0]!.category_applied_input_types?.violence).toEqual(['text', 'image']);
  });

  it('speaks: audio bytes with the format content type, priced per character in the ledger', async () => {
    const input = 'Hello from the served.gateway.';
    const response = await served.client.audio.speech.create({ model: 'tts-1-hd', input, voice: 'nova', response_format: 'wav', speed: 1.25 });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.length).toBe(4 + input.length);
    expect(served.upstream.stats().lastRequest?.body).toMatchObject({ model: 'tts-1-hd', input, voice: 'nova', response_format: 'wav', speed: 1.25 });
    // 23 characters at $30 per million.
    const cost = (input.length * 30) / 1e6;
    expect(Number(response.headers.get('x-svc-cost-usd'))).toBeCloseTo(cost, 12);
    expect(await ledgerRow(response.headers)).toMatchObject({ model: 'openai/tts-1-hd', provider: 'openai', costUsd: cost });
  });

  it('defaults to mp3, passes instructions to gpt-4o-mini-tts, and refuses limits with 400 naming the param', async () => {
    const mp3 = await served.client.audio.speech.create({ model: 'gpt-4o-mini-tts', input: 'Hi', voice: 'coral', instructions: 'Speak warmly.' });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(served.upstream.stats().lastRequest?.body).toMatchObject({ instructions: 'Speak warmly.' });
    for (const [param, body] of [
      ['input', { model: 'tts-1', input: 'x'.repeat(4097), voice: 'alloy' }],
      ['speed', { model: 'tts-1', input: 'x', voice: 'alloy', speed: 4.5 }],
    ] as const) {
      const error = await served.client.audio.speech.create(body).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe(param);
    }
  });

  it('answers 403 without the moderations or audio scope', async () => {
    const org = await served.gateway.runtime.db.orgs.ensure('e2e-audio-scope');
    const chatOnly = (await served.gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
    const limited = new OpenAI({ baseURL: `${served.gateway.inferenceUrl}/v1`, apiKey: chatOnly, maxRetries: 0 });
    await expect(limited.moderations.create({ input: 'x' })).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
    await expect(limited.audio.speech.create({ model: 'tts-1', input: 'x', voice: 'alloy' })).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
  });

  it('transcribes: json by default, verbose_json priced by the reported duration, text as a string', async () => {
    const audio = () => toFile(Buffer.alloc(3000), 'hello.mp3', { type: 'audio/mpeg' });
    const json = await served.client.audio.transcriptions.create({ file: await audio(), model: 'whisper-1', language: 'en', temperature: 0.2 });
    expect(json.text).toBe('Transcribed hello.mp3.');
    expect(served.upstream.stats().lastRequest?.body).toMatchObject({ model: 'whisper-1', language: 'en', temperature: '0.2', file: { filename: 'hello.mp3', size: 3000 } });

    const { data: verbose, response } = await served.client.audio.transcriptions.create({ file: await audio(), model: 'whisper-1', response_format: 'verbose_json' }).withResponse();
    expect(verbose.duration).toBe(3);
    // 3 s at $0.006 per minute.
    expect(response.headers.get('x-svc-cost-estimated')).toBe('false');
    expect(await ledgerRow(response.headers)).toMatchObject({ model: 'openai/whisper-1', costUsd: 0.0003 });

    const text = await served.client.audio.transcriptions.create({ file: await audio(), model: 'whisper-1', response_format: 'text' });
    expect(text).toBe('Transcribed hello.mp3.\n');
  });

  it('translates to English, subtitles with their content type, cost estimated from the size', async () => {
    const file = await toFile(Buffer.alloc(3000), 'hallo.mp3');
    const { data, response } = await served.client.audio.translations.create({ file, model: 'whisper-1', response_format: 'srt' }).withResponse();
    expect(data).toContain('Transcribed hallo.mp3.');
    expect(response.headers.get('content-type')).toMatch(/^application\/x-subrip/);
    expect(response.headers.get('x-svc-cost-estimated')).toBe('true');
    expect(served.upstream.stats().byPath['/v1/audio/translations']).toBe(1);
  });
});
