import type { ResponseFormat, ToolChoice, ToolDefinition } from '@svc/core';
import type { ProviderChatRequest } from '../provider.js';
import { effortForBudget } from '../shared/thinking-budget.js';
import { convertToOpenAIMessages } from './convert-to-openai-messages.js';
import type { OpenAIChatRequestBody } from './openai-api.js';
import type { ResolvedCompatibility } from './openai-compatibility.js';

/**
 * OpenAI reasoning models (o1, o3, o4-mini, gpt-5 and their dated/vendor-prefixed variants such
 * as `openai/o3-mini` on OpenRouter), but not the non-reasoning `gpt-5-chat` snapshots.
 */
const reasoningModel = /^(?:[\w.-]+\/)?(?:o\d|gpt-5(?!-chat))/;

export function isOpenAIReasoningModel(model: string): boolean {
  return reasoningModel.test(model);
}

/**
 * Canonical request -> OpenAI body. Only fields the caller set are written, so the vendor's own
 * defaults apply to everything else.
 *
 * The max-tokens rule: reasoning models (see `isOpenAIReasoningModel`) get
 * `max_completion_tokens`, because they reject `max_tokens`; every other model gets `max_tokens`,
 * the one name every OpenAI-compatible vendor understands. Reasoning models also reject the
 * sampling controls (temperature, top_p, penalties, logprobs) with a 400, so those are left out
 * for them: a routed request must not fail on a sampling hint the chosen model cannot honour.
 * For the same reason `reasoning_effort` reaches OpenAI only for reasoning models (see
 * `OpenAICompatibility.reasoningEffort`). A thinking budget (`reasoning.maxTokens`, Anthropic's
 * `thinking.budget_tokens`) becomes the effort that covers it (`effortForBudget`), and the
 * caller's whole limit is sent: OpenAI counts reasoning inside `max_completion_tokens`.
 */
export function buildOpenAIRequest(request: ProviderChatRequest, compat: ResolvedCompatibility, stream: boolean): OpenAIChatRequestBody {
  const reasoning = isOpenAIReasoningModel(request.model);
  const drop = compat.unsupported;
  const body: OpenAIChatRequestBody = {
    model: request.model,
    messages: convertToOpenAIMessages(request.messages, compat.developerRole),
  };
  if (stream) {
    body.stream = true;
    // Always ask for usage: billing and the ledger need it even when the client did not ask.
    if (compat.streamOptions) body.stream_options = { include_usage: true };
  }
  if (request.n !== undefined && request.n !== 1 && !drop.has('n')) body.n = request.n;
  if (request.maxTokens !== undefined) {
    if (reasoning) body.max_completion_tokens = request.maxTokens;
    else body.max_tokens = request.maxTokens;
  }
  if (!reasoning) {
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.topP !== undefined) body.top_p = request.topP;
    if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
    if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
    if (request.logprobs !== undefined && !drop.has('logprobs')) {
      body.logprobs = request.logprobs;
      if (request.topLogprobs !== undefined) body.top_logprobs = request.topLogprobs;
    }
  }
  if (request.stop !== undefined && request.stop.length > 0) body.stop = request.stop;
  if (request.seed !== undefined) body[compat.seedField] = request.seed;
  if (request.user !== undefined && !drop.has('user')) body.user = request.user;
  const effort = request.reasoningEffort ?? request.reasoning?.effort ?? (request.reasoning?.maxTokens === undefined ? undefined : effortForBudget(request.reasoning.maxTokens));
  if (effort !== undefined && !drop.has('reasoning_effort') && (reasoning || compat.reasoningEffort === 'always')) body.reasoning_effort = effort;
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map(convertTool);
    // OpenAI rejects parallel_tool_calls without tools.
    if (request.parallelToolCalls !== undefined && !drop.has('parallel_tool_calls')) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.toolChoice !== undefined) body.tool_choice = convertToolChoice(request.toolChoice);
  if (request.responseFormat !== undefined) body.response_format = convertResponseFormat(request.responseFormat);
  // `batch` is the gateway's own cost hint (spec), not an upstream tier.
  if (request.serviceTier !== undefined && request.serviceTier !== 'batch' && !drop.has('service_tier')) body.service_tier = request.serviceTier;
  return body;
}

function convertTool(tool: ToolDefinition): NonNullable<OpenAIChatRequestBody['tools']>[number] {
  const fn: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean } = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  if (tool.parameters !== undefined) fn.parameters = tool.parameters;
  if (tool.strict !== undefined) fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

function convertToolChoice(choice: ToolChoice): NonNullable<OpenAIChatRequestBody['tool_choice']> {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function convertResponseFormat(format: ResponseFormat): NonNullable<OpenAIChatRequestBody['response_format']> {
  if (format.type !== 'json_schema') return { type: format.type };
  const jsonSchema: { name: string; schema?: Record<string, unknown>; strict?: boolean; description?: string } = { name: format.name };
  if (format.schema !== undefined) jsonSchema.schema = format.schema;
  if (format.strict !== undefined) jsonSchema.strict = format.strict;
  if (format.description !== undefined) jsonSchema.description = format.description;
  return { type: 'json_schema', json_schema: jsonSchema };
}
