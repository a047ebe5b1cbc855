import type * as v from 'valibot';
import { deprecationNotice } from './deprecation.js';
import {
  anthropicErrorResponseSchema,
  errorComponentPrefix,
  errorObjectSchema,
  errorResponseSchema,
  errorStatusDescriptions,
} from './error-schemas.js';
import { type JsonSchema, SchemaConverter } from './json-schema.js';
import type { OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiReference, OpenApiResponse } from './openapi-types.js';
import { pathParamNames } from './define-route.js';
import { type ErrorFormat, type ErrorStatus, type ObjectSchemaLike, type RouteDescriptor, unsafeMethods } from './route-descriptor.js';

export interface OpenApiOptions {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  /** A header that also carries the key, besides `Authorization: Bearer` (`x-api-key` on the inference API). */
  readonly apiKeyHeader?: string;
  /** Tag name -> description. */
  readonly tags?: Readonly<Record<string, string>>;
  /** How dashboard sessions are presented; needed when a route declares `session` auth. */
  readonly session?: { readonly cookieName: string };
}

export interface OpenApiBuild {
  readonly document: OpenApiDocument;
  /** What the schema converter could not express; empty when every schema converted cleanly. */
  readonly problems: readonly string[];
}

const optionalTypes = new Set(['optional', 'exact_optional', 'nullish']);

const ref = (section: string, name: string): OpenApiReference => ({ $ref: `#/components/${section}/${name}` });

type ErrorResponder = (format: ErrorFormat, status: ErrorStatus | 'default') => OpenApiReference;

/** How callers authenticate: API keys always, the key header and dashboard sessions when the app has them. */
function securitySchemes(options: OpenApiOptions): OpenApiDocument['components']['securitySchemes'] {
  return {
    bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer <key>`.' },
    ...(options.apiKeyHeader
      ? { apiKeyAuth: { type: 'apiKey' as const, in: 'header' as const, name: options.apiKeyHeader, description: `An API key in \`${options.apiKeyHeader}\`.` } }
      : {}),
    ...(options.session
      ? {
          sessionCookie: {
            type: 'apiKey' as const,
            in: 'cookie' as const,
            name: options.session.cookieName,
            description: 'A dashboard session (passkey sign-in), set HttpOnly by `POST /v1/auth/login/complete`. State-changing requests need its CSRF token in `x-csrf-token`.',
          },
          sessionToken: {
            type: 'http' as const,
            scheme: 'bearer' as const,
            bearerFormat: 'dashboard session token',
            description: 'A dashboard session token as `Authorization: Bearer <token>` (no CSRF token needed). API keys are refused here.',
          },
        }
      : {}),
  };
}

/** The document before any operation: info, the shared error headers and the security schemes. */
function emptyDocument(options: OpenApiOptions, converter: SchemaConverter): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, ...(options.description ? { description: options.description } : {}) },
    tags: [],
    paths: {},
    components: {
      schemas: { Error: converter.convert(errorObjectSchema) },
      responses: {},
      headers: {
        XErrorId: { description: 'Identifies this error occurrence (quote it when reporting a problem).', required: true, schema: { type: 'string' } },
        RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
      },
      securitySchemes: securitySchemes(options),
    },
  };
}

/** The error response of a format and status, added to the components on first use. */
function errorResponder(document: OpenApiDocument, converter: SchemaConverter): ErrorResponder {
  const errorBodies: Record<ErrorFormat, () => JsonSchema> = {
    openai: () => converter.convert(errorResponseSchema, { Error: errorObjectSchema }),
    anthropic: () => converter.convert(anthropicErrorResponseSchema),
  };
  return (format, status) => {
    const prefix = errorComponentPrefix[format];
    const name = `${prefix}${status === 'default' ? 'Default' : status}`;
    const schemas = document.components.schemas;
    schemas[`${prefix}Response`] ??= errorBodies[format]();
    document.components.responses[name] ??= {
      description: status === 'default' ? 'Any other error, in the same shape.' : errorStatusDescriptions[status],
      headers: {
        'x-error-id': ref('headers', 'XErrorId'),
        ...(status === 429 || status === 503 ? { 'retry-after': ref('headers', 'RetryAfter') } : {}),
      },
      content: { 'application/json': { schema: ref('schemas', `${prefix}Response`) } },
    };
    return ref('responses', name);
  };
}

