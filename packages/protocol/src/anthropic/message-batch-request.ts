import * as v from 'valibot';

/** Most requests one Message Batch takes (Anthropic's limit). */
export const MAX_MESSAGE_BATCH_REQUESTS = 100_000;

const customIdMessage = 'must be 1 to 64 letters, digits, hyphens or underscores';

/** The body of `POST /v1/messages/batches`: requests with unique `custom_id`s and Messages bodies (`params`, validated when each runs). */
export const createMessageBatchSchema = v.object({
  requests: v.pipe(
    v.array(
      v.object({
        custom_id: v.pipe(v.string('must be a string'), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, customIdMessage)),
        params: v.record(v.string(), v.unknown(), 'must be a Messages request object'),
      }),
      'must be an array of requests',
    ),
    v.minLength(1, 'must hold at least one request'),
    v.maxLength(MAX_MESSAGE_BATCH_REQUESTS, `must hold at most ${MAX_MESSAGE_BATCH_REQUESTS} requests`),
    v.check((requests) => new Set(requests.map((request) => request.custom_id)).size === requests.length, 'must have a unique custom_id each'),
  ),
});
export type CreateMessageBatchRequest = v.InferOutput<typeof createMessageBatchSchema>;
