import type { DashboardSession, DashboardUserRecord, PasskeyRecord } from '@svc/auth';
import * as v from 'valibot';

const b64url = v.pipe(v.string(), v.maxLength(65_536, 'too long'), v.regex(/^[A-Za-z0-9_-]*={0,2}$/, 'must be base64url'));
const common = {
  id: b64url,
  rawId: b64url,
  type: v.literal('public-key', "must be 'public-key'"),
  clientExtensionResults: v.optional(v.record(v.string(), v.unknown()), {}),
  authenticatorAttachment: v.optional(v.picklist(['platform', 'cross-platform'])),
};

/** `{response}`: what `navigator.credentials.get()` returned, as JSON (`PublicKeyCredential.toJSON()` / @simplewebauthn/browser). */
export const loginCompleteSchema = v.object({
  response: v.object({
    ...common,
    response: v.object({ clientDataJSON: b64url, authenticatorData: b64url, signature: b64url, userHandle: v.optional(b64url) }),
  }),
});

/** `{response, name?}`: what `navigator.credentials.create()` returned, and a label for the passkey. */
export const registrationCompleteSchema = v.object({
  name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64, 'at most 64 characters')), ''),
  response: v.object({
    ...common,
    response: v.object({
      clientDataJSON: b64url,
      attestationObject: b64url,
      authenticatorData: v.optional(b64url),
      transports: v.optional(v.array(v.pipe(v.string(), v.maxLength(32))), []),
      publicKeyAlgorithm: v.optional(v.number()),
      publicKey: v.optional(b64url),
    }),
  }),
});

export const loginBeginSchema = v.object({ email: v.pipe(v.string('is required'), v.trim(), v.minLength(3, 'must be an e-mail address'), v.maxLength(254, 'at most 254 characters'), v.email('must be an e-mail address')) });

/** Only non-sensitive metadata: never the credential id or the public key. */
export function passkeyToWire(passkey: PasskeyRecord) {
  return {
    id: passkey.id,
    object: 'passkey',
    name: passkey.name,
    transports: passkey.transports,
    created_at: passkey.createdAt.toISOString(),
    last_used_at: passkey.lastUsedAt?.toISOString() ?? null,
  };
}

export function dashboardUserToWire(user: DashboardUserRecord) {
  return {
    id: user.id,
    object: 'dashboard_user',
    email: user.email,
    org_id: user.orgId,
    role: user.role,
    created_at: user.createdAt.toISOString(),
    last_login_at: user.lastLoginAt?.toISOString() ?? null,
    enrollment_expires_at: user.enrollmentExpiresAt?.toISOString() ?? null,
    disabled_at: user.disabledAt?.toISOString() ?? null,
  };
}

/** `LoginCompleteResponse` (and `GET /v1/auth/session`): the session without its token. */
export function sessionToWire(session: DashboardSession, user: DashboardUserRecord) {
  return {
    object: 'session',
    aal: session.aal,
    method: session.method,
    created_at: new Date(session.createdAt).toISOString(),
    expires_at: new Date(session.expiresAt).toISOString(),
    csrf_token: session.csrfToken,
    user: dashboardUserToWire(user),
  };
}
