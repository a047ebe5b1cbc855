import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { errorResponseSchema } from './error-schemas.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { defineRoute } from './define-route.js';
import { adminOnly, bearer, publicAccess, session } from './route-descriptor.js';
import { documentedOperations, openApiProblems, schemaValidator, servedOperations } from './test/index.js';

const createThing = defineRoute({
  method: 'post',
  path: '/v1/things',
  operationId: 'createThing',
  summary: 'Create a thing',
  tags: ['Things'],
  auth: bearer('inference:chat'),
  body: { schema: v.object({ name: v.pipe(v.string(), v.minLength(1)), size: v.optional(v.pipe(v.number(), v.maxValue(10))) }), name: 'CreateThingRequest' },
  responses: { 200: { description: 'The thing.', content: { 'application/json': null }, headers: { 'x-thing-id': 'Its id.' } } },
  errors: [400, 429],
});

const legacyThing = defineRoute({
  method: 'post',
  path: '/v1/legacy-things',
  operationId: 'createLegacyThing',
  summary: 'Create a thing the old way',
  tags: ['Things'],
  auth: bearer('inference:chat'),
  responses: { 200: { description: 'The thing.' } },
  errorFormat: 'anthropic',
  deprecation: { deprecatedAt: '2026-03-01', sunsetAt: '2026-09-01', migrationUrl: 'https://docs.example.com/things', successor: { method: 'post', path: '/v1/things' } },
});

const getThing = defineRoute({
  method: 'get',
  path: '/v1/things/{slug}',
  operationId: 'getThing',
  summary: 'A thing',
  tags: ['Things'],
  auth: adminOnly,
  params: v.object({ slug: v.pipe(v.string(), v.description('The slug.')) }),
  greedyParams: ['slug'],
  query: v.object({ expand: v.optional(v.picklist(['all', 'none'])), limit: v.pipe(v.string(), v.regex(/^\d+$/)) }),
  responses: { 200: { description: 'The thing.' } },
});

const health = defineRoute({
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  summary: 'Liveness',
  tags: ['Operations'],
  auth: publicAccess,
  responses: { 200: { description: 'ok' } },
});

const { document, problems } = buildOpenApiDocument([createThing, legacyThing, getThing, health], {
  title: 'Test API',
  version: '1',
  apiKeyHeader: 'x-api-key',
  tags: { Things: 'All about things.' },
});

const deleteSessionThing = defineRoute({
  method: 'delete',
  path: '/v1/auth/things/{id}',
  operationId: 'deleteSessionThing',
  summary: 'Remove a thing of the signed-in user',
  tags: ['Auth'],
  auth: session(),
  responses: { 200: { description: 'Removed.' } },
});

const listSessionThings = defineRoute({
  method: 'get',
  path: '/v1/auth/things',
  operationId: 'listSessionThings',
  summary: "The signed-in user's things",
  tags: ['Auth'],
  auth: session('any'),
  responses: { 200: { description: 'The things.' } },
});

const upgrade = defineRoute({
  method: 'get',
  path: '/v1/socket',
  operationId: 'openSocket',
  summary: 'A WebSocket',
  tags: ['Things'],
  auth: bearer('inference:audio'),
  responses: { 101: { description: 'Switching Protocols: the WebSocket.' } },
  errors: [426],
});

