import type { ReasoningEffort, ToolDefinition } from '@svc/core';
import type { ProviderChatRequest } from '../provider.js';
import type { GeminiFunctionDeclaration, GeminiGenerateContentBody, GeminiGenerationConfig } from './gemini-api.js';
import { isEmptyObjectSchema, toGeminiSchema } from './gemini-schema.js';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';

/**
 * `thinkingBudget` per reasoning effort. 512 is the smallest budget every thinking model
 * accepts (2.5 Flash-Lite's minimum), so `minimal` still works across the family.
 */
export const GEMINI_THINKING_BUDGETS: Readonly<Record<ReasoningEffort, number>> = {
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
};

/** A generateContent body plus what the response reader must know about how it was built. */
export interface PreparedGeminiRequest {
  body: GeminiGenerateContentBody;
  /** Choices asked for (`candidateCount`). */
  n: number;
  /** False when the caller asked for reasoning to be used but not returned. */
  includeReasoning: boolean;
}

/**
 * Builds the body shared by `generateContent` and `streamGenerateContent`.
 *
 * - JSON mode is native: `responseMimeType: application/json`, plus `responseSchema` (the JSON
 *   Schema converted to Gemini's subset, see `toGeminiSchema`) for `json_schema`.
 * - Reasoning maps to `thinkingConfig`: `reasoning.maxTokens` or the effort table above sets
 *   `thinkingBudget`; `reasoning.enabled: true` alone asks for a dynamic budget (-1) and
 *   `enabled: false` for none (0, which Pro models refuse). Thoughts are returned unless
 *   `reasoning.exclude`. `maxOutputTokens` counts thinking tokens, as OpenAI's max tokens do.
 * - Tool choice maps to `functionCallingConfig` (`required` is `ANY`; a named tool is `ANY`
 *   restricted to that name). `parallelToolCalls` has no Gemini equivalent and is ignored.
 * - `logprobs` is not mapped.
 */
export function buildGeminiRequest(request: ProviderChatRequest): PreparedGeminiRequest {
  const prompt = convertToGeminiContents(request.messages);
  const body: GeminiGenerateContentBody = { contents: prompt.contents };
  if (prompt.systemInstruction) body.systemInstruction = prompt.systemInstruction;

  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = [{ functionDeclarations: tools.map(toDeclaration) }];
    const choice = request.toolChoice;
    if (choice === 'auto') body.toolConfig = { functionCallingConfig: { mode: 'AUTO' } };
    else if (choice === 'none') body.toolConfig = { functionCallingConfig: { mode: 'NONE' } };
    else if (choice === 'required') body.toolConfig = { functionCallingConfig: { mode: 'ANY' } };
    else if (choice) body.toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  }

  const config: GeminiGenerationConfig = {};
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.stop && request.stop.length > 0) config.stopSequences = request.stop;
  if (request.n > 1) config.candidateCount = request.n;
  if (request.seed !== undefined) config.seed = request.seed;
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty;
  const format = request.responseFormat;
  if (format && format.type !== 'text') {
    config.responseMimeType = 'application/json';
    if (format.type === 'json_schema' && format.schema) config.responseSchema = toGeminiSchema(format.schema);
  }
  const includeReasoning = request.reasoning?.exclude !== true;
  const budget = thinkingBudget(request);
  if (budget !== undefined) config.thinkingConfig = budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: includeReasoning };
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return { body, n: Math.max(1, request.n), includeReasoning };
}

function thinkingBudget(request: ProviderChatRequest): number | undefined {
  const reasoning = request.reasoning;
  if (reasoning?.enabled === false) return 0;
  if (reasoning?.maxTokens !== undefined) return Math.max(0, Math.floor(reasoning.maxTokens));
  const effort = reasoning?.effort ?? request.reasoningEffort;
  if (effort) return GEMINI_THINKING_BUDGETS[effort];
  return reasoning?.enabled === true ? -1 : undefined;
}

function toDeclaration(tool: ToolDefinition): GeminiFunctionDeclaration {
  const declaration: GeminiFunctionDeclaration = { name: tool.name };
  if (tool.description) declaration.description = tool.description;
  // Gemini rejects an OBJECT schema with no properties; a parameterless function omits it.
  if (!isEmptyObjectSchema(tool.parameters) && tool.parameters) declaration.parameters = toGeminiSchema(tool.parameters);
  return declaration;
}
