import { describe, expect, it } from 'vitest';
import type { Provider, TranscriptionRequest } from '../provider.js';
import { rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { createOpenAIProvider } from './openai-provider.js';

const serve = useFixtureProvider((url) => createOpenAIProvider({ apiKeys: ['sk-1'], baseUrl: `${url}/v1` }));

function transcribe(provider: Provider) {
  if (!provider.transcribe) throw new Error('provider has no transcribe');
  return provider.transcribe.bind(provider);
}

const request: TranscriptionRequest = { task: 'transcription', model: 'whisper-1', file: new TextEncoder().encode('ID3-fake-audio'), filename: 'hello.mp3', fileType: 'audio/mpeg' };

describe('openai transcriptions', () => {
  it('posts the file and fields as multipart and reads the duration of verbose_json', async () => {
    const { server, provider } = await serve({ json: { task: 'transcribe', language: 'english', duration: 12.5, text: 'Hello.' } });
    const result = await transcribe(provider)({ ...request, language: 'en', prompt: 'greeting', responseFormat: 'verbose_json', temperature: 0.2 });
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/audio/transcriptions');
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = String(sent.body);
    for (const [name, value] of [['model', 'whisper-1'], ['language', 'en'], ['prompt', 'greeting'], ['response_format', 'verbose_json'], ['temperature', '0.2']]) {
      expect(body).toContain(`name="${name}"\r\n\r\n${value}\r\n`);
    }
    expect(body).toContain('filename="hello.mp3"');
    expect(body).toContain('ID3-fake-audio');
    expect(result).toMatchObject({ contentType: 'application/json', durationSeconds: 12.5 });
    expect(JSON.parse(result.body)).toMatchObject({ text: 'Hello.' });
  });

  it('sends translations to /audio/translations without a language, and maps upstream errors', async () => {
    const { server, provider } = await serve({ json: { text: 'Hello.' } });
    const result = await transcribe(provider)({ ...request, task: 'translation', language: 'de' });
    expect(server.requests[0]?.path).toBe('/v1/audio/translations');
    expect(String(server.requests[0]?.body)).not.toContain('name="language"');
    expect(result.durationSeconds).toBeUndefined();
    const { provider: failing } = await serve({ status: 429, json: { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } } });
    expect(await rejection(transcribe(failing)(request))).toMatchObject({ kind: 'rate_limit', upstreamStatus: 429 });
  });
});
