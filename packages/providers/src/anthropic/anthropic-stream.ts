import { ProviderError, type StreamEvent } from '@svc/core';
import type { EventSourceMessage } from 'eventsource-parser';
import { parseSseJson } from '../shared/sse.js';
import {
  type AnthropicUsage,
  contentBlockDeltaSchema,
  contentBlockStartSchema,
  contentBlockStopSchema,
  errorEventSchema,
  messageDeltaSchema,
  messageStartSchema,
  parseAnthropicWire,
} from './anthropic-api.js';
import { mapAnthropicUsage } from './anthropic-chat.js';
import { anthropicStreamError } from './anthropic-error.js';
import type { PreparedAnthropicRequest } from './anthropic-request.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

/** What one content block index of the stream carries. */
type Block =
  | { kind: 'text' | 'thinking' | 'other' }
  /** `ordinal` is the canonical tool-call index; `sent` whether any argument text went out. */
  | { kind: 'tool' | 'json'; ordinal: number; sent: boolean };

const PROVIDER = 'anthropic';

type Prepared = Pick<PreparedAnthropicRequest, 'jsonTool' | 'includeReasoning'>;

/** What the stream has seen so far. */
interface StreamState {
  blocks: Block[];
  toolCount: number;
  jsonUsed: boolean;
  stopReason: string | null | undefined;
  /** Overwritten, never summed: message_delta usage is cumulative. */
  usage: AnthropicUsage;
}

function messageStart(state: StreamState, data: string): StreamEvent {
  const start = parseAnthropicWire(messageStartSchema, parseSseJson(PROVIDER, data), 'message_start event').message;
  if (start.usage) assignDefined(state.usage, start.usage);
  const meta: Extract<StreamEvent, { type: 'meta' }> = { type: 'meta' };
  if (start.id) meta.id = start.id;
  if (start.model) meta.model = start.model;
  return meta;
}

function blockStart(state: StreamState, data: string, prepared: Prepared): StreamEvent | undefined {
  const { index, content_block: block } = parseAnthropicWire(contentBlockStartSchema, parseSseJson(PROVIDER, data), 'content_block_start event');
  if (block.type === 'tool_use') {
    if (prepared.jsonTool !== undefined && block.name === prepared.jsonTool) {
      state.jsonUsed = true;
      state.blocks[index] = { kind: 'json', ordinal: -1, sent: false };
      return undefined;
    }
    const ordinal = state.toolCount++;
    state.blocks[index] = { kind: 'tool', ordinal, sent: false };
    // id and name go out at once, so a client can show the call before its arguments.
    return { type: 'tool-call-delta', choice: 0, index: ordinal, id: block.id ?? '', name: block.name ?? '', argumentsDelta: '' };
  }
  if (block.type === 'text') {
    state.blocks[index] = { kind: 'text' };
    return block.text ? { type: 'text-delta', choice: 0, text: block.text } : undefined;
  }
  state.blocks[index] = { kind: block.type === 'thinking' ? 'thinking' : 'other' };
  return undefined;
}

function blockDelta(state: StreamState, data: string, prepared: Prepared): StreamEvent | undefined {
  const { index, delta } = parseAnthropicWire(contentBlockDeltaSchema, parseSseJson(PROVIDER, data), 'content_block_delta event');
  const block = state.blocks[index];
  if (!block) return undefined;
  if (delta.type === 'text_delta' && block.kind === 'text' && delta.text) return { type: 'text-delta', choice: 0, text: delta.text };
  if (delta.type === 'input_json_delta' && delta.partial_json) {
    if (block.kind === 'tool') {
      block.sent = true;
      return { type: 'tool-call-delta', choice: 0, index: block.ordinal, argumentsDelta: delta.partial_json };
    }
    if (block.kind === 'json') {
      block.sent = true;
      return { type: 'text-delta', choice: 0, text: delta.partial_json };
    }
    return undefined;
  }
  if (delta.type === 'thinking_delta' && block.kind === 'thinking' && delta.thinking && prepared.includeReasoning) return { type: 'reasoning-delta', choice: 0, text: delta.thinking };
  return undefined;
}

