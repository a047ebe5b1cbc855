import { ProviderError, type StreamEvent } from '@svc/core';
import type { EventSourceMessage } from 'eventsource-parser';
import { parseSseJson } from '../shared/sse.js';
import { type GeminiUsage, geminiResponseSchema, parseGeminiWire } from './gemini-api.js';
import { blockedPromptError, geminiToolCallId, mapGeminiUsage } from './gemini-chat.js';
import { geminiStreamError } from './gemini-error.js';
import type { PreparedGeminiRequest } from './gemini-request.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

const PROVIDER = 'gemini';

/**
 * Turns `streamGenerateContent?alt=sse` chunks (each a partial GenerateContentResponse) into
 * canonical events as they arrive: text and thought deltas per candidate, each function call
 * as one complete tool-call delta and its end (Gemini never splits a call's arguments), a `finish` per
 * candidate when its finishReason arrives, and the last usage report at the end.
 *
 * Gemini sends no terminal sentinel; the stream is complete when every candidate it mentioned
 * has finished. Ending before that throws rather than passing off a truncated answer.
 */
export async function* streamGeminiEvents(
  messages: AsyncIterable<EventSourceMessage>,
  prepared: Pick<PreparedGeminiRequest, 'includeReasoning'>,
): AsyncGenerator<StreamEvent> {
  const toolCounts: number[] = [];
  const seen = new Set<number>();
  const finished = new Set<number>();
  let usage: GeminiUsage | undefined;
  let started = false;

  for await (const message of messages) {
    const chunk = parseGeminiWire(geminiResponseSchema, parseSseJson(PROVIDER, message.data), 'stream chunk');
    if (chunk.error) throw geminiStreamError(chunk.error);
    const candidates = chunk.candidates ?? [];
    if (!started) {
      started = true;
      if (candidates.length === 0 && chunk.promptFeedback?.blockReason) throw blockedPromptError(chunk);
      const meta: Extract<StreamEvent, { type: 'meta' }> = { type: 'meta' };
      if (chunk.responseId) meta.id = chunk.responseId;
      if (chunk.modelVersion) meta.model = chunk.modelVersion;
      yield meta;
    }
    for (let position = 0; position < candidates.length; position++) {
      const candidate = candidates[position]!;
      const choice = candidate.index ?? position;
      seen.add(choice);
      for (const part of candidate.content?.parts ?? []) {
        if (part.functionCall) {
          const index = toolCounts[choice] ?? 0;
          toolCounts[choice] = index + 1;
          const call = part.functionCall;
          yield { type: 'tool-call-delta', choice, index, id: call.id ?? geminiToolCallId(), name: call.name, argumentsDelta: JSON.stringify(call.args ?? {}) };
          yield { type: 'tool-call-end', choice, index };
        } else if (part.text) {
          if (!part.thought) yield { type: 'text-delta', choice, text: part.text };
          else if (prepared.includeReasoning) yield { type: 'reasoning-delta', choice, text: part.text };
        }
      }
      if (candidate.finishReason && !finished.has(choice)) {
        finished.add(choice);
        yield { type: 'finish', choice, finishReason: mapGeminiFinishReason(candidate.finishReason, (toolCounts[choice] ?? 0) > 0) };
      }
    }
    // Each report is cumulative; the last one counts.
    if (chunk.usageMetadata) usage = chunk.usageMetadata;
  }

  if (seen.size === 0 || finished.size < seen.size) {
    throw new ProviderError({ provider: PROVIDER, kind: 'server', message: 'gemini stream ended before every candidate finished.' });
  }
  if (usage) yield { type: 'usage', usage: mapGeminiUsage(usage) };
}
