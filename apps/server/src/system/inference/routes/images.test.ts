import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

// The test runtime serves the mock provider only: no OpenAI key, so no image model.
const test = useTestApp('sk-svc-images-route-test-master-H6EHTPvYArFDEhzcbzdMYNg8');

interface ErrorBody {
  error: { type: string; code: string | null; param: string | null; message: string };
}

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP438AAAAQBAYDFKhhdAAAAAElFTkSuQmCC';

describe('POST /v1/images/generations', () => {
  it('answers 500 provider_error when no key serves image generation', async () => {
    const response = await test.post('/v1/images/generations', { prompt: 'a lighthouse' });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-error-id')).toMatch(/^err_/);
    expect(((await response.json()) as ErrorBody).error).toMatchObject({ type: 'provider_error', message: expect.stringContaining('No provider key configured') });
  });

  // Every limit is tested on the decoder; here, that each reaches the client as a 400 naming it.
  it.each([
    [{}, 'prompt'],
    [{ prompt: 'p', n: 0 }, 'n'],
    [{ prompt: 'p', n: 2 }, 'n'],
    [{ prompt: 'p', model: 'dall-e-2', n: 11 }, 'n'],
    [{ prompt: 'p', size: '256x256' }, 'size'],
    [{ prompt: 'p', model: 'dall-e-2', quality: 'hd' }, 'quality'],
    [{ prompt: 'p', model: 'dall-e-2', style: 'vivid' }, 'style'],
    [{ prompt: 'p', response_format: 'png' }, 'response_format'],
  ])('answers 400 on %j naming %s', async (body, param) => {
    const response = await test.post('/v1/images/generations', body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('answers 401 without a key and 403 without the images scope', async () => {
    const anonymous = await test.app.request('/v1/images/generations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"p"}' });
    expect(anonymous.status).toBe(401);
    const chatOnly = await test.keyWith(['inference:chat']);
    const response = await test.post('/v1/images/generations', { prompt: 'p' }, chatOnly);
    expect(response.status).toBe(403);
    expect(((await response.json()) as ErrorBody).error.code).toBe('insufficient_scopes');
  });
});

describe('GET /v1/images/files/<name>', () => {
  it('serves a stored image without any key, with its type, length and a private cache lifetime within the hour', async () => {
    const name = await test.runtime.images.put(png);
    const response = await test.app.request(`/v1/images/files/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(Buffer.from(png, 'base64'))).toBe(true);
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    expect(response.headers.get('cache-control')).toMatch(/^private, /);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3600);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 404 not_found_error for an unknown, malformed or mistyped name', async () => {
    const name = await test.runtime.images.put(png);
    for (const path of [`${'x'.repeat(32)}.png`, 'nope', name.replace('.png', '.jpeg')]) {
      const response = await test.app.request(`/v1/images/files/${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('x-error-id')).toMatch(/^err_/);
      expect(((await response.json()) as ErrorBody).error.type).toBe('not_found_error');
    }
  });
});