function blockStop(state: StreamState, data: string): StreamEvent[] | undefined {
  const { index } = parseAnthropicWire(contentBlockStopSchema, parseSseJson(PROVIDER, data), 'content_block_stop event');
  const block = state.blocks[index];
  if (block?.kind === 'tool') {
    const end: StreamEvent = { type: 'tool-call-end', choice: 0, index: block.ordinal };
    // A call without arguments streams no input_json_delta; canonical arguments are JSON text.
    return block.sent ? [end] : [{ type: 'tool-call-delta', choice: 0, index: block.ordinal, argumentsDelta: '{}' }, end];
  }
  if (block?.kind === 'json' && !block.sent) return [{ type: 'text-delta', choice: 0, text: '{}' }];
  return undefined;
}

/** The events of one content-block or message_start message; undefined for what carries nothing to send. */
function translate(state: StreamState, message: EventSourceMessage, prepared: Prepared): StreamEvent | StreamEvent[] | undefined {
  switch (message.event) {
    case 'message_start':
      return messageStart(state, message.data);
    case 'content_block_start':
      return blockStart(state, message.data, prepared);
    case 'content_block_delta':
      return blockDelta(state, message.data, prepared);
    case 'content_block_stop':
      return blockStop(state, message.data);
    case 'message_delta': {
      const delta = parseAnthropicWire(messageDeltaSchema, parseSseJson(PROVIDER, message.data), 'message_delta event');
      state.stopReason = delta.delta.stop_reason;
      if (delta.usage) assignDefined(state.usage, delta.usage);
      return undefined;
    }
    case 'error':
      throw anthropicStreamError(parseAnthropicWire(errorEventSchema, parseSseJson(PROVIDER, message.data), 'error event').error);
    // `ping` and event types added after 2023-06-01 carry nothing we translate.
    default:
      return undefined;
  }
}

/**
 * Turns Anthropic's SSE events into canonical stream events as they arrive: text, thinking and
 * tool-argument fragments pass through one by one; `finish` and `usage` are emitted at
 * `message_stop`. A stream that ends before `message_stop` throws rather than ending quietly,
 * and `event: error` throws the classified ProviderError.
 */
export async function* streamAnthropicEvents(messages: AsyncIterable<EventSourceMessage>, prepared: Prepared): AsyncGenerator<StreamEvent> {
  const state: StreamState = { blocks: [], toolCount: 0, jsonUsed: false, stopReason: undefined, usage: {} };
  for await (const message of messages) {
    if (message.event === 'message_stop') {
      yield { type: 'finish', choice: 0, finishReason: mapAnthropicStopReason(state.stopReason, state.jsonUsed && state.toolCount === 0) };
      yield { type: 'usage', usage: mapAnthropicUsage(state.usage) };
      return;
    }
    const event = translate(state, message, prepared);
    if (Array.isArray(event)) yield* event;
    else if (event) yield event;
  }
  throw new ProviderError({ provider: PROVIDER, kind: 'server', message: 'anthropic stream ended before message_stop.' });
}

/** Copies the counts message_delta reports, leaving earlier ones it omits (or nulls) intact. */
function assignDefined(target: AnthropicUsage, source: AnthropicUsage): void {
  if (source.input_tokens != null) target.input_tokens = source.input_tokens;
  if (source.output_tokens != null) target.output_tokens = source.output_tokens;
  if (source.cache_read_input_tokens != null) target.cache_read_input_tokens = source.cache_read_input_tokens;
  if (source.cache_creation_input_tokens != null) target.cache_creation_input_tokens = source.cache_creation_input_tokens;
  if (source.cache_creation != null) target.cache_creation = source.cache_creation;
}