/** Adds the route's tags the document does not list yet, with their descriptions. */
function addTags(document: OpenApiDocument, route: RouteDescriptor, options: OpenApiOptions): void {
  for (const tag of route.tags) {
    if (!document.tags.some((known) => known.name === tag)) {
      const description = options.tags?.[tag];
      document.tags.push({ name: tag, ...(description ? { description } : {}) });
    }
  }
}

/** Builds the OpenAPI 3.1 document of an app's routes, in registration order. */
export function buildOpenApiDocument(routes: readonly RouteDescriptor[], options: OpenApiOptions): OpenApiBuild {
  const converter = new SchemaConverter();
  const document = emptyDocument(options, converter);
  const errorResponse = errorResponder(document, converter);
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method.toUpperCase()} ${route.path}`;
    if (seen.has(key) || seen.has(route.operationId)) throw new Error(`Two routes declare ${seen.has(key) ? key : `operationId ${route.operationId}`}.`);
    seen.add(key);
    seen.add(route.operationId);
    addTags(document, route, options);
    document.paths[route.path] = { ...document.paths[route.path], [route.method]: operation(route, converter, document, options, errorResponse) };
  }
  Object.assign(document.components.schemas, converter.definitions);
  return { document, problems: converter.problems };
}

function operation(
  route: RouteDescriptor,
  converter: SchemaConverter,
  document: OpenApiDocument,
  options: OpenApiOptions,
  errorResponse: ErrorResponder,
): OpenApiOperation {
  const description = [route.deprecation ? deprecationNotice(route.deprecation) : '', route.description ?? '', authSentence(route)].filter(Boolean).join('\n\n');
  const out: OpenApiOperation = {
    operationId: route.operationId,
    summary: route.summary,
    description,
    tags: [...route.tags],
    security: security(route, options),
    responses: {},
  };
  const parameters = [...pathParameters(route, converter), ...queryParameters(route.query, converter), ...sessionParameters(route)];
  if (parameters.length > 0) out.parameters = parameters;
  if (route.body) {
    let schema = converter.convert(route.body.schema);
    if (route.body.name) {
      document.components.schemas[route.body.name] = schema;
      schema = ref('schemas', route.body.name);
    }
    out.requestBody = {
      required: true,
      ...(route.body.description ? { description: route.body.description } : {}),
      content: { [route.body.contentType ?? 'application/json']: { schema } },
    };
  }
  for (const [status, response] of Object.entries(route.responses)) out.responses[status] = successResponse(response, converter);
  const format = route.errorFormat ?? 'openai';
  for (const status of errorStatuses(route)) out.responses[String(status)] = errorResponse(format, status);
  out.responses.default = errorResponse(format, 'default');
  if (route.deprecation) {
    const { deprecatedAt, sunsetAt, migrationUrl, successor } = route.deprecation;
    out.deprecated = true;
    out['x-svc-deprecation'] = {
      deprecated_at: new Date(deprecatedAt).toISOString(),
      sunset_at: new Date(sunsetAt).toISOString(),
      migration_url: migrationUrl,
      successor: successor ? `${successor.method.toUpperCase()} ${successor.path}` : null,
    };
  }
  return out;
}

function authSentence(route: RouteDescriptor): string {
  const auth = route.auth;
  if (auth.kind === 'public') return 'Public: no API key needed.';
  if (auth.kind === 'admin') return 'Needs an API key with the admin role.';
  if (auth.kind === 'session') {
    const who = auth.aal === 'any' ? 'a dashboard session (a passkey sign-in, or the enrollment session of an enrollment link)' : 'a dashboard session signed in with a passkey (AAL2)';
    const csrf = unsafeMethods.has(route.method) ? ' With the cookie, send the session\'s CSRF token in `x-csrf-token` from the dashboard\'s origin (403 otherwise).' : '';
    return `Needs ${who}: the session cookie or \`Authorization: Bearer <session token>\`; an API key is refused (401).${csrf}`;
  }
  return auth.scope ? `Needs an API key with scope \`${auth.scope}\` (admin keys hold every scope).` : 'Needs a valid API key.';
}

