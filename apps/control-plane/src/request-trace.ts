import { AsyncLocalStorage } from 'node:async_hooks';
import { endRequestSpan, startRequestSpan } from '@svc/http-kit';
import type { TraceSpan, Tracing } from '@svc/telemetry';
import type { MiddlewareHandler } from 'hono';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv } from './env.js';

/** Probes and scrapes: called every few seconds by machines, not traced (as on the inference port). */
const quiet = new Set(['/health', '/ready', '/metrics']);

/** The span of the request being served: where a repository call starts its child. */
const requestSpan = new AsyncLocalStorage<TraceSpan>();

/**
 * One trace per control-plane request (admin, observability, dashboard), a child of the caller's
 * `traceparent`: a SERVER span named `METHOD /route/pattern`. Registered only when tracing is on.
 */
export function traceRequests(tracing: Tracing): MiddlewareHandler<ControlEnv> {
  return async (c, next) => {
    if (quiet.has(c.req.path)) return next();
    const span = startRequestSpan(tracing, c);
    try {
      await requestSpan.run(span, next);
    } finally {
      endRequestSpan(span, c);
    }
  };
}

type Method = (...args: unknown[]) => unknown;

/**
 * `repository` with every method call a CLIENT child span of the request's span (`db
 * <repository>.<method>`, `db.operation.name`), ended when its promise settles. Outside a traced
 * request a call goes straight through.
 */
function tracedRepository<T extends object>(name: string, repository: T): T {
  return new Proxy(repository, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      const method = value as Method;
      return (...args: unknown[]) => {
        const parent = requestSpan.getStore();
        if (!parent) return method.apply(target, args);
        const span = parent.child(`db ${name}.${key}`, 'client', { 'db.system.name': 'postgresql', 'db.operation.name': key, 'svc.db.repository': name });
        try {
          const result = method.apply(target, args);
          if (!(result instanceof Promise)) {
            span.end();
            return result;
          }
          return result.then(
            (settled: unknown) => {
              span.end();
              return settled;
            },
            (error: unknown) => {
              span.end(error);
              throw error;
            },
          );
        } catch (error) {
          span.end(error);
          throw error;
        }
      };
    },
  });
}

/** `store` whose repositories (its object properties) are {@link tracedRepository}, each wrapped once. */
function tracedStore<T extends object>(store: T): T {
  const wrapped = new Map<string, object>();
  return new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || typeof value !== 'object' || value === null) return value;
      let traced = wrapped.get(key);
      if (!traced) {
        traced = tracedRepository(key, value);
        wrapped.set(key, traced);
      }
      return traced;
    },
  });
}

/** `deps` with each repository of its relational store traced (tracing on), else `deps` itself. */
export function withTracedDb(deps: ControlPlaneDeps): ControlPlaneDeps {
  return deps.tracing.enabled ? { ...deps, db: tracedStore(deps.db) } : deps;
}
