/**
 * valibot schemas of the OpenAI chat `messages[]` wire shape (spec §ChatMessage). Unknown keys
 * are dropped; `null` is accepted wherever a field is optional.
 */
import * as v from 'valibot';
import { cacheControlSchema } from '../shared/cache-control.js';
import { arr, literal, nonEmptyStr, obj, oneOf, opt, str } from '../shared/fields.js';

/** Parts may carry `cache_control`, a prompt-cache breakpoint for providers that take one (Anthropic, Bedrock). */
const textPartSchema = obj({ type: v.literal('text'), text: str(), cache_control: opt(cacheControlSchema) });

const imagePartSchema = obj({
  type: v.literal('image_url'),
  image_url: obj({ url: nonEmptyStr(), detail: opt(oneOf(['auto', 'low', 'high'])) }),
  cache_control: opt(cacheControlSchema),
});

const audioPartSchema = obj({
  type: v.literal('input_audio'),
  input_audio: obj({ data: str(), format: nonEmptyStr() }),
});

const filePartSchema = obj({
  type: v.literal('file'),
  file: v.pipe(
    obj({ file_data: opt(str()), file_id: opt(str()), filename: opt(str()) }),
    v.check((file) => file.file_data != null || file.file_id != null, 'must have file_data or file_id'),
  ),
  cache_control: opt(cacheControlSchema),
});

/** Assistant turns replayed by clients may carry refusal parts; decoded into `refusal`. */
const refusalPartSchema = obj({ type: v.literal('refusal'), refusal: str() });

const partTypes = ['text', 'image_url', 'input_audio', 'file', 'refusal'] as const;

/** One element of an array `content`. */
export const contentPartSchema = v.variant(
  'type',
  [textPartSchema, imagePartSchema, audioPartSchema, filePartSchema, refusalPartSchema],
  (issue) =>
    issue.expected === 'Object' ? 'must be an object' : `must be one of ${partTypes.map((t) => `'${t}'`).join(', ')}`,
);

const contentPartsSchema = arr(contentPartSchema);
const contentStringSchema = v.string('must be a string or an array of content parts');

/** `content`: a string or an array of content parts. */
export const contentSchema = v.lazy((input) => (Array.isArray(input) ? contentPartsSchema : contentStringSchema));

/** An assistant's `tool_calls[]` element. */
export const toolCallSchema = obj({
  id: nonEmptyStr(),
  type: opt(literal('function')),
  function: obj({ name: nonEmptyStr(), arguments: str() }),
});

/** Legacy `function_call` of assistant turns (pre tool_calls clients). */
const functionCallSchema = obj({ name: nonEmptyStr(), arguments: str() });

const systemMessageSchema = obj({ role: v.literal('system'), content: contentSchema, name: opt(str()) });
const developerMessageSchema = obj({ role: v.literal('developer'), content: contentSchema, name: opt(str()) });
const userMessageSchema = obj({ role: v.literal('user'), content: contentSchema, name: opt(str()) });

/** `content` may be null or absent when the turn carries tool calls or a refusal (checked when decoding). */
const assistantMessageSchema = obj({
  role: v.literal('assistant'),
  content: opt(contentSchema),
  name: opt(str()),
  tool_calls: opt(arr(toolCallSchema)),
  function_call: opt(functionCallSchema),
  refusal: opt(str()),
});

const toolMessageSchema = obj({
  role: v.literal('tool'),
  content: contentSchema,
  tool_call_id: nonEmptyStr(),
  name: opt(str()),
});

/** Legacy function result turn; `name` pairs it with the assistant's `function_call`. */
const functionMessageSchema = obj({ role: v.literal('function'), content: opt(str()), name: nonEmptyStr() });

export const messageRoles = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;

/** One element of `messages`, discriminated by `role`. */
export const chatMessageSchema = v.variant(
  'role',
  [
    userMessageSchema,
    assistantMessageSchema,
    systemMessageSchema,
    toolMessageSchema,
    developerMessageSchema,
    functionMessageSchema,
  ],
  (issue) =>
    issue.expected === 'Object' ? 'must be an object' : `must be one of ${messageRoles.map((r) => `'${r}'`).join(', ')}`,
);

export type OpenAIChatMessage = v.InferOutput<typeof chatMessageSchema>;
export type OpenAIContentPart = v.InferOutput<typeof contentPartSchema>;
