import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

// The test runtime serves the mock provider only: no OpenAI key, so no moderation model.
const test = useTestApp('sk-svc-moderations-route-test-master');

interface ErrorBody {
  error: { type: string; param: string | null; message: string };
}

describe('POST /v1/moderations', () => {
  it('answers 500 no provider key configured when no key serves moderations', async () => {
    const response = await test.post('/v1/moderations', { input: 'hello' });
    expect(response.status).toBe(500);
    expect(((await response.json()) as ErrorBody).error).toMatchObject({ type: 'provider_error', message: expect.stringContaining('No provider key configured') });
  });

  it('answers 400 on a malformed input and 403 without the moderations scope', async () => {
    for (const input of [undefined, [], 42, [{ type: 'audio' }]]) {
      const response = await test.post('/v1/moderations', { input });
      expect(response.status, JSON.stringify(input)).toBe(400);
      expect(((await response.json()) as ErrorBody).error.param).toMatch(/^input/);
    }
    const embeddingsOnly = await test.keyWith(['inference:embeddings']);
    expect((await test.post('/v1/moderations', { input: 'x' }, embeddingsOnly)).status).toBe(403);
  });
});
