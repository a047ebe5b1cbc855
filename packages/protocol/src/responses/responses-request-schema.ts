/**
 * valibot schema of the `POST /v1/responses` body (spec §POST /v1/responses), in wire names.
 *
 * - Unknown keys are dropped (new optional OpenAI fields are non-breaking); `null` is absent.
 * - `input` items are messages (`type` absent or `'message'`), `function_call`,
 *   `function_call_output` and replayed `reasoning` items (dropped); any other item type
 *   (hosted tool calls, item references, ...) is a 400 naming it.
 * - Function tools and remote MCP tools (`mcp`, run by the gateway) are served; other hosted
 *   tools (`web_search`, `file_search`, ...) are a 400.
 * - `store` (default true) and `previous_response_id` are served by the route, which keeps responses.
 */
import * as v from 'valibot';
import { arr, block, bool, int, jsonObject, literal, minArr, nonEmptyStr, num, obj, oneOf, opt, str, stringRecord } from '../shared/fields.js';
import { fallbackModelsSchema, routingHintsSchema, routingOverrideSchema, svcBlockSchema } from '../openai/svc-extensions-schema.js';

/** OpenAI's own metadata limits: 16 pairs, keys up to 64 and values up to 512 characters. */
const METADATA_MAX_PAIRS = 16;
const METADATA_KEY_MAX = 64;
const METADATA_VALUE_MAX = 512;
const metadataMessage = `must be an object of at most ${METADATA_MAX_PAIRS} string values (keys up to ${METADATA_KEY_MAX}, values up to ${METADATA_VALUE_MAX} characters)`;

const metadataSchema = v.pipe(
  v.record(
    v.pipe(v.string(metadataMessage), v.maxLength(METADATA_KEY_MAX, metadataMessage)),
    v.pipe(v.string(metadataMessage), v.maxLength(METADATA_VALUE_MAX, metadataMessage)),
    metadataMessage,
  ),
  v.check((record) => Object.keys(record).length <= METADATA_MAX_PAIRS, metadataMessage),
);

const detailSchema = opt(oneOf(['auto', 'low', 'high']));

const partTypes = ['input_text', 'input_image', 'input_file', 'output_text', 'refusal'] as const;

/** One content part of a message item. `output_text`/`refusal` appear when clients replay `output`. */
export const inputPartSchema = v.variant(
  'type',
  [
    obj({ type: v.literal('input_text'), text: str() }),
    v.pipe(
      obj({ type: v.literal('input_image'), image_url: opt(nonEmptyStr()), file_id: opt(nonEmptyStr()), detail: detailSchema }),
      v.check((part) => part.image_url != null || part.file_id != null, 'must have image_url or file_id'),
    ),
    v.pipe(
      obj({ type: v.literal('input_file'), file_data: opt(str()), file_id: opt(str()), filename: opt(str()) }),
      v.check((part) => part.file_data != null || part.file_id != null, 'must have file_data or file_id'),
    ),
    obj({ type: v.literal('output_text'), text: str() }),
    obj({ type: v.literal('refusal'), refusal: str() }),
  ],
  (issue) =>
    issue.expected === 'Object' ? 'must be an object' : `must be one of ${partTypes.map((t) => `'${t}'`).join(', ')}`,
);

const messageContentSchema = v.lazy((input) =>
  Array.isArray(input) ? arr(inputPartSchema) : v.string('must be a string or an array of content parts'),
);

const messageItemSchema = obj({
  type: opt(literal('message')),
  role: oneOf(['user', 'assistant', 'system', 'developer']),
  content: messageContentSchema,
});

const functionCallItemSchema = obj({
  type: v.literal('function_call'),
  call_id: nonEmptyStr(),
  name: nonEmptyStr(),
  arguments: str(),
});

