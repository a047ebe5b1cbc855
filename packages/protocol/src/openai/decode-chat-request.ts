import {
  type ChatMessage,
  type ChatRequest,
  invalidRequest,
  type ReasoningOptions,
  type ResponseFormat,
  type RoutingHints,
  type RoutingOverride,
  type SvcOptions,
  type ToolDefinition,
} from '@svc/core';
import * as v from 'valibot';
import { withCacheControl } from '../shared/cache-control.js';
import { issueToError } from '../shared/issue-to-error.js';
import { chatRequestSchema, type OpenAIChatRequest } from './chat-request-schema.js';
import { decodeChatMessage } from './decode-chat-message.js';
import type { OpenAIRoutingHints, OpenAIRoutingOverride, OpenAISvcBlock } from './svc-extensions-schema.js';

const parseConfig = { abortEarly: true } as const;

/**
 * Validates an OpenAI `POST /v1/chat/completions` body and maps it to the canonical
 * {@link ChatRequest} in one pass of valibot plus one plain mapping walk.
 *
 * - Defaults: `n` 1, `stream` false, `includeUsage` false.
 * - `max_completion_tokens` wins over its alias `max_tokens` when both are sent.
 * - `stop: "x"` becomes `["x"]`; `tool_choice: {function: {name}}` becomes `{name}`;
 *   `image_url` parts become `{type: 'image', url, detail}`; `response_format.json_schema` is
 *   flattened into the response format; `null` fields are treated as absent.
 * - Reserved `svc` fields (`chain_routing`, `cache_ttl_secs`, `compress_context`,
 *   `enable_tool_reranking`) are validated but not carried into the canonical request.
 *
 * @throws GatewayError 400 `invalid_request_error` whose `param` is the dotted path of the first
 *   offending field (`messages.0.role`, `routing_hints.max_tier`), or null when the body is not
 *   a JSON object.
 */
export function decodeChatRequest(body: unknown): ChatRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest('The request body must be a JSON object.', null);
  }
  const result = v.safeParse(chatRequestSchema, body, parseConfig);
  if (!result.success) throw issueToError(result.issues[0]);
  return toChatRequest(result.output);
}

function toChatRequest(wire: OpenAIChatRequest): ChatRequest {
  const messages: ChatMessage[] = new Array(wire.messages.length);
  for (let i = 0; i < wire.messages.length; i++) messages[i] = decodeChatMessage(wire.messages[i]!, i);

  const out: ChatRequest = {
    model: wire.model,
    messages,
    stream: wire.stream ?? false,
    n: wire.n ?? 1,
    includeUsage: wire.stream_options?.include_usage ?? false,
  };

  const maxTokens = wire.max_completion_tokens ?? wire.max_tokens;
  if (maxTokens != null) out.maxTokens = maxTokens;
  if (wire.temperature != null) out.temperature = wire.temperature;
  if (wire.top_p != null) out.topP = wire.top_p;
  if (wire.frequency_penalty != null) out.frequencyPenalty = wire.frequency_penalty;
  if (wire.presence_penalty != null) out.presencePenalty = wire.presence_penalty;
  if (wire.stop != null) out.stop = typeof wire.stop === 'string' ? [wire.stop] : wire.stop;
  if (wire.seed != null) out.seed = wire.seed;
  if (wire.logprobs != null) out.logprobs = wire.logprobs;
  if (wire.top_logprobs != null) out.topLogprobs = wire.top_logprobs;
  if (wire.tools != null) out.tools = wire.tools.map(toToolDefinition);
  if (wire.tool_choice != null) {
    out.toolChoice = typeof wire.tool_choice === 'string' ? wire.tool_choice : { name: wire.tool_choice.function.name };
  }
  if (wire.parallel_tool_calls != null) out.parallelToolCalls = wire.parallel_tool_calls;
  if (wire.response_format != null) out.responseFormat = toResponseFormat(wire.response_format);
  if (wire.reasoning_effort != null) out.reasoningEffort = wire.reasoning_effort;
  if (wire.reasoning != null) out.reasoning = toReasoning(wire.reasoning);
  if (wire.user != null) out.user = wire.user;
  if (wire.service_tier != null) out.serviceTier = wire.service_tier;
  if (wire.store === false) out.store = false;
  if (wire.metadata != null) out.metadata = wire.metadata;
  if (wire.routing_hints != null) out.routingHints = toRoutingHints(wire.routing_hints);
  if (wire.routing_override != null) out.routingOverride = toRoutingOverride(wire.routing_override);
  if (wire.svc != null) out.svc = toSvcOptions(wire.svc);
  if (wire.models != null) out.models = wire.models;
  return out;
}

