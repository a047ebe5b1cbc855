import { describe, expect, it } from 'vitest';
import type { ImageGenerationRequest, Provider } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { createOpenAIProvider } from './openai-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));
const png = (json('images-dall-e-2') as { data: { b64_json: string }[] }).data[0]!.b64_json;

const serve = useFixtureProvider((url) => createOpenAIProvider({ apiKeys: ['sk-1'], baseUrl: `${url}/v1` }));

function generate(provider: Provider) {
  if (!provider.generateImages) throw new Error('provider has no generateImages');
  return provider.generateImages.bind(provider);
}

const dalle3: ImageGenerationRequest = { model: 'dall-e-3', prompt: 'a lighthouse at dawn', n: 1, size: '1792x1024', quality: 'hd', style: 'natural', user: 'u-7' };

describe('openai image generation', () => {
  it('asks DALL·E 3 for base64 with the set options and reads the image and its revised prompt', async () => {
    const { server, provider } = await serve({ json: json('images-dall-e-3') });
    const result = await generate(provider)(dalle3);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/images/generations' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-1');
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(server.requests[0]?.body).toEqual({
      model: 'dall-e-3',
      prompt: 'a lighthouse at dawn',
      n: 1,
      size: '1792x1024',
      quality: 'hd',
      style: 'natural',
      user: 'u-7',
      response_format: 'b64_json',
    });
    expect(result.created).toBe(1732197052);
    expect(result.images).toEqual([{ b64Json: png, revisedPrompt: expect.stringMatching(/^A watercolour painting of a lighthouse/) }]);
    expect(result.usage).toBeUndefined();
    expect(Buffer.from(result.images[0]!.b64Json, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('sends only what DALL·E 2 is given, n images back without revised prompts, with the key the call names', async () => {
    const { server, provider } = await serve({ json: json('images-dall-e-2') });
    const result = await generate(provider)({ model: 'dall-e-2', prompt: 'two cats', n: 2 }, { apiKey: 'sk-org' });
    expect(server.requests[0]?.body).toEqual({ model: 'dall-e-2', prompt: 'two cats', n: 2, response_format: 'b64_json' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-org');
    expect(result.images).toEqual([{ b64Json: png }, { b64Json: png }]);
  });

  it('never sends response_format to gpt-image-1, passes its own options and reads the token usage', async () => {
    const { server, provider } = await serve({ json: json('images-gpt-image-1') });
    const result = await generate(provider)({
      model: 'gpt-image-1',
      prompt: 'a sticker of a fox',
      n: 1,
      size: '1024x1024',
      quality: 'low',
      outputFormat: 'webp',
      background: 'opaque',
      moderation: 'low',
      outputCompression: 80,
    });
    expect(server.requests[0]?.body).toEqual({
      model: 'gpt-image-1',
      prompt: 'a sticker of a fox',
      n: 1,
      size: '1024x1024',
      quality: 'low',
      output_format: 'webp',
      background: 'opaque',
      moderation: 'low',
      output_compression: 80,
    });
    expect(result.usage).toEqual({ inputTokens: 14, outputTokens: 272, textTokens: 14, imageTokens: 0 });
  });

  it('maps a refused prompt to the caller\'s content_filter (400), and 429 and 5xx to retryable kinds', async () => {
    const cases = [
      [400, 'error-content-policy', { kind: 'content_filter', status: 400, code: 'content_filter', retryable: false }],
      [400, 'error-moderation-blocked', { kind: 'content_filter', status: 400, retryable: false }],
      [429, 'error-rate-limit', { kind: 'rate_limit', status: 429, retryable: true }],
      [500, 'error-server', { kind: 'server', status: 502, type: 'upstream_error', retryable: true }],
      [400, 'error-bad-request', { kind: 'invalid_request', status: 400, param: 'temperature', retryable: false }],
    ] as const;
    for (const [status, fixture, expected] of cases) {
      const { provider } = await serve({ status, json: json(fixture) });
      expect(await rejection(generate(provider)(dalle3)), fixture).toMatchObject({ ...expected, upstreamStatus: status });
    }
  });

  it('rejects an answer without base64 images as a retryable malformed answer', async () => {
    const { provider } = await serve({ json: { created: 1, data: [{ url: 'https://example.com/a.png' }] } });
    expect(await rejection(generate(provider)(dalle3))).toMatchObject({ kind: 'server', retryable: true, message: expect.stringContaining('malformed image answer') });
  });

  it('is not offered by compatible vendors', () => {
    expect(createOpenAIProvider({ id: 'groq', apiKeys: ['k'] }).generateImages).toBeUndefined();
  });
});
