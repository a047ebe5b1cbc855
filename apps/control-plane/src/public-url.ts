import type { RouteRegistry } from '@svc/http-kit';
import { type RouteDescriptor, defineRoute, jsonResponse, publicAccess } from '@svc/openapi';
import type { Context } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv } from './env.js';

/** The base the discovery documents name: `SVC_CONTROL_PUBLIC_URL`, else this request's origin. */
export function publicBaseUrl(c: Context<ControlEnv>, deps: Pick<ControlPlaneDeps, 'publicUrl'>): string {
  return deps.publicUrl ?? new URL(c.req.url).origin;
}

/** What a discovery document's operations say about it. */
export interface WellKnownDocument {
  /** `oauth-authorization-server`: served at `/.well-known/<name>`. */
  name: string;
  /** The operation at the bare location; `<operationId>ForPath` at the path-suffixed one. */
  operationId: string;
  summary: string;
  /** The document for a public base URL. */
  build(base: string): Record<string, unknown>;
}

/** The two operations of a discovery document: the well-known location, and the one suffixed with the public URL's path. */
export function wellKnownRoutes(document: Pick<WellKnownDocument, 'name' | 'operationId' | 'summary'>): [RouteDescriptor, RouteDescriptor] {
  const common = {
    method: 'get',
    summary: document.summary,
    tags: ['Discovery'],
    auth: publicAccess,
    responses: { 200: jsonResponse('The metadata document; public and cacheable (`cache-control: public, max-age=3600`, `access-control-allow-origin: *`).') },
  } as const;
  const location = `/.well-known/${document.name}`;
  return [
    defineRoute({ ...common, path: location, operationId: document.operationId, description: 'The issuer is `SVC_CONTROL_PUBLIC_URL`, else the origin this request was made to.' }),
    defineRoute({
      ...common,
      path: `${location}/{path}`,
      operationId: `${document.operationId}ForPath`,
      description: `Where RFC 8414 §3.1 / RFC 9728 §3.1 put the document of an issuer with a path (\`https://example.com/cp\` -> \`${location}/cp\`), as a reverse proxy forwards it from the origin.`,
      params: v.object({ path: v.pipe(v.string(), v.description("The public URL's path, without its leading slash; any other is 404.")) }),
      greedyParams: ['path'],
      errors: [404],
    }),
  ];
}

/**
 * Serves a public, cacheable discovery document at `/.well-known/<name>` and, when the public URL
 * has a path (`https://example.com/cp`), also where RFC 8414 §3.1 / RFC 9728 §3.1 put it:
 * `/.well-known/<name>/cp` (what a reverse proxy forwards from the origin). Any other suffix is 404.
 */
export function registerWellKnown(routes: RouteRegistry<ControlEnv>, deps: Pick<ControlPlaneDeps, 'publicUrl'>, document: WellKnownDocument): void {
  const { name } = document;
  const serve = (c: Context<ControlEnv>) => {
    const base = publicBaseUrl(c, deps);
    const suffix = c.req.path.slice(`/.well-known/${name}`.length).replace(/\/+$/, '');
    if (suffix !== '' && suffix !== new URL(base).pathname.replace(/\/+$/, '')) return c.notFound();
    c.header('cache-control', 'public, max-age=3600');
    // Browser-based clients discover before they hold a credential.
    c.header('access-control-allow-origin', '*');
    // Without a configured URL the document depends on the Host it was asked for.
    if (deps.publicUrl === undefined) c.header('vary', 'Host');
    return c.json(document.build(base));
  };
  for (const route of wellKnownRoutes(document)) routes.add(route, serve);
}
