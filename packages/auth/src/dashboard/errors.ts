import { GatewayError } from '@svc/core';

/** 401: no dashboard session, or one that expired or was signed out. */
export function sessionRequired(message = 'Sign in to the dashboard first: this needs a dashboard session (cookie or `Authorization: Bearer <session token>`).'): GatewayError {
  return new GatewayError({ status: 401, type: 'authentication_error', code: 'session_required', message });
}

/** 401: a WebAuthn ceremony that did not verify (signature, origin, RP id, counter, challenge). */
export function passkeyRejected(message: string): GatewayError {
  return new GatewayError({ status: 401, type: 'authentication_error', code: 'passkey_rejected', message });
}

/** 403: the session is at a lower assurance level than the action needs (an enrollment session). */
export function assuranceTooLow(): GatewayError {
  return new GatewayError({
    status: 403,
    type: 'authorization_error',
    code: 'insufficient_assurance',
    message: 'This needs a passkey sign-in (AAL2); an enrollment link only lets you register a passkey.',
  });
}

/** 403: a state-changing dashboard request without the session's CSRF token, or from another origin. */
export function csrfRejected(message = 'Missing or wrong CSRF token: reload the page and try again.'): GatewayError {
  return new GatewayError({ status: 403, type: 'authorization_error', code: 'csrf_failed', message });
}
