import { type ChatMessage, type ChatRequest, type ContentPart, invalidRequest, type ToolDefinition } from '@svc/core';
import * as v from 'valibot';
import { toRoutingHints, toRoutingOverride, toSvcOptions } from '../openai/decode-chat-request.js';
import { type WireCacheControl, withCacheControl } from '../shared/cache-control.js';
import { issueToError } from '../shared/issue-to-error.js';
import {
  type AnthropicContentBlock,
  type AnthropicCountTokensRequest,
  type AnthropicInputMessage,
  type AnthropicMessagesRequest,
  countTokensRequestSchema,
  messagesRequestSchema,
} from './messages-request-schema.js';
import { checkMcpToolsets } from './mcp-toolsets.js';

const parseConfig = { abortEarly: true } as const;

/**
 * Validates an Anthropic `POST /v1/messages` body and maps it to the canonical {@link ChatRequest}.
 *
 * - `system` (string or text blocks) becomes a leading system message.
 * - A user turn's `tool_result` blocks become `tool` messages (placed before the rest of the
 *   turn, as Anthropic requires them first); `is_error: true` prefixes the result with `Error: `.
 * - An assistant turn's `tool_use` blocks become tool calls (input serialised to JSON text);
 *   `thinking` blocks are dropped (their signatures only mean something to Anthropic).
 * - Images become `image` parts (`data:` URLs for base64 sources).
 * - `tool_choice`: auto/any/tool/none -> `auto`/`required`/`{name}`/`none`;
 *   `disable_parallel_tool_use: true` -> `parallelToolCalls: false`.
 * - `thinking.budget_tokens` becomes `reasoning.maxTokens` and `maxTokens` stays `max_tokens`:
 *   the canonical output limit counts reasoning, as Anthropic's and OpenAI's both do, and each
 *   adapter maps the budget to its provider's own control without shrinking that limit.
 * - `metadata.user_id` -> `user`; `top_k` is validated and not forwarded.
 * - `cache_control` breakpoints stay where they were: on system, text and image parts, on tools,
 *   on tool results (the tool message) and on assistant turns (the message: Anthropic caches up
 *   to its last block).
 *
 * @throws GatewayError 400 `invalid_request_error` whose `param` is the dotted path of the first
 *   offending field (`messages.0.content.1.source.media_type`).
 */
export function decodeMessagesRequest(body: unknown): ChatRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest('The request body must be a JSON object.', null);
  }
  const result = v.safeParse(messagesRequestSchema, body, parseConfig);
  if (!result.success) throw issueToError(result.issues[0]);
  return toChatRequest(result.output);
}

/**
 * Validates an Anthropic `POST /v1/messages/count_tokens` body (the Messages body without
 * `max_tokens` and `stream`) and maps it to the canonical {@link ChatRequest} the same way as
 * {@link decodeMessagesRequest}, so what is counted is what a `/v1/messages` call would send.
 *
 * @throws GatewayError 400 `invalid_request_error` naming the first offending field.
 */
export function decodeCountTokensRequest(body: unknown): ChatRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest('The request body must be a JSON object.', null);
  }
  const result = v.safeParse(countTokensRequestSchema, body, parseConfig);
  if (!result.success) throw issueToError(result.issues[0]);
  return toChatRequest(result.output);
}

function toChatRequest(wire: AnthropicCountTokensRequest & Partial<Pick<AnthropicMessagesRequest, 'max_tokens' | 'stream'>>): ChatRequest {
  const messages: ChatMessage[] = [];
  const system = decodeSystem(wire.system);
  if (system !== undefined) messages.push(system);
  for (let i = 0; i < wire.messages.length; i++) decodeMessage(wire.messages[i]!, i, messages);

  const out: ChatRequest = { model: wire.model, messages, stream: wire.stream ?? false, n: 1, includeUsage: true };
  if (wire.max_tokens != null) out.maxTokens = wire.max_tokens;
  if (wire.thinking?.type === 'enabled' && wire.max_tokens != null) {
    const budget = wire.thinking.budget_tokens;
    if (budget >= wire.max_tokens) {
      throw invalidRequest("Invalid 'thinking.budget_tokens': must be less than max_tokens.", 'thinking.budget_tokens');
    }
    out.reasoning = { maxTokens: budget };
  }
  if (wire.temperature != null) out.temperature = wire.temperature;
  if (wire.top_p != null) out.topP = wire.top_p;
  if (wire.stop_sequences != null && wire.stop_sequences.length > 0) out.stop = wire.stop_sequences;
  checkMcpToolsets(wire);
  const tools = wire.tools?.flatMap(toToolDefinition);
  if (tools != null && tools.length > 0) out.tools = tools;
  if (wire.tool_choice != null) {
    const choice = wire.tool_choice;
    out.toolChoice = choice.type === 'any' ? 'required' : choice.type === 'tool' ? { name: choice.name } : choice.type;
    if (choice.type !== 'none' && choice.disable_parallel_tool_use === true) out.parallelToolCalls = false;
  }
  if (wire.metadata?.user_id != null) out.user = wire.metadata.user_id;
  if (wire.service_tier != null) out.serviceTier = wire.service_tier;
  if (wire.routing_hints != null) out.routingHints = toRoutingHints(wire.routing_hints);
  if (wire.routing_override != null) out.routingOverride = toRoutingOverride(wire.routing_override);
  if (wire.svc != null) out.svc = toSvcOptions(wire.svc);
  if (wire.models != null) out.models = wire.models;
  return out;
}

