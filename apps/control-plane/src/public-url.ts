import type { Context, Hono } from 'hono';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv } from './env.js';

/** The base the discovery documents name: `SVC_CONTROL_PUBLIC_URL`, else this request's origin. */
export function publicBaseUrl(c: Context<ControlEnv>, deps: Pick<ControlPlaneDeps, 'publicUrl'>): string {
  return deps.publicUrl ?? new URL(c.req.url).origin;
}

/**
 * Serves a public, cacheable discovery document at `/.well-known/<name>` and, when the public URL
 * has a path (`https://example.com/cp`), also where RFC 8414 §3.1 / RFC 9728 §3.1 put it:
 * `/.well-known/<name>/cp` (what a reverse proxy forwards from the origin). Any other suffix is 404.
 */
export function registerWellKnown(app: Hono<ControlEnv>, deps: Pick<ControlPlaneDeps, 'publicUrl'>, name: string, document: (base: string) => Record<string, unknown>): void {
  const serve = (c: Context<ControlEnv>) => {
    const base = publicBaseUrl(c, deps);
    const suffix = c.req.path.slice(`/.well-known/${name}`.length).replace(/\/+$/, '');
    if (suffix !== '' && suffix !== new URL(base).pathname.replace(/\/+$/, '')) return c.notFound();
    c.header('cache-control', 'public, max-age=3600');
    // Browser-based clients discover before they hold a credential.
    c.header('access-control-allow-origin', '*');
    // Without a configured URL the document depends on the Host it was asked for.
    if (deps.publicUrl === undefined) c.header('vary', 'Host');
    return c.json(document(base));
  };
  app.get(`/.well-known/${name}`, serve);
  app.get(`/.well-known/${name}/*`, serve);
}
