import { ProviderError, type StreamEvent } from '@svc/core';
import type { EventSourceMessage } from 'eventsource-parser';
import { parseSseJson } from '../shared/sse.js';
import { type CohereStreamEvent, cohereStreamEventSchema, parseCohereWire } from './cohere-api.js';
import { mapCohereUsage } from './cohere-chat.js';
import { cohereStreamError } from './cohere-error.js';
import { mapCohereFinishReason } from './map-cohere-finish-reason.js';

/** Arguments of one streamed tool call, held back while they could still be a bare `null`. */
interface PendingCall {
  held: string;
  flushed: boolean;
}

/** The tool calls of the stream so far, by index. */
interface ToolCalls {
  calls: Map<number, PendingCall>;
  count: number;
}

/** A tool call's id and name first, then its argument fragments, `{}` for a call without arguments. */
function* toolCallEvents(tools: ToolCalls, type: string, event: CohereStreamEvent): Generator<StreamEvent> {
  const delta = event.delta;
  if (type === 'tool-call-start') {
    const index = event.index ?? tools.count;
    tools.count = Math.max(tools.count, index + 1);
    const call = delta?.message?.tool_calls;
    const pending: PendingCall = { held: '', flushed: false };
    tools.calls.set(index, pending);
    yield { type: 'tool-call-delta', choice: 0, index, id: call?.id ?? '', name: call?.function?.name ?? '', argumentsDelta: '' };
    const text = argumentsFragment(pending, call?.function?.arguments);
    if (text) yield { type: 'tool-call-delta', choice: 0, index, argumentsDelta: text };
    return;
  }
  const index = event.index ?? tools.count - 1;
  const pending = tools.calls.get(index);
  if (type === 'tool-call-delta') {
    const text = pending && argumentsFragment(pending, delta?.message?.tool_calls?.function?.arguments);
    if (text) yield { type: 'tool-call-delta', choice: 0, index, argumentsDelta: text };
    return;
  }
  // Nothing, or a bare `null`, means a call without arguments: canonical text is `{}`.
  if (pending && !pending.flushed) yield { type: 'tool-call-delta', choice: 0, index, argumentsDelta: pending.held.trim() === '' || pending.held.trim() === 'null' ? '{}' : pending.held };
  if (pending) yield { type: 'tool-call-end', choice: 0, index };
  tools.calls.delete(index);
}

/**
 * Turns Cohere's v2 SSE events into canonical stream events as they arrive: content and
 * tool-plan text as text deltas (the plan is the text before tool calls, as in the non-stream
 * answer), thinking as reasoning, tool calls with id and name first then argument fragments.
 * `finish` and `usage` come from `message-end`. An `error` event, a `message-end` with
 * ERROR/TIMEOUT, or a stream that stops before `message-end` throws, never ends quietly.
 */
export async function* streamCohereEvents(messages: AsyncIterable<EventSourceMessage>): AsyncGenerator<StreamEvent> {
  const tools: ToolCalls = { calls: new Map(), count: 0 };
  for await (const message of messages) {
    const event = parseCohereWire(cohereStreamEventSchema, parseSseJson('cohere', message.data), 'stream event');
    // The data repeats the SSE `event:` name as `type`; either may be missing behind a proxy.
    const type = event.type ?? message.event;
    const delta = event.delta;
    switch (type) {
      case 'message-start':
        yield event.id == null ? { type: 'meta' } : { type: 'meta', id: event.id };
        break;
      case 'content-start':
      case 'content-delta': {
        const content = delta?.message?.content;
        if (content?.text) yield { type: 'text-delta', choice: 0, text: content.text };
        if (content?.thinking) yield { type: 'reasoning-delta', choice: 0, text: content.thinking };
        break;
      }
      case 'tool-plan-delta':
        if (delta?.message?.tool_plan) yield { type: 'text-delta', choice: 0, text: delta.message.tool_plan };
        break;
      case 'tool-call-start':
      case 'tool-call-delta':
      case 'tool-call-end':
        yield* toolCallEvents(tools, type, event);
        break;
      case 'message-end': {
        const reason = delta?.finish_reason;
        const finishReason = mapCohereFinishReason(reason);
        if (finishReason === undefined || delta?.error) throw cohereStreamError(delta?.error, reason ?? undefined);
        yield { type: 'finish', choice: 0, finishReason };
        if (delta?.usage != null) yield { type: 'usage', usage: mapCohereUsage(delta.usage) };
        return;
      }
      case 'error':
        throw cohereStreamError(event.message);
      // content-end, citation-start/-end, debug: nothing a chat-completions caller can use.
    }
  }
  throw new ProviderError({ provider: 'cohere', kind: 'server', message: 'cohere stream ended before message-end.' });
}

/** The fragment to send now: held back while the arguments so far could still be `null`. */
function argumentsFragment(pending: PendingCall, fragment: string | null | undefined): string {
  if (!fragment) return '';
  if (pending.flushed) return fragment;
  pending.held += fragment;
  if ('null'.startsWith(pending.held.trim())) return '';
  pending.flushed = true;
  return pending.held;
}