function security(route: RouteDescriptor, options: OpenApiOptions): Record<string, string[]>[] {
  const auth = route.auth;
  if (auth.kind === 'public') return [];
  if (auth.kind === 'session') {
    if (!options.session) throw new Error(`${route.method.toUpperCase()} ${route.path}: session auth needs the document's session options.`);
    return [{ sessionCookie: [] }, { sessionToken: [] }];
  }
  const roles = auth.kind === 'admin' ? ['admin'] : auth.scope ? [auth.scope] : [];
  return [{ bearerAuth: roles }, ...(options.apiKeyHeader ? [{ apiKeyAuth: roles }] : [])];
}

function errorStatuses(route: RouteDescriptor): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(route.errors ?? []);
  const auth = route.auth;
  if (auth.kind !== 'public') statuses.add(401);
  if (auth.kind === 'admin' || auth.kind === 'session' || (auth.kind === 'bearer' && auth.scope)) statuses.add(403);
  return [...statuses].sort((a, b) => a - b);
}

/** The CSRF token header of a state-changing session operation (required with the cookie only). */
function sessionParameters(route: RouteDescriptor): OpenApiParameter[] {
  if (route.auth.kind !== 'session' || !unsafeMethods.has(route.method)) return [];
  const description = "The session's CSRF token (`csrf_token` of the session): required when the session rides on the cookie, not with a bearer session token.";
  return [{ name: 'x-csrf-token', in: 'header', required: false, description, schema: { type: 'string' } }];
}

function successResponse(response: RouteDescriptor['responses'][number], converter: SchemaConverter): OpenApiResponse {
  const out: OpenApiResponse = { description: response.description };
  if (response.headers) {
    out.headers = Object.fromEntries(Object.entries(response.headers).map(([name, text]) => [name, { description: text, schema: { type: 'string' } }]));
  }
  if (response.content) {
    out.content = Object.fromEntries(
      Object.entries(response.content).map(([mediaType, schema]) => [mediaType, schema ? { schema: converter.convert(schema) } : {}]),
    );
  }
  return out;
}

/** A parameter from a schema: the schema's own description becomes the parameter's. */
function parameter(name: string, place: 'path' | 'query', schema: v.GenericSchema | undefined, converter: SchemaConverter): OpenApiParameter {
  const { description, ...json } = schema ? converter.convert(schema) : { type: 'string' as const };
  const required = place === 'path' || !schema || !optionalTypes.has(schema.type);
  return { name, in: place, required, ...(description ? { description } : {}), schema: json };
}

function pathParameters(route: RouteDescriptor, converter: SchemaConverter): OpenApiParameter[] {
  const entries = route.params?.entries ?? {};
  return pathParamNames(route.path).map((name) => {
    const param = parameter(name, 'path', entries[name], converter);
    if (route.greedyParams?.includes(name)) {
      param.description = `${param.description ? `${param.description} ` : ''}May hold \`/\` (send it percent-encoded as %2F; an unencoded slash is accepted too).`;
    }
    return param;
  });
}

function queryParameters(query: ObjectSchemaLike | undefined, converter: SchemaConverter): OpenApiParameter[] {
  return Object.entries(query?.entries ?? {}).map(([name, schema]) => parameter(name, 'query', schema, converter));
}
