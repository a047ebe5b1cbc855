/**
 * valibot schema of the `POST /v1/chat/completions` body (spec §request body and §Limits).
 *
 * - Unknown top-level (and nested) keys are dropped, not rejected: OpenAI clients keep adding
 *   fields, and the spec's versioning policy treats new optional fields as non-breaking.
 * - Every optional field also accepts `null`, which decoders treat as absent.
 * - Only the limits the spec (or OpenAI itself, for `top_p`) states are enforced; `stop`, `tools`
 *   and friends are otherwise passed through.
 */
import * as v from 'valibot';
import { cacheControlSchema } from '../shared/cache-control.js';
import {
  block,
  bool,
  int,
  jsonObject,
  literal,
  minArr,
  nonEmptyStr,
  num,
  obj,
  oneOf,
  opt,
  str,
  stringRecord,
} from '../shared/fields.js';
import { chatMessageSchema } from './chat-message-schema.js';
import { fallbackModelsSchema, routingHintsSchema, routingOverrideSchema, svcBlockSchema } from './svc-extensions-schema.js';

/**
 * `seed` is a u64 on the wire. JSON numbers above 2^53 already lost precision in `JSON.parse`,
 * so the check is "a non-negative integer below 2^64"; such seeds stay deterministic (the same
 * text always parses to the same double) but are forwarded rounded.
 */
const SEED_LIMIT = 2 ** 64;
const seedMessage = 'must be an integer between 0 and 18446744073709551615';
const seedSchema = v.pipe(
  v.number(seedMessage),
  v.integer(seedMessage),
  v.minValue(0, seedMessage),
  v.ltValue(SEED_LIMIT, seedMessage),
);

const stopSchema = v.lazy((input) =>
  Array.isArray(input)
    ? v.array(v.string('must be a string'), 'must be a string or an array of strings')
    : v.string('must be a string or an array of strings'),
);

export const toolSchema = obj({
  type: literal('function'),
  function: obj({
    name: nonEmptyStr(),
    description: opt(str()),
    parameters: opt(jsonObject()),
    strict: opt(bool()),
  }),
  /** A prompt-cache breakpoint after this tool (OpenRouter and LiteLLM take it here). */
  cache_control: opt(cacheControlSchema),
});

const toolChoiceMessage = "must be 'none', 'auto', 'required' or {type: 'function', function: {name}}";
const toolChoiceSchema = v.lazy((input) =>
  typeof input === 'string'
    ? v.picklist(['none', 'auto', 'required'], toolChoiceMessage)
    : v.object({ type: literal('function'), function: obj({ name: nonEmptyStr() }) }, toolChoiceMessage),
);

export const responseFormatSchema = v.variant(
  'type',
  [
    obj({ type: v.literal('text') }),
    obj({ type: v.literal('json_object') }),
    obj({
      type: v.literal('json_schema'),
      json_schema: obj({
        name: nonEmptyStr(),
        schema: opt(jsonObject()),
        strict: opt(bool()),
        description: opt(str()),
      }),
    }),
  ],
  (issue) => (issue.expected === 'Object' ? 'must be an object' : "must be one of 'text', 'json_object', 'json_schema'"),
);

const reasoningEffortSchema = oneOf(['minimal', 'low', 'medium', 'high']);

export const chatRequestSchema = obj({
  model: nonEmptyStr(),
  messages: minArr(chatMessageSchema, 1),
  stream: opt(bool()),
  n: opt(int(1, 8)),
  /** Alias of `max_completion_tokens`; when both are sent, `max_completion_tokens` wins. */
  max_tokens: opt(int(1, Number.MAX_SAFE_INTEGER)),
  max_completion_tokens: opt(int(1, Number.MAX_SAFE_INTEGER)),
  temperature: opt(num(0, 2)),
  top_p: opt(num(0, 1)),
  frequency_penalty: opt(num(-2, 2)),
  presence_penalty: opt(num(-2, 2)),
  stop: opt(stopSchema),
  tools: opt(v.array(toolSchema, 'must be an array')),
  tool_choice: opt(toolChoiceSchema),
  parallel_tool_calls: opt(bool()),
  response_format: opt(responseFormatSchema),
  seed: opt(seedSchema),
  user: opt(str()),
  logprobs: opt(bool()),
  top_logprobs: opt(int(0, 20)),
  stream_options: opt(block({ include_usage: opt(bool()) })),
  reasoning_effort: opt(reasoningEffortSchema),
  reasoning: opt(
    block({
      effort: opt(reasoningEffortSchema),
      max_tokens: opt(int(0, Number.MAX_SAFE_INTEGER)),
      summary: opt(str()),
      exclude: opt(bool()),
      enabled: opt(bool()),
    }),
  ),
  service_tier: opt(str()),
  store: opt(bool()),
  metadata: opt(stringRecord()),
  routing_hints: opt(routingHintsSchema),
  routing_override: opt(routingOverrideSchema),
  svc: opt(svcBlockSchema),
  /** Fallback models after `model` (OpenRouter's `models`). */
  models: opt(fallbackModelsSchema),
});

/** The validated OpenAI chat request, still in wire names. */
export type OpenAIChatRequest = v.InferOutput<typeof chatRequestSchema>;
