import type { ReasoningEffort, ToolDefinition } from '@svc/core';
import type { ProviderChatRequest } from '../provider.js';
import { maxTokensWithThinking } from '../shared/thinking-budget.js';
import type { BedrockConverseBody, BedrockInferenceConfig, BedrockTool, BedrockToolChoice } from './bedrock-api.js';
import { cachePoint, convertToBedrockMessages } from './convert-to-bedrock-messages.js';

/**
 * Name of the tool that carries JSON-mode answers. Converse has no JSON response mode that works
 * across its models, so, as for Anthropic, the adapter offers one tool whose input schema is the
 * requested schema and makes the model call it; the tool input *is* the answer.
 */
export const BEDROCK_JSON_TOOL = 'json_response';

/**
 * Claude's `budget_tokens` per reasoning effort (Anthropic's minimum is 1024). Only Claude
 * models take a thinking budget through Converse; other reasoning models on Bedrock either
 * always reason (DeepSeek R1) or use their own fields, so they get none.
 */
export const BEDROCK_CLAUDE_THINKING_BUDGETS: Readonly<Record<ReasoningEffort, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

/** With thinking on, `maxTokens` must cover the budget; callers usually send none. */
export const BEDROCK_DEFAULT_MAX_TOKENS = 4096;

/** A Converse body plus what the response reader must know about how it was built. */
export interface PreparedBedrockRequest {
  body: BedrockConverseBody;
  /** Set when JSON mode is emulated with the {@link BEDROCK_JSON_TOOL} tool. */
  jsonTool?: string;
  /** False when the caller asked for reasoning to be used but not returned. */
  includeReasoning: boolean;
}

/**
 * Builds the body shared by `converse` and `converse-stream`.
 *
 * - `temperature` and `topP` are clamped to Converse's 0..1; `topP` is sent only without
 *   `temperature` (newer Claude models refuse both, and OpenAI clients send `top_p: 1` by habit).
 * - Tool choice: `required` is `any`, a named tool is `tool`. Converse has no `none`: the tools
 *   are left out, unless the history holds tool blocks (Converse then demands `toolConfig`), in
 *   which case they are sent without a choice. Forced choices work on Claude, Mistral Large and
 *   Nova; other models answer a ValidationException.
 * - Reasoning on a Claude model becomes `additionalModelRequestFields.thinking`, `maxTokens`
 *   staying the caller's limit when the budget fits in it (see `maxTokensWithThinking`); sampling
 *   overrides are dropped and forced tool choice becomes `auto`, because Claude refuses both
 *   while thinking.
 * - Cache breakpoints (Anthropic's `cache_control`) become `cachePoint` blocks after what they
 *   mark, in `system`, `messages` and `toolConfig.tools`, for the models that take them.
 * - `n` is ignored (Converse returns one answer); the pipeline fans out.
 */