const functionCallOutputItemSchema = obj({
  type: v.literal('function_call_output'),
  call_id: nonEmptyStr(),
  output: v.lazy((input) =>
    Array.isArray(input) ? arr(inputPartSchema) : v.string('must be a string or an array of content parts'),
  ),
});

/** A replayed reasoning item: accepted so `input: [...previous.output, ...]` works, then dropped. */
const reasoningItemSchema = obj({ type: v.literal('reasoning') });

/** Replayed MCP listings and approval requests (`mcp_list_tools`, `mcp_approval_request`): accepted, then dropped as reasoning is. */
const mcpOutputItemSchema = obj({ type: oneOf(['mcp_list_tools', 'mcp_approval_request']) });

/**
 * A replayed `mcp_call` (a conversation the client carries itself, `store: false`): the model reads
 * it as its own call of the tool and the tool's answer. One without its `id`, `name` or
 * `server_label` cannot be read so, and is dropped.
 */
const mcpCallItemSchema = obj({
  type: v.literal('mcp_call'),
  id: opt(str()),
  server_label: opt(str()),
  name: opt(str()),
  arguments: opt(str()),
  output: opt(str()),
  error: opt(str()),
});

/** The caller's answer to an `mcp_approval_request` of the response this request continues. */
const mcpApprovalResponseItemSchema = obj({
  type: v.literal('mcp_approval_response'),
  approval_request_id: nonEmptyStr(),
  approve: bool(),
  reason: opt(str()),
});

const itemTypes = ['message', 'function_call', 'function_call_output', 'reasoning', 'mcp_approval_response', 'mcp_list_tools', 'mcp_call', 'mcp_approval_request'] as const;
const itemTypeMessage = `must be one of ${itemTypes.map((t) => `'${t}'`).join(', ')}`;

/**
 * One element of `input`, chosen by `type` (absent or null means a message). A `variant`, not a
 * lazy switch, so the published API description lists every item type; arrays are refused
 * first (`v.object` would take them for objects).
 */
export const inputItemSchema = v.pipe(
  v.custom<unknown>((input) => !Array.isArray(input), 'must be an object'),
  v.variant('type', [messageItemSchema, functionCallItemSchema, functionCallOutputItemSchema, reasoningItemSchema, mcpApprovalResponseItemSchema, mcpCallItemSchema, mcpOutputItemSchema], (issue) =>
    issue.expected === 'Object' ? 'must be an object' : itemTypeMessage,
  ),
);

const inputSchema = v.lazy((input) => {
  if (Array.isArray(input)) return minArr(inputItemSchema, 1);
  if (typeof input === 'object' && input !== null) return inputItemSchema;
  return v.string('must be a string, an array of input items or an input item');
});

const functionToolSchema = v.object(
  {
    type: v.literal('function'),
    name: nonEmptyStr(),
    description: opt(str()),
    parameters: opt(jsonObject()),
    strict: opt(bool()),
  },
  'must be an object',
);

/** An MCP tool filter: the tool names it matches (`read_only` needs annotations the gateway does not trust, so it is refused). */
const mcpToolFilterSchema = v.pipe(
  obj({ tool_names: opt(arr(nonEmptyStr())), read_only: opt(bool()) }),
  v.check((filter) => filter.read_only == null, 'read_only filters are not supported: name the tools (tool_names)'),
);

const approvalMessage = "must be 'always', 'never' or {always, never} tool filters";
const requireApprovalSchema = v.lazy((input) =>
  typeof input === 'string' ? v.picklist(['always', 'never'], approvalMessage) : v.object({ always: opt(mcpToolFilterSchema), never: opt(mcpToolFilterSchema) }, approvalMessage),
);

/** A gateway tool name is `<server_label>__<tool>`: the label is kept short and free of `__`. */
const serverLabelMessage = 'must be 1 to 32 letters, digits, hyphens or single underscores, starting with a letter or digit';

