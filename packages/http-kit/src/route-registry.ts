import { requireAdmin, requireScope } from '@svc/auth';
import { type Caller, GatewayError } from '@svc/core';
import {
  type ErrorFormat,
  type OpenApiBuild,
  type OpenApiOptions,
  type RouteDeprecation,
  type RouteDescriptor,
  type SessionAssurance,
  buildOpenApiDocument,
  deprecationHeaders,
} from '@svc/openapi';
import type { Context, Env, Handler, Hono, MiddlewareHandler } from 'hono';
import { setResponseHeader } from './plain-answer.js';

export interface RouteRegistryOptions<E extends Env> {
  /** Resolves the caller of a request (401 when there is none) and keeps it on the context. */
  authenticate(c: Context<E>): Promise<Caller>;
  /** Middleware re-encoding the errors of routes that declare another `errorFormat`; it runs first. */
  errorFormats?: Partial<Record<Exclude<ErrorFormat, 'openai'>, MiddlewareHandler<E>>>;
  /**
   * The middleware of routes that declare `session` auth (dashboard sessions, with CSRF on
   * state-changing cookie requests); an app without it refuses such routes at start.
   */
  session?: (aal: SessionAssurance) => MiddlewareHandler<E>;
  /** Title, version and credentials of the app's OpenAPI document. */
  openapi: OpenApiOptions;
}

/** Part of an app mounted outside its API description (see {@link RouteRegistry.mountOutsideApi}). */
export interface OutsideApiMount {
  readonly prefix: string;
  readonly reason: string;
}

/** What registers one operation: the registry itself, or a view of it with middleware around each operation. */
export interface RouteAdder<E extends Env> {
  add(route: RouteDescriptor, ...handlers: RouteHandlers<E>): void;
}

const registries = new WeakMap<object, RouteRegistry<Env>>();

/** Route-specific middleware (optional) and the handler, as Hono takes them. */
export type RouteHandlers<E extends Env> = [...MiddlewareHandler<E>[], Handler<E>];

/** `{id}` -> `:id`, or `:id{.+}` for a parameter that may hold `/`. */
function honoPath(route: RouteDescriptor): string {
  return route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => (route.greedyParams?.includes(name) ? `:${name}{.+}` : `:${name}`));
}

/**
 * The deprecation headers, computed once at registration, set on whatever the operation answers
 * (errors included); the response itself is untouched (spec document 1 §Versioning 8).
 */
function deprecated<E extends Env>(deprecation: RouteDeprecation): MiddlewareHandler<E> {
  const headers = Object.entries(deprecationHeaders(deprecation));
  return async (c, next) => {
    await next();
    for (const [name, value] of headers) setResponseHeader(c, name, value);
  };
}

/** Hono answers HEAD with the GET route: a HEAD-only operation refuses a real GET. */
function headOnly<E extends Env>(path: string): MiddlewareHandler<E> {
  return async (c, next) => {
    if (c.req.method !== 'HEAD') {
      throw new GatewayError({ status: 405, type: 'invalid_request_error', code: 'method_not_allowed', message: `${c.req.method} is not allowed on ${path}.` });
    }
    await next();
  };
}

/**
 * The one way routes are added to an app: each {@link RouteDescriptor} is registered on Hono with
 * the auth it declares, the deprecation headers when deprecated, then its handlers, and it is
 * what the app's `GET /openapi.json` describes, so the two cannot drift apart. Routes without
 * deprecation or auth get no middleware at all; an authenticated route gets one (the caller is
 * resolved and its scope or role checked in the same step).
 */
export class RouteRegistry<E extends Env> implements RouteAdder<E> {
  readonly #app: Hono<E>;
  readonly #options: RouteRegistryOptions<E>;
  readonly #routes: RouteDescriptor[] = [];
  readonly #keys = new Set<string>();
  readonly #outside: OutsideApiMount[] = [];
  #document: { build: OpenApiBuild; json: string } | undefined;

  constructor(app: Hono<E>, options: RouteRegistryOptions<E>) {
    this.#app = app;
    this.#options = options;
    registries.set(app, this as unknown as RouteRegistry<Env>);
  }

