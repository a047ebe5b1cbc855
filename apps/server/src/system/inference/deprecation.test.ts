import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type OpenApiDocument, bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { openApiProblems } from '@svc/openapi/test';
import { issueToError } from '@svc/protocol';
import type { Context } from 'hono';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { readJson } from '@svc/http-kit';
import type { AppEnv } from '@svc/inference';
import { useTestApp } from './test-app.js';

// One operation, registered only here, and the deprecated copy of it that names it as successor.
const echoBody = v.object({ text: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty')) });

const echoRoute = defineRoute({
  method: 'post',
  path: '/v1/test/echo',
  operationId: 'testEcho',
  summary: 'Echo (test only)',
  tags: ['Test'],
  auth: bearer('inference:chat'),
  body: { schema: echoBody },
  responses: { 200: jsonResponse('The text and the caller organisation.') },
  errors: [400],
});

const legacyEchoRoute = defineRoute({
  ...echoRoute,
  path: '/v1/test/legacy-echo',
  operationId: 'testLegacyEcho',
  summary: 'Echo, the old path (test only)',
  deprecation: {
    deprecatedAt: '2026-01-15',
    sunsetAt: '2026-07-01T00:00:00Z',
    migrationUrl: 'https://docs.svc.example/migrations/legacy-echo',
    successor: { method: 'post', path: '/v1/test/echo' },
  },
});

async function echo(c: Context<AppEnv>) {
  const parsed = v.safeParse(echoBody, await readJson(c, 1024), { abortEarly: true });
  if (!parsed.success) throw issueToError(parsed.issues[0]);
  return c.json({ text: parsed.output.text, org_id: c.get('caller').org.id }, 200, { 'x-echo': 'yes' });
}

const master = 'sk-svc-deprecation-test-master-I78vLVMl25e4FxeNSSabUFOI';
const t = useTestApp(master, {}, {
  extraRoutes: (routes) => {
    routes.add(echoRoute, echo);
    routes.add(legacyEchoRoute, echo);
  },
});

const imfFixdate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const deprecationHeaders = ['deprecation', 'sunset', 'link'];

/** `Link` values by relation (RFC 8288: `<uri>; rel="..."`, comma-separated). */
function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of (header ?? '').matchAll(/<([^>]*)>\s*;\s*rel="([^"]+)"/g)) out[match[2]!] = match[1]!;
  return out;
}

/** Headers whose value is new on every request: compared by presence only. */
const perRequest = new Set(['x-request-id', 'x-svc-request-id', 'x-error-id']);

/** What a client sees of a response, without the deprecation headers. */
async function seen(response: Response) {
  const headers = [...response.headers.entries()]
    .filter(([name]) => !deprecationHeaders.includes(name))
    .map(([name, value]) => [name, perRequest.has(name) ? '(per request)' : value]);
  return { status: response.status, headers, body: await response.text() };
}

describe('a deprecated operation (spec document 1 §Versioning)', () => {
  it('sends Deprecation and Sunset as HTTP-dates and Link with the migration note and the successor', async () => {
    const response = await t.post('/v1/test/legacy-echo', { text: 'hi' });
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toMatch(imfFixdate);
    expect(response.headers.get('deprecation')).toBe('Thu, 15 Jan 2026 00:00:00 GMT');
    expect(response.headers.get('sunset')).toMatch(imfFixdate);
    expect(response.headers.get('sunset')).toBe('Wed, 01 Jul 2026 00:00:00 GMT');
    expect(links(response.headers.get('link'))).toEqual({
      deprecation: 'https://docs.svc.example/migrations/legacy-echo',
      'successor-version': '/v1/test/echo',
    });
  });

  it('behaves exactly like its successor: same status, headers and body, errors included', async () => {
    const bodies: unknown[] = [{ text: 'same answer' }, { text: '' }, { nothing: true }];
    for (const body of bodies) {
      const [legacy, current] = await Promise.all([t.post('/v1/test/legacy-echo', body), t.post('/v1/test/echo', body)]);
      expect(await seen(legacy)).toEqual(await seen(current));
      expect(legacy.headers.get('deprecation')).toBeTruthy();
      expect(current.headers.get('deprecation')).toBeNull();
    }
    // Auth failures are answered the same way, and still say the operation is deprecated.
    const refused = await t.app.request('/v1/test/legacy-echo', { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-error-id')).toBeTruthy();
    expect(links(refused.headers.get('link'))['successor-version']).toBe('/v1/test/echo');
  });

  it('leaves every other operation without deprecation headers', async () => {
    const models = await t.app.request('/v1/models', { headers: { authorization: `Bearer ${master}` } });
    expect(models.status).toBe(200);
    for (const name of deprecationHeaders) expect(models.headers.get(name)).toBeNull();
  });

  it('is marked deprecated in /openapi.json with its replacement named in the description', async () => {
    const document = (await (await t.app.request('/openapi.json')).json()) as OpenApiDocument;
    const legacy = document.paths['/v1/test/legacy-echo']?.post;
    expect(legacy?.deprecated).toBe(true);
    expect(legacy?.description).toContain('use `POST /v1/test/echo` instead');
    expect(legacy?.description).toContain('https://docs.svc.example/migrations/legacy-echo');
    expect(legacy?.['x-svc-deprecation']).toEqual({
      deprecated_at: '2026-01-15T00:00:00.000Z',
      sunset_at: '2026-07-01T00:00:00.000Z',
      migration_url: 'https://docs.svc.example/migrations/legacy-echo',
      successor: 'POST /v1/test/echo',
    });
    expect(document.paths['/v1/test/echo']?.post?.deprecated).toBeUndefined();
    expect(await openApiProblems(document)).toEqual([]);
  });

  it('keeps its headers on the wire through @hono/node-server', async () => {
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const started = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/v1/test/legacy-echo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'over the wire' }),
      });
      expect(await response.json()).toMatchObject({ text: 'over the wire' });
      expect(response.headers.get('sunset')).toBe('Wed, 01 Jul 2026 00:00:00 GMT');
      expect(Object.keys(links(response.headers.get('link')))).toEqual(['deprecation', 'successor-version']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