export function buildBedrockRequest(request: ProviderChatRequest): PreparedBedrockRequest {
  const caching = takesCachePoints(request.model);
  const prompt = convertToBedrockMessages(request.messages, caching);
  const body: BedrockConverseBody = { messages: prompt.messages };
  if (prompt.system) body.system = prompt.system;

  const budget = isClaude(request.model) ? thinkingBudget(request) : undefined;
  const config: BedrockInferenceConfig = {};
  if (budget !== undefined) {
    config.maxTokens = maxTokensWithThinking(request.maxTokens, budget, BEDROCK_DEFAULT_MAX_TOKENS);
    body.additionalModelRequestFields = { thinking: { type: 'enabled', budget_tokens: budget } };
  } else {
    if (request.maxTokens !== undefined) config.maxTokens = request.maxTokens;
    if (request.temperature !== undefined) config.temperature = clamp01(request.temperature);
    else if (request.topP !== undefined) config.topP = clamp01(request.topP);
  }
  if (request.stop && request.stop.length > 0) config.stopSequences = request.stop;
  if (Object.keys(config).length > 0) body.inferenceConfig = config;

  const prepared: PreparedBedrockRequest = { body, includeReasoning: request.reasoning?.exclude !== true };
  const thinking = budget !== undefined;
  const userTools = (request.tools ?? []).flatMap((tool) => [toBedrockTool(tool), ...(caching ? cachePoint(tool.cacheControl) : [])]);
  const format = request.responseFormat;
  if (format && format.type !== 'text') {
    prepared.jsonTool = BEDROCK_JSON_TOOL;
    const description =
      format.type === 'json_schema'
        ? (format.description ?? `Give the final answer as JSON matching the "${format.name}" schema.`)
        : 'Give the final answer as a JSON object.';
    const jsonTool: BedrockTool = {
      toolSpec: { name: BEDROCK_JSON_TOOL, description, inputSchema: { json: objectSchema(format.type === 'json_schema' ? format.schema : undefined) } },
    };
    body.toolConfig = { tools: [...userTools, jsonTool], toolChoice: jsonToolChoice(request, userTools.length > 0, thinking) };
    if (thinking) {
      // Forced tool use is refused while thinking, so ask for the tool in words instead.
      body.system = [...(body.system ?? []), { text: `Give your final answer by calling the ${BEDROCK_JSON_TOOL} tool.` }];
    }
  } else if (userTools.length > 0 && (request.toolChoice !== 'none' || prompt.usesTools)) {
    body.toolConfig = { tools: userTools };
    const choice = toolChoice(request, thinking);
    if (choice) body.toolConfig.toolChoice = choice;
  }
  return prepared;
}

/**
 * Models that take `cachePoint` blocks (Bedrock's prompt caching): Claude and Amazon Nova. Other
 * models answer a ValidationException, so their requests carry no cache points.
 */
export function takesCachePoints(modelId: string): boolean {
  return isClaude(modelId) || /amazon\.nova/i.test(modelId);
}

/** Claude model ids, cross-region inference profiles (`us.anthropic.claude-...`) and ARNs naming one. */
export function isClaude(modelId: string): boolean {
  return /anthropic\.claude|(^|[/.])claude-/i.test(modelId);
}

function thinkingBudget(request: ProviderChatRequest): number | undefined {
  const reasoning = request.reasoning;
  if (reasoning?.enabled === false) return undefined;
  if (reasoning?.maxTokens !== undefined) return Math.max(BEDROCK_CLAUDE_THINKING_BUDGETS.minimal, Math.floor(reasoning.maxTokens));
  const effort = reasoning?.effort ?? request.reasoningEffort;
  if (effort) return BEDROCK_CLAUDE_THINKING_BUDGETS[effort];
  return reasoning?.enabled === true ? BEDROCK_CLAUDE_THINKING_BUDGETS.medium : undefined;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

function toBedrockTool(tool: ToolDefinition): BedrockTool {
  const spec: BedrockTool['toolSpec'] = { name: tool.name, inputSchema: { json: objectSchema(tool.parameters) } };
  if (tool.description) spec.description = tool.description;
  return { toolSpec: spec };
}

/** Converse requires an object schema; OpenAI-style callers may omit it. */
function objectSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!schema) return { type: 'object', properties: {} };
  return schema.type === undefined ? { type: 'object', ...schema } : schema;
}

function toolChoice(request: ProviderChatRequest, thinking: boolean): BedrockToolChoice | undefined {
  const choice = request.toolChoice;
  if (choice === undefined || choice === 'none') return undefined;
  if (choice === 'auto' || thinking) return { auto: {} };
  return choice === 'required' ? { any: {} } : { tool: { name: choice.name } };
}

/**
 * JSON mode: without caller tools (or with `tool_choice: none`) the JSON tool is forced; with
 * caller tools the model must call *some* tool (`any`): a caller tool or the JSON answer.
 */
function jsonToolChoice(request: ProviderChatRequest, hasUserTools: boolean, thinking: boolean): BedrockToolChoice {
  const choice = request.toolChoice;
  if (thinking) return { auto: {} };
  if (!hasUserTools || choice === 'none') return { tool: { name: BEDROCK_JSON_TOOL } };
  if (typeof choice === 'object') return { tool: { name: choice.name } };
  return { any: {} };
}
