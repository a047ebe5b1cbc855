import { type Caller, GatewayError } from '@svc/core';
import { type RouteDescriptor, bearer, defineRoute, jsonResponse, session } from '@svc/openapi';
import { createLogger } from '@svc/telemetry';
import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { notFoundHandler, onError } from './errors.js';
import { RouteRegistry, type RouteRegistryOptions } from './route-registry.js';

/** An app's context variables, as the apps declare theirs. */
interface AppEnv {
  Variables: { requestId: string; caller: Caller };
}

const noKey = () => new GatewayError({ status: 401, type: 'authentication_error', code: 'missing_api_key', message: 'No key.' });

/** A bare app whose "authentication" refuses every request, to see what runs around it. */
function bareApp(options: Partial<RouteRegistryOptions<AppEnv>> = {}) {
  const app = new Hono<AppEnv>();
  app.onError(onError(createLogger({ level: 'silent' })));
  app.notFound(notFoundHandler);
  const routes = new RouteRegistry(app, {
    authenticate: () => Promise.reject(noKey()),
    openapi: { title: 'test', version: '1' },
    ...options,
  });
  return { app, routes };
}

const route = (path: string, operationId: string, auth: RouteDescriptor['auth'] = bearer()): RouteDescriptor =>
  defineRoute({ method: 'get', path, operationId, summary: operationId, tags: ['Test'], auth, responses: { 200: jsonResponse('ok') } });

const stamp: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.res.headers.set('x-stamped', 'yes');
};

describe('RouteRegistry', () => {
  it('runs middleware given to around() outside the auth of those operations only', async () => {
    const { app, routes } = bareApp();
    routes.around(stamp).add(route('/v1/wrapped', 'wrapped'), (c) => c.text('never'));
    routes.add(route('/v1/plain', 'plain'), (c) => c.text('never'));
    const wrapped = await app.request('/v1/wrapped');
    expect(wrapped.status).toBe(401);
    expect(wrapped.headers.get('x-stamped')).toBe('yes');
    const plain = await app.request('/v1/plain');
    expect(plain.status).toBe(401);
    expect(plain.headers.get('x-stamped')).toBeNull();
    expect(routes.routes.map((r) => r.operationId)).toEqual(['wrapped', 'plain']);
  });

  it('applies the session auth the app provides, with the declared assurance, and refuses session routes without one', async () => {
    const seen: string[] = [];
    const { app, routes } = bareApp({
      session: (aal) => async (c, next) => {
        seen.push(aal);
        if (c.req.header('cookie') !== 'session=ok') throw new GatewayError({ status: 401, type: 'authentication_error', code: 'session_required', message: 'Sign in.' });
        await next();
      },
    });
    routes.add(route('/v1/auth/mine', 'mine', session('any')), (c) => c.text('mine'));
    expect((await app.request('/v1/auth/mine')).status).toBe(401);
    const signedIn = await app.request('/v1/auth/mine', { headers: { cookie: 'session=ok' } });
    expect(await signedIn.text()).toBe('mine');
    expect(seen).toEqual(['any', 'any']);
    expect(() => bareApp().routes.add(route('/v1/auth/x', 'x', session()), (c) => c.text('x'))).toThrow(/no session auth/);
  });

  it('mounts pages outside the API description, never an API path, and says so', async () => {
    const { app, routes } = bareApp();
    const pages = new Hono<AppEnv>();
    pages.get('/', (c) => c.html('<p>hi</p>'));
    routes.mountOutsideApi('/pages', pages, 'HTML pages for browsers, not API operations.');
    expect(await (await app.request('/pages')).text()).toBe('<p>hi</p>');
    expect(routes.outsideApi).toEqual([{ prefix: '/pages', reason: 'HTML pages for browsers, not API operations.' }]);
    expect(routes.openapi().build.document.paths).toEqual({});
    expect(() => routes.mountOutsideApi('/v1/things', new Hono<AppEnv>(), 'An API hidden from its description.')).toThrow(/always described/);
    expect(RouteRegistry.of(app)).toBe(routes);
  });
});
