import * as v from 'valibot';
import type { VectorPayload } from './interface.js';

const choice = v.looseObject({
  index: v.number(),
  message: v.looseObject({ role: v.literal('assistant'), content: v.nullable(v.string()) }),
  finishReason: v.picklist(['stop', 'length', 'tool_calls', 'content_filter']),
});

/** The payload as it comes back from a remote store: checked before it is served as an answer. */
const payloadSchema = v.looseObject({
  orgId: v.string(),
  scope: v.string(),
  expiresAt: v.number(),
  text: v.string(),
  answer: v.looseObject({
    result: v.looseObject({ model: v.string(), choices: v.pipe(v.array(choice), v.minLength(1)) }),
    model: v.string(),
    provider: v.string(),
    tier: v.picklist(['T1', 'T2', 'T3']),
    storedAt: v.number(),
  }),
});

/** Whether a remote payload has the shape this package wrote (anything else is treated as a miss). */
export function isVectorPayload(value: unknown): value is VectorPayload {
  return v.is(payloadSchema, value);
}
