import type { ErrorStatus } from '@svc/openapi';

/** Response headers every routed answer carries (docs/api.md "Response headers"). */
export const answerHeaders: Readonly<Record<string, string>> = {
  'x-request-id': 'The request id (also `x-svc-request-id`).',
  'x-svc-model': 'The model that answered (`provider/model`).',
  'x-svc-provider': 'The provider that answered.',
};

/** What a call to a provider can fail with besides auth: validation, budget, size, limits, upstream. */
export const callErrors: readonly ErrorStatus[] = [400, 402, 413, 429, 500, 502, 503, 504];

/** A chat-pipeline call adds tool governance: an unregistered tool (404), a blocked tool call (422). */
export const chatErrors: readonly ErrorStatus[] = [...callErrors, 404, 422];