describe('buildOpenApiDocument', () => {
  it('writes a valid OpenAPI 3.1 document', async () => {
    expect(problems).toEqual([]);
    expect(await openApiProblems(document)).toEqual([]);
    expect(document.tags).toEqual([{ name: 'Things', description: 'All about things.' }, { name: 'Operations' }]);
  });

  it('is checked by a validator that notices a broken document', async () => {
    const broken = structuredClone(document);
    delete broken.paths['/v1/things/{slug}']!.get!.parameters;
    broken.components.schemas.Error = { type: 'object', required: 'message' } as never;
    const found = (await openApiProblems(broken)).join('\n');
    expect(found).toMatch(/slug/);
    expect(found).toMatch(/components\.schemas\.Error/);
  });

  it('states the auth of each operation as security requirements with the scope or role', () => {
    expect(document.paths['/v1/things']?.post?.security).toEqual([{ bearerAuth: ['inference:chat'] }, { apiKeyAuth: ['inference:chat'] }]);
    expect(document.paths['/v1/things/{slug}']?.get?.security).toEqual([{ bearerAuth: ['admin'] }, { apiKeyAuth: ['admin'] }]);
    expect(document.paths['/health']?.get?.security).toEqual([]);
    expect(document.paths['/health']?.get?.responses).not.toHaveProperty('401');
  });

  it('names the body, keeps its limits, and refers every error to the shared Error schema with x-error-id', () => {
    const operation = document.paths['/v1/things']!.post!;
    expect(operation.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/CreateThingRequest' });
    expect(document.components.schemas.CreateThingRequest?.properties?.size).toEqual({ type: 'number', maximum: 10 });
    expect(Object.keys(operation.responses)).toEqual(['200', '400', '401', '403', '429', 'default']);
    expect(operation.responses['429']).toEqual({ $ref: '#/components/responses/Error429' });
    expect(document.components.responses.Error429?.headers).toEqual({ 'x-error-id': { $ref: '#/components/headers/XErrorId' }, 'retry-after': { $ref: '#/components/headers/RetryAfter' } });
    expect(document.components.schemas.ErrorResponse).toEqual({ type: 'object', properties: { error: { $ref: '#/components/schemas/Error' } }, required: ['error'] });
    const isError = schemaValidator(document, '#/components/schemas/ErrorResponse');
    expect(isError({ error: { message: 'm', type: 'invalid_request_error', code: 'validation_error', param: 'name' } })).toBe(true);
    expect(isError({ error: { message: 'm', type: 'made_up', code: null, param: null } })).toBe(false);
    expect(v.is(errorResponseSchema, { error: { message: 'm', type: 'invalid_request_error', code: null, param: null } })).toBe(true);
  });

  it('lists path and query parameters with their schemas and descriptions', () => {
    expect(document.paths['/v1/things/{slug}']?.get?.parameters).toEqual([
      { name: 'slug', in: 'path', required: true, description: 'The slug. May hold `/` (send it percent-encoded as %2F; an unencoded slash is accepted too).', schema: { type: 'string' } },
      { name: 'expand', in: 'query', required: false, schema: { type: 'string', enum: ['all', 'none'] } },
      { name: 'limit', in: 'query', required: true, schema: { type: 'string', pattern: '^\\d+$' } },
    ]);
  });

  it('marks a deprecated operation and names its replacement in the description', () => {
    const operation = document.paths['/v1/legacy-things']!.post!;
    expect(operation.deprecated).toBe(true);
    expect(operation.description).toMatch(/^\*\*Deprecated\*\* since 2026-03-01: use `POST \/v1\/things` instead/);
    expect(operation['x-svc-deprecation']).toEqual({
      deprecated_at: '2026-03-01T00:00:00.000Z',
      sunset_at: '2026-09-01T00:00:00.000Z',
      migration_url: 'https://docs.example.com/things',
      successor: 'POST /v1/things',
    });
    expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/AnthropicError401' });
    expect(document.paths['/v1/things']?.post).not.toHaveProperty('deprecated');
  });

  it('compares a router table with the document: a route added around the registry stands out', () => {
    const table = [
      { method: 'ALL', path: '*' },
      { method: 'POST', path: '/v1/things' },
      { method: 'POST', path: '/v1/things' },
      { method: 'POST', path: '/v1/legacy-things' },
      { method: 'GET', path: '/v1/things/:slug{.+}' },
      { method: 'GET', path: '/health' },
    ];
    expect(servedOperations(table, document)).toEqual(documentedOperations(document));
    const stray = servedOperations([...table, { method: 'DELETE', path: '/v1/things/:slug' }], document);
    expect([...stray].filter((operation) => !documentedOperations(document).has(operation))).toEqual(['delete /v1/things/{slug}']);
  });

  it('describes session operations: cookie or session token, never an API key, and the CSRF header on state changes', async () => {
    const built = buildOpenApiDocument([deleteSessionThing, listSessionThings, upgrade], { title: 't', version: '1', session: { cookieName: 'svc_session' } });
    expect(await openApiProblems(built.document)).toEqual([]);
    expect(built.document.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'svc_session' });
    expect(built.document.components.securitySchemes.sessionToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const remove = built.document.paths['/v1/auth/things/{id}']!.delete!;
    expect(remove.security).toEqual([{ sessionCookie: [] }, { sessionToken: [] }]);
    expect(remove.parameters).toContainEqual(expect.objectContaining({ name: 'x-csrf-token', in: 'header', required: false }));
    expect(Object.keys(remove.responses)).toEqual(['200', '401', '403', 'default']);
    expect(remove.description).toMatch(/AAL2.*API key is refused.*CSRF/s);
    const list = built.document.paths['/v1/auth/things']!.get!;
    expect(list.parameters).toBeUndefined();
    expect(list.description).toMatch(/enrollment session/);
    expect(Object.keys(built.document.paths['/v1/socket']!.get!.responses)).toEqual(['101', '401', '403', '426', 'default']);
    expect(() => buildOpenApiDocument([listSessionThings], { title: 't', version: '1' })).toThrow(/session auth needs/);
  });

  it('refuses two routes with the same method and path, or operationId', () => {
    expect(() => buildOpenApiDocument([health, health], { title: 't', version: '1' })).toThrow(/Two routes declare GET \/health/);
    expect(() => buildOpenApiDocument([health, { ...getThing, operationId: 'getHealth' }], { title: 't', version: '1' })).toThrow(/operationId getHealth/);
  });
});
