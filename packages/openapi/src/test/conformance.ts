import { type Scope, scopes } from '@svc/core';
import { expect, it } from 'vitest';
import type { OpenApiDocument, OpenApiOperation } from '../openapi-types.js';
import { type RegisteredRoute, documentedOperations, openApiProblems, servedOperations } from './validate.js';

/** What the suite needs of an app: Hono's route table and `request()`. */
export interface AppUnderTest {
  readonly routes: readonly RegisteredRoute[];
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

/** A part of the app that is deliberately not in its API description (HTML pages for browsers). */
export interface OutsideApiMount {
  /** Every route at or under this path is left out (`/dashboard`). */
  readonly prefix: string;
  /** Why it is not an API operation; said in the registry and docs. */
  readonly reason: string;
}

export interface OpenApiConformanceOptions {
  /** The app, once the file's `beforeAll` has built it. */
  app(): AppUnderTest;
  /** A key of a fresh organisation holding only `scopes`. */
  keyWith(scopes: Scope[]): Promise<string>;
  /** The app's route registry: what it mounted outside the API description, and its document build. */
  registry(): RegistryUnderTest;
}

/** What the suite reads of the app's route registry. */
export interface RegistryUnderTest {
  readonly outsideApi: readonly OutsideApiMount[];
  openapi(): { build: { problems: readonly string[] } };
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
const pathOf = (operation: string) => operation.slice(operation.indexOf(' ') + 1);

async function fetchDocument(app: AppUnderTest): Promise<OpenApiDocument> {
  const response = await app.request('/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as OpenApiDocument;
}

function operations(document: OpenApiDocument): [string, string, OpenApiOperation][] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]): [string, string, OpenApiOperation] => [method, path, operation]));
}

/** A request for an operation: its path with every parameter filled, an empty JSON body where one is taken. */
function call(app: AppUnderTest, method: string, path: string, operation: OpenApiOperation, key?: string): Promise<Response> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const init: RequestInit = { method: method.toUpperCase(), headers };
  if (operation.requestBody?.content['application/json']) {
    headers['content-type'] = 'application/json';
    init.body = '{}';
  }
  return Promise.resolve(app.request(path.replace(/\{[^}]+\}/g, 'conformance-test'), init));
}

/** The scope or role an operation's security requirement names, `null` for any valid key or a session, `undefined` when public. */
function required(operation: OpenApiOperation): string | null | undefined {
  const first = operation.security[0];
  if (!first) return undefined;
  return Object.values(first)[0]?.[0] ?? null;
}

/** Whether the operation takes a dashboard session (never an API key). */
const takesSession = (operation: OpenApiOperation) => operation.security.some((requirement) => 'sessionCookie' in requirement);

/**
 * The checks every app's description must pass: it is served publicly and is valid OpenAPI
 * 3.1; it lists exactly the routes the app serves; and each operation's declared auth is what
 * the app enforces (no key: 401; a key without the declared scope or role: 403; public: neither;
 * a session operation refuses an API key with 401). Parts mounted outside the description must
 * not be API paths (`/v1/...`) and must say why.
 */
export function runOpenApiConformance(options: OpenApiConformanceOptions): void {
  it('serves a valid OpenAPI 3.1 description at /openapi.json, without a key', async () => {
    const document = await fetchDocument(options.app());
    expect(document.openapi).toBe('3.1.0');
    expect(await openApiProblems(document)).toEqual([]);
  });

  it('converts every request schema without loss the converter could not handle', () => {
    expect(options.registry().openapi().build.problems).toEqual([]);
  });

  it('describes every route it serves and serves every operation it describes', async () => {
    const app = options.app();
    const document = await fetchDocument(app);
    const mounts = options.registry().outsideApi;
    const served = [...servedOperations(app.routes, document)];
    const documented = [...documentedOperations(document)];
    const outside = (operation: string) => mounts.some((mount) => under(pathOf(operation), mount.prefix));
    // A route added with app.get() & co. instead of the registry shows up here.
    expect(served.filter((operation) => !outside(operation)).sort()).toEqual(documented.sort());
    for (const mount of mounts) {
      // The API is always described: only non-API parts (pages) may be mounted outside it.
      expect(under(mount.prefix, '/v1') || mount.prefix === '/', `${mount.prefix} is outside the description`).toBe(false);
      expect(mount.reason.length, `${mount.prefix} says why it is not described`).toBeGreaterThan(20);
      expect(served.some((operation) => under(pathOf(operation), mount.prefix)), `${mount.prefix} serves routes`).toBe(true);
      expect(documented.filter((operation) => under(pathOf(operation), mount.prefix))).toEqual([]);
    }
  });

  it('enforces the auth each operation declares', async () => {
    const app = options.app();
    const document = await fetchDocument(app);
    const keys = new Map<string, string>();
    const keyWithout = async (needed: string) => {
      // Every scope but the needed one (and never admin): the narrowest key that must be refused.
      const held = scopes.filter((scope) => scope !== needed && scope !== 'admin');
      const known = keys.get(needed) ?? (await options.keyWith(held));
      keys.set(needed, known);
      return known;
    };
    for (const [method, path, operation] of operations(document)) {
      const where = `${method.toUpperCase()} ${path}`;
      const needed = required(operation);
      const anonymous = await call(app, method, path, operation);
      if (needed === undefined) {
        expect([401, 403], `${where} is public`).not.toContain(anonymous.status);
        continue;
      }
      expect(anonymous.status, `${where} without a key`).toBe(401);
      if (takesSession(operation)) {
        const key = await keyWithout('admin');
        expect((await call(app, method, path, operation, key)).status, `${where} with an API key instead of a session`).toBe(401);
        continue;
      }
      if (needed === null) continue;
      const refused = await call(app, method, path, operation, await keyWithout(needed));
      expect(refused.status, `${where} with a key lacking '${needed}'`).toBe(403);
    }
  });
}
