import { describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.js';

const master = 'sk-svc-api-headers-inference-master';
const t = useTestApp(master);

describe('inference answer headers', () => {
  it('nosniff and no-store on JSON answers and errors; streams keep no-cache', async () => {
    const json = await t.post('/v1/chat/completions', { model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }] });
    expect(json.status).toBe(200);
    expect(json.headers.get('x-content-type-options')).toBe('nosniff');
    expect(json.headers.get('cache-control')).toBe('no-store');
    const error = await t.post('/v1/chat/completions', { model: 'svc/auto', messages: [] });
    expect(error.status).toBe(400);
    expect(error.headers.get('x-content-type-options')).toBe('nosniff');
    expect(error.headers.get('cache-control')).toBe('no-store');
    const stream = await t.post('/v1/chat/completions', { model: 'svc/auto', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    await stream.text();
  });
});
