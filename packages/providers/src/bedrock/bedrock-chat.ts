import type { ChatResult, ToolCall, Usage } from '@svc/core';
import { type BedrockUsage, converseResponseSchema, parseBedrockWire } from './bedrock-api.js';
import type { PreparedBedrockRequest } from './bedrock-request.js';
import { mapBedrockStopReason } from './map-bedrock-stop-reason.js';

/**
 * Converts a Converse response to the canonical result: text blocks are concatenated, `toolUse`
 * blocks become tool calls (input re-serialised to JSON text), `reasoningContent` becomes
 * `reasoning`, and a call of the JSON-mode tool becomes the answer's content.
 *
 * Converse echoes neither a response id nor the model: the caller passes the request id
 * (`x-amzn-requestid`) and the model id it asked for.
 */
export function parseBedrockResponse(
  json: unknown,
  prepared: Pick<PreparedBedrockRequest, 'jsonTool' | 'includeReasoning'>,
  meta: { model: string; id?: string },
): ChatResult {
  const response = parseBedrockWire(converseResponseSchema, json, 'Converse response');
  let text = '';
  let reasoning = '';
  let jsonAnswer: string | undefined;
  const toolCalls: ToolCall[] = [];
  for (const block of response.output.message?.content ?? []) {
    if (block.text !== undefined) {
      text += block.text;
    } else if (block.toolUse) {
      const args = JSON.stringify(block.toolUse.input ?? {});
      if (prepared.jsonTool !== undefined && block.toolUse.name === prepared.jsonTool) jsonAnswer = args;
      else toolCalls.push({ id: block.toolUse.toolUseId, name: block.toolUse.name, arguments: args });
    } else if (block.reasoningContent?.reasoningText?.text) {
      reasoning += block.reasoningContent.reasoningText.text;
    }
  }
  // A JSON answer replaces any preamble text so the content stays parseable JSON.
  const content = jsonAnswer ?? (text === '' ? null : text);
  const finishReason = mapBedrockStopReason(response.stopReason, jsonAnswer !== undefined && toolCalls.length === 0);
  const message: ChatResult['choices'][number]['message'] = { role: 'assistant', content };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  if (reasoning !== '' && prepared.includeReasoning) message.reasoning = reasoning;
  const result: ChatResult = { model: meta.model, choices: [{ index: 0, message, finishReason }] };
  if (meta.id) result.id = meta.id;
  if (response.usage) result.usage = mapBedrockUsage(response.usage);
  return result;
}

/**
 * Converse's `inputTokens` excludes prompt-cache reads and writes (as Anthropic's does); the
 * canonical prompt count is the whole prompt, with the cached parts split out for pricing.
 */
export function mapBedrockUsage(usage: BedrockUsage): Usage {
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const cacheWrite = usage.cacheWriteInputTokens ?? 0;
  const promptTokens = (usage.inputTokens ?? 0) + cacheRead + cacheWrite;
  const completionTokens = usage.outputTokens ?? 0;
  const out: Usage = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
  if (cacheRead > 0) out.cachedPromptTokens = cacheRead;
  if (cacheWrite > 0) out.cacheWriteTokens = cacheWrite;
  return out;
}
