import type { Scope } from '@svc/core';
import type * as v from 'valibot';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head';

/** Who may call an operation; the app's adapter enforces exactly this. */
export type RouteAuth =
  | { readonly kind: 'public' }
  /** A valid API key; with `scope`, one holding that scope (admin keys hold every scope). */
  | { readonly kind: 'bearer'; readonly scope?: Scope }
  /** An API key with the admin role. */
  | { readonly kind: 'admin' }
  /**
   * A dashboard session (passkey sign-in), never an API key: the session cookie or
   * `Authorization: Bearer <session token>`. `aal: 'any'` also takes an enrollment session
   * (AAL1), for registering a first passkey. State-changing requests that ride on the cookie
   * need the session's CSRF token (`x-csrf-token`) and a same-origin `Origin`.
   */
  | { readonly kind: 'session'; readonly aal: SessionAssurance };

/** `aal2`: a passkey sign-in; `any`: an enrollment session will do. */
export type SessionAssurance = 'aal2' | 'any';

export const publicAccess: RouteAuth = { kind: 'public' };
export const adminOnly: RouteAuth = { kind: 'admin' };
export const bearer = (scope?: Scope): RouteAuth => (scope ? { kind: 'bearer', scope } : { kind: 'bearer' });
/** A dashboard session, at AAL2 unless told (see {@link RouteAuth}). */
export const session = (aal: SessionAssurance = 'aal2'): RouteAuth => ({ kind: 'session', aal });

/** Methods that change state: with a session cookie they need the CSRF token. */
export const unsafeMethods: ReadonlySet<HttpMethod> = new Set(['post', 'put', 'patch', 'delete']);

/** An object schema (`v.object`, `v.looseObject`, ...): its entries are parameters or form fields. */
export type ObjectSchemaLike = v.GenericSchema & { readonly entries: v.ObjectEntries };

export interface RouteBody {
  /**
   * The valibot schema that validates the body: the decoder's own, so the description cannot
   * drift from what is enforced. For `multipart/form-data`, the schema of the form's parts.
   */
  readonly schema: v.GenericSchema;
  /** Default `application/json`. */
  readonly contentType?: 'application/json' | 'multipart/form-data';
  /** Name under `components.schemas` (OpenAI's own name where the operation is OpenAI's); inline when absent. */
  readonly name?: string;
  readonly description?: string;
}

export interface RouteResponse {
  readonly description: string;
  /** Media type -> the body's schema, or null where no valibot schema describes it. */
  readonly content?: Readonly<Record<string, v.GenericSchema | null>>;
  /** Response header name -> what it carries. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A JSON answer without a schema of its own (most answers are built by encoders, not valibot). */
export function jsonResponse(description: string, headers?: RouteResponse['headers']): RouteResponse {
  return { description, content: { 'application/json': null }, ...(headers ? { headers } : {}) };
}

/** Error statuses an operation documents (auth statuses are added from `auth`). */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413 | 422 | 426 | 429 | 500 | 502 | 503 | 504;

/** The error envelope: the spec's `{error: {...}}`, or Anthropic's `{type: "error", error, request_id}`. */
export type ErrorFormat = 'openai' | 'anthropic';

/**
 * A deprecated operation (spec document 1 §Versioning): it keeps behaving unchanged until
 * `sunsetAt`; only the `Deprecation`, `Sunset` and `Link` headers and its description change.
 */
export interface RouteDeprecation {
  /**
   * When the deprecation is announced (ISO-8601): the `Deprecation` header's HTTP-date. The
   * notice period counts from the day the header first appears, so set it to the release date.
   */
  readonly deprecatedAt: string;
  /**
   * The earliest time the operation may stop responding (ISO-8601): the `Sunset` header
   * (RFC 8594). At least 90 days after `deprecatedAt`, 30 for a `preview` operation.
   */
  readonly sunsetAt: string;
  /** Absolute URL of the migration note: `Link: <...>; rel="deprecation"`. */
  readonly migrationUrl: string;
  /**
   * The operation of this API that replaces this one, when the replacement is direct:
   * `Link: <path>; rel="successor-version"`, and named in the description. A concrete path.
   */
  readonly successor?: { readonly method: HttpMethod; readonly path: string };
  /** What to use instead when no single operation replaces this one; named in the description. */
  readonly replacement?: string;
  /** A beta or preview operation: 30 days of notice instead of 90. */
  readonly preview?: boolean;
}

/**
 * One HTTP operation, framework-free: what the app's adapter registers (path, auth, deprecation
 * headers) and what the OpenAPI document is generated from, so the two cannot disagree.
 */
export interface RouteDescriptor {
  readonly method: HttpMethod;
  /** OpenAPI path template: `/v1/models/{id}`. */
  readonly path: string;
  /** Stable and unique; OpenAI's own where the operation is OpenAI's (`createChatCompletion`). */
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly auth: RouteAuth;
  readonly body?: RouteBody;
  /** Schemas of path parameters by name; a template parameter without one is a string. */
  readonly params?: ObjectSchemaLike;
  /** Path parameters whose value may hold an unencoded `/` (matched to the end of the path). */
  readonly greedyParams?: readonly string[];
  /** Schema of the query parameters, the one the handler validates them with. */
  readonly query?: ObjectSchemaLike;
  /** Success responses by status. */
  readonly responses: Readonly<Record<number, RouteResponse>>;
  /** Error statuses besides the auth ones (401, 403), each in the shared error shape. */
  readonly errors?: readonly ErrorStatus[];
  /** Default `openai`. */
  readonly errorFormat?: ErrorFormat;
  readonly deprecation?: RouteDeprecation;
}
