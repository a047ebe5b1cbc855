import type { ReasoningEffort, ToolDefinition } from '@svc/core';
import type { ProviderChatRequest } from '../provider.js';
import { maxTokensWithThinking } from '../shared/thinking-budget.js';
import type { AnthropicMessagesBody, AnthropicTool, AnthropicToolChoice } from './anthropic-api.js';
import { anthropicCacheControl, convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

/**
 * `max_tokens` is required by Anthropic; OpenAI-style callers usually omit it. 4096 fits every
 * current Claude model's output limit and is enough for ordinary chat answers.
 */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/**
 * Name of the tool that carries JSON-mode answers. Anthropic has no `json_object` mode, so the
 * adapter offers one tool whose `input_schema` is the requested schema and makes the model call
 * it; the tool input *is* the answer. Unlike an assistant prefill of `{`, this yields
 * schema-shaped JSON that the API itself parsed, and it streams as `input_json_delta`.
 */
export const ANTHROPIC_JSON_TOOL = 'json_response';

/**
 * `budget_tokens` per reasoning effort. Anthropic's minimum budget is 1024, so `minimal`
 * and an explicit smaller `reasoning.maxTokens` are raised to it.
 */
export const ANTHROPIC_THINKING_BUDGETS: Readonly<Record<ReasoningEffort, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

const MIN_THINKING_BUDGET = 1024;

/** A Messages request body plus what the response reader must know about how it was built. */
export interface PreparedAnthropicRequest {
  body: AnthropicMessagesBody;
  /** Set when JSON mode is emulated with the {@link ANTHROPIC_JSON_TOOL} tool. */
  jsonTool?: string;
  /** False when the caller asked for reasoning to be used but not returned. */
  includeReasoning: boolean;
}

/**
 * Builds the body of `POST /v1/messages`.
 *
 * - `temperature` is clamped to Anthropic's 0..1 (OpenAI allows up to 2; clamping keeps the
 *   caller's "more random" intent without a 400).
 * - Reasoning (`reasoning.maxTokens`, `reasoning.effort` or `reasoningEffort`) enables extended
 *   thinking. `max_tokens` is the caller's limit, which counts thinking as Anthropic's does,
 *   unless the budget does not fit in it (see `maxTokensWithThinking`). With thinking on,
 *   `temperature` and `top_p` are not sent (Anthropic rejects sampling changes while thinking)
 *   and tool choice cannot be forced.
 * - `top_p` is sent only without `temperature` (newer models refuse both at once).
 * - `n` is ignored: Anthropic returns one answer; the pipeline fans out for n > 1.
 */
export function buildAnthropicRequest(request: ProviderChatRequest, stream: boolean): PreparedAnthropicRequest {
  const prompt = convertToAnthropicMessages(request.messages);
  const budget = thinkingBudget(request);
  const body: AnthropicMessagesBody = {
    model: request.model,
    max_tokens: budget === undefined ? (request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS) : maxTokensWithThinking(request.maxTokens, budget, ANTHROPIC_DEFAULT_MAX_TOKENS),
    messages: prompt.messages,
  };
  if (prompt.system) body.system = prompt.system;
  if (stream) body.stream = true;
  if (budget !== undefined) {
    body.thinking = { type: 'enabled', budget_tokens: budget };
  } else {
    // Current Claude models reject temperature and top_p together; temperature is the one
    // callers mean (OpenAI clients often send top_p: 1 as a default).
    if (request.temperature !== undefined) body.temperature = Math.min(1, Math.max(0, request.temperature));
    else if (request.topP !== undefined) body.top_p = request.topP;
  }
  if (request.stop && request.stop.length > 0) body.stop_sequences = request.stop;
  if (request.user) body.metadata = { user_id: request.user };

  const prepared: PreparedAnthropicRequest = { body, includeReasoning: request.reasoning?.exclude !== true };
  const format = request.responseFormat;
  const userTools = request.tools ?? [];
  if (format && format.type !== 'text') {
    prepared.jsonTool = ANTHROPIC_JSON_TOOL;
    const jsonTool: AnthropicTool = {
      name: ANTHROPIC_JSON_TOOL,
      description:
        format.type === 'json_schema'
          ? (format.description ?? `Give the final answer as JSON matching the "${format.name}" schema.`)
          : 'Give the final answer as a JSON object.',
      input_schema: objectSchema(format.type === 'json_schema' ? format.schema : undefined),
    };
    body.tools = [...userTools.map(toAnthropicTool), jsonTool];
    body.tool_choice = jsonToolChoice(request, userTools.length > 0, budget !== undefined);
    if (budget !== undefined) {
      // Forced tool use is not allowed while thinking, so ask for the tool in words instead.
      const hint = { type: 'text' as const, text: `Give your final answer by calling the ${ANTHROPIC_JSON_TOOL} tool.` };
      body.system = body.system ? [...body.system, hint] : [hint];
    }
  } else if (userTools.length > 0) {
    body.tools = userTools.map(toAnthropicTool);
    const choice = toolChoice(request, budget !== undefined);
    if (choice) body.tool_choice = choice;
  }
  return prepared;
}

function thinkingBudget(request: ProviderChatRequest): number | undefined {
  const reasoning = request.reasoning;
  if (reasoning?.enabled === false) return undefined;
  if (reasoning?.maxTokens !== undefined) return Math.max(MIN_THINKING_BUDGET, Math.floor(reasoning.maxTokens));
  const effort = reasoning?.effort ?? request.reasoningEffort;
  if (effort) return ANTHROPIC_THINKING_BUDGETS[effort];
  return reasoning?.enabled === true ? ANTHROPIC_THINKING_BUDGETS.medium : undefined;
}

function toAnthropicTool(tool: ToolDefinition): AnthropicTool {
  const out: AnthropicTool = { name: tool.name, input_schema: objectSchema(tool.parameters) };
  if (tool.description) out.description = tool.description;
  if (tool.cacheControl) out.cache_control = anthropicCacheControl(tool.cacheControl);
  return out;
}

/** Anthropic requires `input_schema.type === 'object'`; OpenAI allows the schema to be omitted. */
function objectSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!schema) return { type: 'object', properties: {} };
  return schema.type === undefined ? { type: 'object', ...schema } : schema;
}

