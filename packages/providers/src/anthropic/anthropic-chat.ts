import type { ChatResult, ToolCall, Usage } from '@svc/core';
import { type AnthropicUsage, anthropicMessageSchema, parseAnthropicWire } from './anthropic-api.js';
import type { PreparedAnthropicRequest } from './anthropic-request.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

/**
 * Converts a non-streaming Messages response to the canonical result: text blocks are
 * concatenated, `tool_use` blocks become tool calls (input re-serialised to JSON text), thinking
 * blocks become `reasoning`, and a call of the JSON-mode tool becomes the answer's content.
 */
export function parseAnthropicMessage(json: unknown, prepared: Pick<PreparedAnthropicRequest, 'jsonTool' | 'includeReasoning'>): ChatResult {
  const message = parseAnthropicWire(anthropicMessageSchema, json, 'message');
  let text = '';
  let reasoning = '';
  let jsonAnswer: string | undefined;
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case 'text':
        text += block.text ?? '';
        break;
      case 'thinking':
        reasoning += block.thinking ?? '';
        break;
      case 'tool_use': {
        const args = JSON.stringify(block.input ?? {});
        if (prepared.jsonTool !== undefined && block.name === prepared.jsonTool) jsonAnswer = args;
        else toolCalls.push({ id: block.id ?? '', name: block.name ?? '', arguments: args });
        break;
      }
      // redacted_thinking, server tool blocks: nothing a chat-completions caller can use.
    }
  }
  // A JSON answer replaces any preamble text so the content stays parseable JSON.
  const content = jsonAnswer ?? (text === '' ? null : text);
  const finishReason = mapAnthropicStopReason(message.stop_reason, jsonAnswer !== undefined && toolCalls.length === 0);
  const assistant: ChatResult['choices'][number]['message'] = { role: 'assistant', content };
  if (toolCalls.length > 0) assistant.toolCalls = toolCalls;
  if (reasoning !== '' && prepared.includeReasoning) assistant.reasoning = reasoning;
  return {
    id: message.id,
    model: message.model,
    choices: [{ index: 0, message: assistant, finishReason }],
    usage: mapAnthropicUsage(message.usage),
  };
}

/**
 * Anthropic's `input_tokens` excludes cached tokens; the canonical prompt count is the whole
 * prompt, with the cache-read and cache-write parts split out for pricing.
 */
export function mapAnthropicUsage(usage: AnthropicUsage): Usage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const promptTokens = (usage.input_tokens ?? 0) + cacheRead + cacheWrite;
  const completionTokens = usage.output_tokens ?? 0;
  const out: Usage = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
  if (cacheRead > 0) out.cachedPromptTokens = cacheRead;
  if (cacheWrite > 0) out.cacheWriteTokens = cacheWrite;
  const oneHour = Math.min(cacheWrite, usage.cache_creation?.ephemeral_1h_input_tokens ?? 0);
  if (oneHour > 0) out.cacheWrite1hTokens = oneHour;
  return out;
}
