import { scopes } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { type WellKnownDocument, registerWellKnown } from '../public-url.js';

/** The grant of the dashboard's passkey login: a WebAuthn assertion (after `login/begin`) posted to the token endpoint for a session. An extension grant (RFC 6749 §4.5), named by URI. */
export const passkeyGrantType = 'urn:svc:params:oauth:grant-type:passkey';

/**
 * Authorization server metadata (RFC 8414). What the gateway supports: Bearer API keys (issued by
 * the admin API, never by an OAuth flow) and the dashboard's passkey login, whose completion is
 * the token endpoint. No authorization endpoint and no response type (no authorization-code or
 * implicit flow); no `jwks_uri`, since the gateway signs nothing and its key set is empty.
 * `grant_types_supported` and `token_endpoint_auth_methods_supported` are stated because their
 * RFC defaults (`authorization_code`/`implicit`, `client_secret_basic`) would be false.
 */
export function authorizationServerMetadata(base: string): Record<string, unknown> {
  return {
    issuer: base,
    token_endpoint: `${base}/v1/auth/login/complete`,
    token_endpoint_auth_methods_supported: ['none'],
    grant_types_supported: [passkeyGrantType],
    response_types_supported: [],
    scopes_supported: [...scopes],
    svc_login_begin_endpoint: `${base}/v1/auth/login/begin`,
    svc_credentials_supported: ['api_key', 'passkey_session'],
  };
}

const authorizationServerMetadataDocument: WellKnownDocument = {
  name: 'oauth-authorization-server',
  operationId: 'getAuthorizationServerMetadata',
  summary: 'Authorization server metadata (RFC 8414)',
  build: authorizationServerMetadata,
};

export function registerAuthorizationServerMetadata(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  registerWellKnown(routes, deps, authorizationServerMetadataDocument);
}