type WireTool = NonNullable<OpenAIChatRequest['tools']>[number];

function toToolDefinition({ function: fn, cache_control }: WireTool): ToolDefinition {
  const tool: ToolDefinition = { name: fn.name };
  if (fn.description != null) tool.description = fn.description;
  if (fn.parameters != null) tool.parameters = fn.parameters;
  if (fn.strict != null) tool.strict = fn.strict;
  return withCacheControl(tool, cache_control);
}

function toResponseFormat(format: NonNullable<OpenAIChatRequest['response_format']>): ResponseFormat {
  if (format.type !== 'json_schema') return { type: format.type };
  const { name, schema, strict, description } = format.json_schema;
  const out: ResponseFormat = { type: 'json_schema', name };
  if (schema != null) out.schema = schema;
  if (strict != null) out.strict = strict;
  if (description != null) out.description = description;
  return out;
}

function toReasoning(wire: NonNullable<OpenAIChatRequest['reasoning']>): ReasoningOptions {
  const out: ReasoningOptions = {};
  if (wire.effort != null) out.effort = wire.effort;
  if (wire.max_tokens != null) out.maxTokens = wire.max_tokens;
  if (wire.summary != null) out.summary = wire.summary;
  if (wire.exclude != null) out.exclude = wire.exclude;
  if (wire.enabled != null) out.enabled = wire.enabled;
  return out;
}

export function toRoutingHints(wire: OpenAIRoutingHints): RoutingHints {
  const out: RoutingHints = {};
  if (wire.mode != null) out.mode = wire.mode;
  if (wire.preference_dial != null) out.preferenceDial = wire.preference_dial;
  if (wire.prefer_latency != null) out.preferLatency = wire.prefer_latency;
  if (wire.prefer_quality != null) out.preferQuality = wire.prefer_quality;
  if (wire.max_cost_per_token != null) out.maxCostPerToken = wire.max_cost_per_token;
  if (wire.max_latency_ms != null) out.maxLatencyMs = wire.max_latency_ms;
  if (wire.max_tier != null) out.maxTier = wire.max_tier;
  if (wire.required_capabilities != null) out.requiredCapabilities = wire.required_capabilities;
  if (wire.task_complexity != null) out.taskComplexity = wire.task_complexity;
  if (wire.chain_routing != null) out.chainRouting = wire.chain_routing;
  if (wire.allow_free_fallback != null) out.allowFreeFallback = wire.allow_free_fallback;
  return out;
}

export function toRoutingOverride(wire: OpenAIRoutingOverride): RoutingOverride {
  const out: RoutingOverride = {};
  if (wire.force_tier != null) out.forceTier = wire.force_tier;
  if (wire.force_lane != null) out.forceLane = wire.force_lane;
  if (wire.force_model != null) out.forceModel = wire.force_model;
  if (wire.force_provider != null) out.forceProvider = wire.force_provider;
  return out;
}

export function toSvcOptions(wire: OpenAISvcBlock): SvcOptions {
  const out: SvcOptions = {};
  if (wire.workflow_type != null) out.workflowType = wire.workflow_type;
  if (wire.chain_id != null) out.chainId = wire.chain_id;
  if (wire.conversation_id != null) out.conversationId = wire.conversation_id;
  if (wire.planning_mode != null) out.planningMode = wire.planning_mode;
  if (wire.max_chain_steps != null) out.maxChainSteps = wire.max_chain_steps;
  if (wire.chain_timeout_secs != null) out.chainTimeoutSecs = wire.chain_timeout_secs;
  if (wire.reliability_level != null) out.reliabilityLevel = wire.reliability_level;
  if (wire.enable_memory != null) out.enableMemory = wire.enable_memory;
  if (wire.enable_speculation != null) out.enableSpeculation = wire.enable_speculation;
  if (wire.enable_hedging != null) out.enableHedging = wire.enable_hedging;
  if (wire.enable_cache != null) out.enableCache = wire.enable_cache;
  if (wire.output_verification != null) out.outputVerification = wire.output_verification;
  if (wire.redact_pii != null) out.redactPii = wire.redact_pii;
  // `voice_mode: true` is the documented form; `false` means "off", i.e. no voice mode.
  if (wire.voice_mode != null && wire.voice_mode !== false) out.voiceMode = String(wire.voice_mode);
  if (wire.intelligence_mode != null) out.intelligenceMode = wire.intelligence_mode;
  if (wire.timeout_ms != null) out.timeoutMs = wire.timeout_ms;
  return out;
}
