/**
 * valibot schema of the Anthropic `POST /v1/messages` body (conformance/anthropic/NOTES.md), plus
 * the gateway's own `svc`, `routing_hints` and `routing_override` extensions.
 *
 * - Unknown keys are dropped, not rejected: Anthropic SDKs keep adding optional fields
 *   (`service_tier`, `container`, `output_config`, ...).
 * - Every optional field also accepts `null`, which the decoder treats as absent.
 * - Limits follow Anthropic's API: `temperature` 0..1, `top_p` 0..1, `top_k` >= 0,
 *   `thinking.budget_tokens` >= 1024 and below `max_tokens`.
 */
import * as v from 'valibot';
import {
  arr,
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
} from '../shared/fields.js';
import { fallbackModelsSchema, routingHintsSchema, routingOverrideSchema, svcBlockSchema } from '../openai/svc-extensions-schema.js';
import { cacheControlSchema } from '../shared/cache-control.js';

/** Every block a prompt is built of may carry `cache_control`, a prompt-cache breakpoint. */
const cacheControl = opt(cacheControlSchema);

const textBlockSchema = obj({ type: v.literal('text'), text: str(), cache_control: cacheControl });

const imageSourceSchema = v.variant(
  'type',
  [
    obj({
      type: v.literal('base64'),
      media_type: oneOf(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
      data: nonEmptyStr(),
    }),
    obj({ type: v.literal('url'), url: nonEmptyStr() }),
  ],
  (issue) => (issue.expected === 'Object' ? 'must be an object' : "must be one of 'base64', 'url'"),
);

const imageBlockSchema = obj({ type: v.literal('image'), source: imageSourceSchema, cache_control: cacheControl });

const toolUseBlockSchema = obj({ type: v.literal('tool_use'), id: nonEmptyStr(), name: nonEmptyStr(), input: jsonObject(), cache_control: cacheControl });

const toolResultContentSchema = v.lazy((input) =>
  Array.isArray(input)
    ? arr(
        v.variant('type', [textBlockSchema, imageBlockSchema], (issue) =>
          issue.expected === 'Object' ? 'must be an object' : "must be one of 'text', 'image'",
        ),
      )
    : v.string('must be a string or an array of content blocks'),
);

const toolResultBlockSchema = obj({
  type: v.literal('tool_result'),
  tool_use_id: nonEmptyStr(),
  content: opt(toolResultContentSchema),
  is_error: opt(bool()),
  cache_control: cacheControl,
});

/** Replayed assistant reasoning: accepted so clients can send turns back verbatim, then dropped. */
const thinkingBlockSchema = obj({ type: v.literal('thinking'), thinking: str(), signature: opt(str()) });
const redactedThinkingBlockSchema = obj({ type: v.literal('redacted_thinking'), data: str() });

const blockTypes = ['text', 'image', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking'] as const;

export const contentBlockSchema = v.variant(
  'type',
  [textBlockSchema, imageBlockSchema, toolUseBlockSchema, toolResultBlockSchema, thinkingBlockSchema, redactedThinkingBlockSchema],
  (issue) =>
    issue.expected === 'Object' ? 'must be an object' : `must be one of ${blockTypes.map((t) => `'${t}'`).join(', ')}`,
);

const contentSchema = v.lazy((input) =>
  Array.isArray(input) ? arr(contentBlockSchema) : v.string('must be a string or an array of content blocks'),
);

export const messageSchema = obj({
  /** `system` turns are sent by the 1.x SDK's system-message type. */
  role: oneOf(['user', 'assistant', 'system']),
  content: contentSchema,
});

const systemSchema = v.lazy((input) =>
  Array.isArray(input) ? arr(textBlockSchema) : v.string('must be a string or an array of text blocks'),
);

const customToolSchema = obj({
  name: nonEmptyStr(),
  description: opt(str()),
  input_schema: jsonObject(),
  strict: opt(bool()),
  type: opt(literal('custom')),
  cache_control: cacheControl,
});

/** Whether a tool of an MCP toolset is offered; `defer_loading` is accepted and has no effect (no tool search). */
const mcpToolConfigSchema = block({ enabled: opt(bool()), defer_loading: opt(bool()) });

/**
 * Which tools of one `mcp_servers` entry the model is offered (MCP connector beta
 * `mcp-client-2025-11-20`): `default_config` for every tool, `configs` per tool name.
 */
export const mcpToolsetSchema = obj({
  type: literal('mcp_toolset'),
  mcp_server_name: v.pipe(nonEmptyStr(), v.maxLength(255, 'must be at most 255 characters')),
  default_config: opt(mcpToolConfigSchema),
  configs: opt(v.record(v.string(), mcpToolConfigSchema, 'must be an object')),
  cache_control: cacheControl,
});

/** Whether a `tools` entry is an MCP server's toolset (told by its `type`). */
export const isMcpToolset = (tool: unknown): tool is v.InferOutput<typeof mcpToolsetSchema> =>
  typeof tool === 'object' && tool !== null && (tool as { type?: unknown }).type === 'mcp_toolset';

/** A tool the client defines (`custom`, the default type) or an MCP server's toolset. */
export const toolSchema = v.lazy((input) => (isMcpToolset(input) ? mcpToolsetSchema : customToolSchema));

const disableParallel = opt(bool());

const toolChoiceSchema = v.variant(
  'type',
  [
    obj({ type: v.literal('auto'), disable_parallel_tool_use: disableParallel }),
    obj({ type: v.literal('any'), disable_parallel_tool_use: disableParallel }),
    obj({ type: v.literal('tool'), name: nonEmptyStr(), disable_parallel_tool_use: disableParallel }),
    obj({ type: v.literal('none') }),
  ],
  (issue) => (issue.expected === 'Object' ? 'must be an object' : "must be one of 'auto', 'any', 'tool', 'none'"),
);

/** Anthropic's smallest thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

const thinkingSchema = v.variant(
  'type',
  [
    obj({ type: v.literal('enabled'), budget_tokens: int(MIN_THINKING_BUDGET, Number.MAX_SAFE_INTEGER) }),
    obj({ type: v.literal('disabled') }),
    obj({ type: v.literal('adaptive') }),
  ],
  (issue) => (issue.expected === 'Object' ? 'must be an object' : "must be one of 'enabled', 'disabled', 'adaptive'"),
);

/** A gateway tool name is `<server name>__<tool>`: the name is kept short and free of `__`. */
const serverNameMessage = 'must be 1 to 32 letters, digits, hyphens or single underscores, starting with a letter or digit';

/**
 * A remote MCP server (Anthropic's MCP connector, betas `mcp-client-2025-04-04` and
 * `mcp-client-2025-11-20`) whose tools the gateway offers to the model and runs itself, whichever
 * provider answers. Which tools: `tool_configuration` (2025-04-04) or an `mcp_toolset` in `tools`
 * (2025-11-20), never both.
 */
export const mcpServerSchema = obj({
  type: literal('url'),
  url: nonEmptyStr(),
  name: v.pipe(nonEmptyStr(), v.regex(/^[A-Za-z0-9](?:_?[A-Za-z0-9-])*$/, serverNameMessage), v.maxLength(32, serverNameMessage)),
  authorization_token: opt(str()),
  tool_configuration: opt(block({ enabled: opt(bool()), allowed_tools: opt(arr(nonEmptyStr())) })),
});

export const messagesRequestSchema = obj({
  model: nonEmptyStr(),
  max_tokens: int(1, Number.MAX_SAFE_INTEGER),
  messages: minArr(messageSchema, 1),
  system: opt(systemSchema),
  stream: opt(bool()),
  stop_sequences: opt(arr(str())),
  temperature: opt(num(0, 1)),
  top_p: opt(num(0, 1)),
  /** Accepted for compatibility; the canonical request has no top-k, so it is not forwarded. */
  top_k: opt(int(0, Number.MAX_SAFE_INTEGER)),
  tools: opt(arr(toolSchema)),
  tool_choice: opt(toolChoiceSchema),
  mcp_servers: opt(arr(mcpServerSchema)),
  thinking: opt(thinkingSchema),
  metadata: opt(block({ user_id: opt(str()) })),
  service_tier: opt(str()),
  routing_hints: opt(routingHintsSchema),
  routing_override: opt(routingOverrideSchema),
  svc: opt(svcBlockSchema),
  /** Fallback models after `model` (OpenRouter's `models`). */
  models: opt(fallbackModelsSchema),
});

/**
 * `POST /v1/messages/count_tokens`: the Messages body without `max_tokens` and `stream`
 * (a client may still send them; like every unknown key they are dropped).
 */
export const countTokensRequestSchema = v.omit(messagesRequestSchema, ['max_tokens', 'stream']);

export type AnthropicMcpServer = v.InferOutput<typeof mcpServerSchema>;

/** The validated Messages request, still in wire names. */
export type AnthropicMessagesRequest = v.InferOutput<typeof messagesRequestSchema>;
export type AnthropicCountTokensRequest = v.InferOutput<typeof countTokensRequestSchema>;
export type AnthropicInputMessage = v.InferOutput<typeof messageSchema>;
export type AnthropicContentBlock = v.InferOutput<typeof contentBlockSchema>;