  /** The registry routes were added to `app` with (tests read its outside-the-API mounts). */
  static of<E extends Env>(app: Hono<E>): RouteRegistry<E> | undefined {
    return registries.get(app) as RouteRegistry<E> | undefined;
  }

  /** Registers `route` with `handlers`. Throws at start on a second route with the same method and path, or operationId. */
  add(route: RouteDescriptor, ...handlers: RouteHandlers<E>): void {
    this.#add(route, [], handlers);
  }

  /**
   * A view of the registry whose operations run `outer` around everything else, auth and the
   * error envelope included: for what must also see an auth failure (a header every answer of
   * those operations carries). Other operations are untouched.
   */
  around(...outer: MiddlewareHandler<E>[]): RouteAdder<E> {
    return { add: (route, ...handlers) => this.#add(route, outer, handlers) };
  }

  /**
   * Mounts `pages` (a Hono app of its own) at `prefix`, deliberately outside the API
   * description: for browser pages (HTML and form posts, redirects to sign in) that are not API
   * operations. Each app's route-table test leaves exactly these prefixes out, refuses an API
   * path (`/v1/...`) here, and requires the reason. Their auth is their own middleware's.
   */
  mountOutsideApi(prefix: string, pages: Hono<E>, reason: string): void {
    if (prefix === '/' || prefix === '/v1' || prefix.startsWith('/v1/')) throw new Error(`${prefix}: API paths are always described; register them with add().`);
    this.#app.route(prefix, pages);
    this.#outside.push({ prefix, reason });
  }

  /** What {@link mountOutsideApi} mounted, in order. */
  get outsideApi(): readonly OutsideApiMount[] {
    return this.#outside;
  }

  #add(route: RouteDescriptor, outer: readonly MiddlewareHandler<E>[], handlers: RouteHandlers<E>): void {
    const key = `${route.method.toUpperCase()} ${route.path}`;
    for (const unique of [key, route.operationId]) {
      if (this.#keys.has(unique)) throw new Error(`${key}: '${unique}' is registered twice.`);
    }
    const chain: MiddlewareHandler<E>[] = [...outer];
    const format = route.errorFormat ?? 'openai';
    if (format !== 'openai') {
      const encode = this.#options.errorFormats?.[format];
      if (!encode) throw new Error(`${key}: this app has no '${format}' error format.`);
      chain.push(encode);
    }
    if (route.deprecation) chain.push(deprecated(route.deprecation));
    const auth = this.#auth(route);
    if (auth) chain.push(auth);
    if (route.method === 'head') chain.push(headOnly(route.path));
    const [first, ...rest]: Handler<E>[] = [...chain, ...handlers];
    this.#app.on(route.method === 'head' ? 'GET' : route.method.toUpperCase(), honoPath(route), first!, ...rest);
    this.#keys.add(key).add(route.operationId);
    this.#routes.push(route);
    this.#document = undefined;
  }

  /** Every registered operation, in registration order. */
  get routes(): readonly RouteDescriptor[] {
    return this.#routes;
  }

  /** The OpenAPI 3.1 document of the routes (built once per set of routes) and its JSON text. */
  openapi(): { build: OpenApiBuild; json: string } {
    if (!this.#document) {
      const build = buildOpenApiDocument(this.#routes, this.#options.openapi);
      this.#document = { build, json: JSON.stringify(build.document) };
    }
    return this.#document;
  }

  #auth(route: RouteDescriptor): MiddlewareHandler<E> | undefined {
    const auth = route.auth;
    const authenticate = this.#options.authenticate;
    if (auth.kind === 'public') return undefined;
    if (auth.kind === 'session') {
      const session = this.#options.session;
      if (!session) throw new Error(`${route.method.toUpperCase()} ${route.path}: this app has no session auth.`);
      return session(auth.aal);
    }
    if (auth.kind === 'admin') {
      return async (c, next) => {
        requireAdmin(await authenticate(c));
        await next();
      };
    }
    const scope = auth.scope;
    if (!scope) {
      return async (c, next) => {
        await authenticate(c);
        await next();
      };
    }
    return async (c, next) => {
      requireScope(await authenticate(c), scope);
      await next();
    };
  }
}
