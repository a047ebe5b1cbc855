import { createLogger } from '@svc/telemetry';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { notFoundHandler, onError } from './errors.js';
import { readJson } from './read-body.js';

/** An app whose one route echoes the JSON body it read, with the kit's error mapper. */
function echoApp(rules?: Parameters<typeof readJson>[2]) {
  const app = new Hono();
  app.onError(onError(createLogger({ level: 'silent' })));
  app.notFound(notFoundHandler);
  app.post('/echo', async (c) => c.json({ body: await readJson(c, 64, rules) }));
  return app;
}

const post = (app: Hono, body: string) => app.request('/echo', { method: 'POST', body, headers: { 'content-type': 'application/json' } });

async function errorOf(response: Response) {
  const { error } = (await response.json()) as { error: { code: string; param: string | null } };
  return { status: response.status, code: error.code, param: error.param, errorId: response.headers.get('x-error-id') !== null };
}

describe('readJson', () => {
  it('returns the parsed body', async () => {
    const response = await post(echoApp(), '{"a":[1,2]}');
    expect(await response.json()).toEqual({ body: { a: [1, 2] } });
  });

  it('is a 400 invalid_json for an empty or malformed body, with the spec error shape', async () => {
    expect(await errorOf(await post(echoApp(), ''))).toEqual({ status: 400, code: 'invalid_json', param: null, errorId: true });
    expect(await errorOf(await post(echoApp(), '{"a":'))).toEqual({ status: 400, code: 'invalid_json', param: null, errorId: true });
  });

  it('is a 413 past the byte limit', async () => {
    expect((await post(echoApp(), JSON.stringify({ text: 'x'.repeat(100) }))).status).toBe(413);
  });

  it('applies the shape rules: NUL by rule, nesting depth', async () => {
    expect(await errorOf(await post(echoApp({ forbidNul: true }), '{"a":"\\u0000"}'))).toMatchObject({ status: 400, code: 'invalid_string', param: 'a' });
    expect((await post(echoApp(), '{"a":"\\u0000"}')).status).toBe(200);
    expect((await post(echoApp({ maxDepth: 2 }), '[[[1]]]')).status).toBe(400);
  });
});

describe('notFoundHandler', () => {
  it('answers 404 in the spec error shape', async () => {
    const response = await echoApp().request('/nowhere');
    expect(await errorOf(response)).toMatchObject({ status: 404, errorId: true });
  });
});