/**
 * A remote MCP server whose tools the gateway offers to the model and runs itself (OpenAI's
 * `mcp` tool): `server_url` (with `headers`/`authorization`), or without it the organisation's
 * registered server named `server_label`. Connectors and tunnels are not served.
 */
const mcpToolSchema = v.pipe(
  obj({
    type: v.literal('mcp'),
    server_label: v.pipe(nonEmptyStr(), v.regex(/^[A-Za-z0-9](?:_?[A-Za-z0-9-])*$/, serverLabelMessage), v.maxLength(32, serverLabelMessage)),
    server_url: opt(nonEmptyStr()),
    server_description: opt(str()),
    headers: opt(stringRecord()),
    authorization: opt(nonEmptyStr()),
    allowed_tools: opt(v.lazy((input) => (Array.isArray(input) ? arr(nonEmptyStr()) : mcpToolFilterSchema))),
    require_approval: opt(requireApprovalSchema),
    connector_id: opt(str()),
    tunnel_id: opt(str()),
  }),
  v.check((tool) => tool.connector_id == null && tool.tunnel_id == null, 'connectors and tunnels are not served: give server_url, or the label of a registered MCP server'),
);

const toolSchema = v.variant('type', [functionToolSchema, mcpToolSchema], (issue) =>
  issue.expected === 'Object' ? 'must be an object' : "must be 'function' or 'mcp' (other hosted tools are not supported)",
);

const toolChoiceMessage = "must be 'none', 'auto', 'required' or {type: 'function', name}";
const toolChoiceSchema = v.lazy((input) =>
  typeof input === 'string'
    ? v.picklist(['none', 'auto', 'required'], toolChoiceMessage)
    : v.object({ type: v.literal('function', toolChoiceMessage), name: nonEmptyStr() }, toolChoiceMessage),
);

export const textFormatSchema = v.variant(
  'type',
  [
    obj({ type: v.literal('text') }),
    obj({ type: v.literal('json_object') }),
    obj({
      type: v.literal('json_schema'),
      name: nonEmptyStr(),
      schema: jsonObject(),
      strict: opt(bool()),
      description: opt(str()),
    }),
  ],
  (issue) => (issue.expected === 'Object' ? 'must be an object' : "must be one of 'text', 'json_object', 'json_schema'"),
);

export const responsesRequestSchema = obj({
  model: nonEmptyStr(),
  input: inputSchema,
  instructions: opt(str()),
  stream: opt(bool()),
  temperature: opt(num(0, 2)),
  top_p: opt(num(0, 1)),
  max_output_tokens: opt(int(1, Number.MAX_SAFE_INTEGER)),
  tools: opt(arr(toolSchema)),
  tool_choice: opt(toolChoiceSchema),
  parallel_tool_calls: opt(bool()),
  text: opt(block({ format: opt(textFormatSchema) })),
  reasoning: opt(block({ effort: opt(oneOf(['minimal', 'low', 'medium', 'high'])), summary: opt(str()) })),
  user: opt(str()),
  metadata: opt(metadataSchema),
  /** Keep the response for retrieval and `previous_response_id` (default true). */
  store: opt(bool()),
  /** A kept response whose conversation this request continues. */
  previous_response_id: opt(nonEmptyStr()),
  routing_hints: opt(routingHintsSchema),
  routing_override: opt(routingOverrideSchema),
  svc: opt(svcBlockSchema),
  /** Fallback models after `model` (OpenRouter's `models`). */
  models: opt(fallbackModelsSchema),
});

/** The validated Responses request, still in wire names. */
export type ResponsesWireRequest = v.InferOutput<typeof responsesRequestSchema>;
export type ResponsesInputItem = v.InferOutput<typeof inputItemSchema>;
export type ResponsesInputPart = v.InferOutput<typeof inputPartSchema>;
export type ResponsesMcpTool = v.InferOutput<typeof mcpToolSchema>;
export type McpToolFilter = v.InferOutput<typeof mcpToolFilterSchema>;