/**
 * `system` as one system message: its text blocks joined, or, when a block carries a cache
 * breakpoint, kept as parts so the breakpoint stays where the client put it.
 */
function decodeSystem(system: AnthropicCountTokensRequest['system']): ChatMessage | undefined {
  if (system == null) return undefined;
  if (typeof system !== 'string' && system.some((block) => block.cache_control != null)) {
    return { role: 'system', content: system.map((block) => withCacheControl<ContentPart>({ type: 'text', text: block.text }, block.cache_control)) };
  }
  const text = typeof system === 'string' ? system : system.map((block) => block.text).join('\n');
  return text === '' ? undefined : { role: 'system', content: text };
}

/** A client's tool; an `mcp_toolset` is none (the gateway offers its server's tools itself). */
function toToolDefinition(tool: NonNullable<AnthropicMessagesRequest['tools']>[number]): ToolDefinition[] {
  if (tool.type === 'mcp_toolset') return [];
  const out: ToolDefinition = { name: tool.name, parameters: tool.input_schema };
  if (tool.description != null) out.description = tool.description;
  if (tool.strict != null) out.strict = tool.strict;
  return [withCacheControl(out, tool.cache_control)];
}

type ImageBlock = Extract<AnthropicContentBlock, { type: 'image' }>;

function imagePart(block: ImageBlock): ContentPart {
  const { source } = block;
  return withCacheControl<ContentPart>({ type: 'image', url: source.type === 'url' ? source.url : `data:${source.media_type};base64,${source.data}` }, block.cache_control);
}

function toolResultContent(block: Extract<AnthropicContentBlock, { type: 'tool_result' }>): string | ContentPart[] {
  const prefix = block.is_error === true ? 'Error: ' : '';
  const content = block.content ?? '';
  if (typeof content === 'string') return prefix + content;
  const parts = content.map((part): ContentPart => (part.type === 'text' ? withCacheControl<ContentPart>({ type: 'text', text: part.text }, part.cache_control) : imagePart(part)));
  if (parts.every((part) => part.type === 'text' && part.cacheControl === undefined)) return prefix + parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return prefix === '' ? parts : [{ type: 'text', text: prefix }, ...parts];
}

function decodeMessage(message: AnthropicInputMessage, index: number, out: ChatMessage[]): void {
  if (typeof message.content === 'string') {
    out.push({ role: message.role, content: message.content });
    return;
  }
  if (message.role === 'assistant') {
    let text = '';
    let cacheControl: WireCacheControl | null | undefined;
    const toolCalls: NonNullable<ChatMessage['toolCalls']> = [];
    for (const block of message.content) {
      if ('cache_control' in block && block.cache_control != null) cacheControl = block.cache_control;
      if (block.type === 'text') text += block.text;
      else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
      else if (block.type !== 'thinking' && block.type !== 'redacted_thinking') {
        const param = `messages.${index}.content`;
        throw invalidRequest(`Invalid '${param}': an assistant turn may not carry '${block.type}' blocks.`, param);
      }
    }
    const decoded: ChatMessage = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
    if (toolCalls.length > 0) decoded.toolCalls = toolCalls;
    out.push(withCacheControl(decoded, cacheControl));
    return;
  }
  const parts: ContentPart[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case 'text':
        parts.push(withCacheControl<ContentPart>({ type: 'text', text: block.text }, block.cache_control));
        break;
      case 'image':
        parts.push(imagePart(block));
        break;
      case 'tool_result':
        out.push(withCacheControl<ChatMessage>({ role: 'tool', toolCallId: block.tool_use_id, content: toolResultContent(block) }, block.cache_control));
        break;
      default: {
        const param = `messages.${index}.content`;
        throw invalidRequest(`Invalid '${param}': a ${message.role} turn may not carry '${block.type}' blocks.`, param);
      }
    }
  }
  if (parts.length > 0 || !message.content.some((block) => block.type === 'tool_result')) {
    out.push({ role: message.role, content: parts });
  }
}