/**
 * Forced tool use (`any`, `tool`) is rejected while thinking; it degrades to `auto` there
 * rather than failing a request the caller could not know was routed to Anthropic.
 */
function toolChoice(request: ProviderChatRequest, thinking: boolean): AnthropicToolChoice | undefined {
  const choice = request.toolChoice;
  if (choice === 'none') return { type: 'none' };
  const forced: AnthropicToolChoice | undefined =
    choice === 'required' ? { type: 'any' } : typeof choice === 'object' ? { type: 'tool', name: choice.name } : undefined;
  const base: AnthropicToolChoice | undefined = forced && !thinking ? forced : choice === undefined ? undefined : { type: 'auto' };
  if (request.parallelToolCalls !== false) return base;
  return { ...(base ?? { type: 'auto' }), disable_parallel_tool_use: true };
}

/**
 * JSON mode: without caller tools (or with `tool_choice: none`) the JSON tool is forced; with
 * caller tools the model must call *some* tool (`any`): a caller tool or the JSON answer.
 */
function jsonToolChoice(request: ProviderChatRequest, hasUserTools: boolean, thinking: boolean): AnthropicToolChoice {
  const choice = request.toolChoice;
  const parallel = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (thinking) return { type: 'auto', ...parallel };
  if (!hasUserTools || choice === 'none') return { type: 'tool', name: ANTHROPIC_JSON_TOOL };
  if (typeof choice === 'object') return { type: 'tool', name: choice.name, ...parallel };
  return { type: 'any', ...parallel };
}
