/**
 * valibot schema of the legacy `POST /v1/completions` body (spec §POST /v1/completions).
 * Unknown keys are dropped and `null` means absent, as for chat.
 */
import * as v from 'valibot';
import { bool, int, nonEmptyStr, num, obj, opt, str } from '../shared/fields.js';
import { routingHintsSchema, routingOverrideSchema, svcBlockSchema } from './svc-extensions-schema.js';

const promptMessage = 'must be a string or an array of strings (token arrays are not accepted)';

/** A string or an array of strings; token-id arrays are refused (no tokenizer per model here). */
const promptSchema = v.lazy((input) =>
  Array.isArray(input) ? v.array(v.string(promptMessage), promptMessage) : v.string(promptMessage),
);

const stopSchema = v.lazy((input) =>
  Array.isArray(input)
    ? v.array(v.string('must be a string'), 'must be a string or an array of strings')
    : v.string('must be a string or an array of strings'),
);

export const completionsRequestSchema = obj({
  model: nonEmptyStr(),
  prompt: opt(promptSchema),
  max_tokens: opt(int(1, Number.MAX_SAFE_INTEGER)),
  temperature: opt(num(0, 2)),
  top_p: opt(num(0, 1)),
  n: opt(int(1, 8)),
  stream: opt(bool()),
  logprobs: opt(int(0, 5)),
  echo: opt(bool()),
  stop: opt(stopSchema),
  presence_penalty: opt(num(-2, 2)),
  frequency_penalty: opt(num(-2, 2)),
  best_of: opt(int(1, 20)),
  suffix: opt(str()),
  seed: opt(int(0, Number.MAX_SAFE_INTEGER)),
  user: opt(str()),
  routing_hints: opt(routingHintsSchema),
  routing_override: opt(routingOverrideSchema),
  svc: opt(svcBlockSchema),
});

/** The validated legacy completion request, still in wire names. */
export type OpenAICompletionsRequest = v.InferOutput<typeof completionsRequestSchema>;
