import { scopes } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { type WellKnownDocument, registerWellKnown } from '../public-url.js';

/**
 * Protected resource metadata (RFC 9728): the gateway's API is the resource, this control plane
 * its authorization server; an API key goes in the `Authorization: Bearer` header only;
 * `scopes_supported` is the list the gateway enforces, so a client learns what to ask for before
 * it holds a key.
 */
export function protectedResourceMetadata(base: string): Record<string, unknown> {
  return {
    resource: base,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    scopes_supported: [...scopes],
    resource_name: 'svc gateway',
  };
}

const protectedResourceMetadataDocument: WellKnownDocument = {
  name: 'oauth-protected-resource',
  operationId: 'getProtectedResourceMetadata',
  summary: 'Protected resource metadata (RFC 9728)',
  build: protectedResourceMetadata,
};

export function registerProtectedResourceMetadata(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  registerWellKnown(routes, deps, protectedResourceMetadataDocument);
}
