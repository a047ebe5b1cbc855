import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

const master = 'sk-svc-responses-route-test-master-CG2pMmRpuC0AtSQG2AypnjVW';
const testApp = useTestApp(master);

const post = (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${master}` }) =>
  testApp.app.request('/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('POST /v1/responses', () => {
  it('answers with a response object, svc_metadata and the gateway headers', async () => {
    const response = await post({ model: 'svc/auto', input: 'hi', instructions: 'Be brief.' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ object: 'response', status: 'completed', instructions: 'Be brief.', store: true, previous_response_id: null, svc_metadata: { provider: 'mock' } });
    expect(body.id).toMatch(/^resp_/);
    expect(body.output).toEqual([expect.objectContaining({ type: 'message', content: [expect.objectContaining({ type: 'output_text' })] })]);
    expect(response.headers.get('x-svc-provider')).toBeTruthy();
  });

  it('streams response.created first and response.completed last', async () => {
    const response = await post({ model: 'mock/mock-value', input: 'Tell me a story', stream: true });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const names = [...(await response.text()).matchAll(/^event: ([\w.]+)$/gm)].map((m) => m[1]);
    expect(names.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    expect(names.at(-1)).toBe('response.completed');
    expect(names.filter((name) => name === 'response.output_text.delta').length).toBeGreaterThan(1);
  });

  it('refuses bad fields with a 400 naming the field', async () => {
    for (const [patch, param] of [[{ previous_response_id: '' }, 'previous_response_id'], [{ max_output_tokens: 0 }, 'max_output_tokens']] as const) {
      const response = await post({ model: 'svc/auto', input: 'hi', ...patch });
      expect(response.status).toBe(400);
      expect(response.headers.get('x-error-id')).toMatch(/^err_/);
      expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', param } });
    }
  });

  it('needs a key', async () => {
    expect((await post({ model: 'svc/auto', input: 'hi' }, {})).status).toBe(401);
  });
});
