import { type ChatChoice, type ChatResult, ProviderError, type ToolCall, type Usage, randomId } from '@svc/core';
import { type GeminiResponse, type GeminiUsage, geminiResponseSchema, parseGeminiWire } from './gemini-api.js';
import type { PreparedGeminiRequest } from './gemini-request.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

/**
 * Converts a generateContent response to the canonical result: one choice per candidate,
 * text parts concatenated, `thought` parts as reasoning, `functionCall` parts as tool calls.
 */
export function parseGeminiResponse(json: unknown, prepared: Pick<PreparedGeminiRequest, 'includeReasoning'>): ChatResult {
  const response = parseGeminiWire(geminiResponseSchema, json, 'response');
  const candidates = response.candidates ?? [];
  if (candidates.length === 0) throw blockedPromptError(response);
  const choices: ChatChoice[] = candidates.map((candidate, position) => {
    let text = '';
    let reasoning = '';
    const toolCalls: ToolCall[] = [];
    for (const part of candidate.content?.parts ?? []) {
      if (part.functionCall) {
        const call = part.functionCall;
        toolCalls.push({ id: call.id ?? geminiToolCallId(), name: call.name, arguments: JSON.stringify(call.args ?? {}) });
      } else if (part.text !== undefined) {
        if (part.thought) reasoning += part.text;
        else text += part.text;
      }
    }
    const message: ChatChoice['message'] = { role: 'assistant', content: text === '' ? null : text };
    if (toolCalls.length > 0) message.toolCalls = toolCalls;
    if (reasoning !== '' && prepared.includeReasoning) message.reasoning = reasoning;
    return { index: candidate.index ?? position, message, finishReason: mapGeminiFinishReason(candidate.finishReason, toolCalls.length > 0) };
  });
  const result: ChatResult = { model: response.modelVersion ?? '', choices };
  if (response.responseId) result.id = response.responseId;
  if (response.usageMetadata) result.usage = mapGeminiUsage(response.usageMetadata);
  return result;
}

/**
 * Gemini has no tool-call ids, but OpenAI-style clients key tool results by id. Ids are random
 * rather than ordinal (`call_0`) so they stay unique across the turns of a conversation.
 */
export function geminiToolCallId(): string {
  return `call_${randomId(24)}`;
}

/**
 * A prompt Gemini refused outright (`promptFeedback.blockReason`, no candidates). This is an
 * error (kind `content_filter`), not an empty answer: nothing was generated, and the caller
 * should learn why rather than receive a silent blank completion. A response with neither
 * candidates nor a block reason is an upstream fault.
 */
export function blockedPromptError(response: GeminiResponse): ProviderError {
  const reason = response.promptFeedback?.blockReason;
  if (!reason) return new ProviderError({ provider: 'gemini', kind: 'server', message: 'gemini answered without candidates.' });
  return new ProviderError({
    provider: 'gemini',
    kind: 'content_filter',
    message: response.promptFeedback?.blockReasonMessage ?? `Gemini blocked the prompt (${reason}).`,
    upstreamCode: reason,
  });
}

/**
 * `candidatesTokenCount` excludes thinking; canonical completion tokens include it, with the
 * thinking share in `reasoningTokens`. `promptTokenCount` already includes cached tokens.
 */
export function mapGeminiUsage(usage: GeminiUsage): Usage {
  const promptTokens = (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0);
  const thoughts = usage.thoughtsTokenCount ?? 0;
  const completionTokens = (usage.candidatesTokenCount ?? 0) + thoughts;
  const out: Usage = { promptTokens, completionTokens, totalTokens: usage.totalTokenCount ?? promptTokens + completionTokens };
  if (usage.cachedContentTokenCount) out.cachedPromptTokens = usage.cachedContentTokenCount;
  if (thoughts > 0) out.reasoningTokens = thoughts;
  return out;
}
