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

/**
 * Turns Anthropic's SSE events into canonical stream events as they arrive: text, thinking and
 * tool-argument fragments pass through one by one; `finish` and `usage` are emitted at
 * `message_stop`. A stream that ends before `message_stop` throws rather than ending quietly,
 * and `event: error` throws the classified ProviderError.
 */
export async function* streamAnthropicEvents(
  messages: AsyncIterable<EventSourceMessage>,
  prepared: Pick<PreparedAnthropicRequest, 'jsonTool' | 'includeReasoning'>,
): AsyncGenerator<StreamEvent> {
  const blocks: Block[] = [];
  let toolCount = 0;
  let jsonUsed = false;
  let stopReason: string | null | undefined;
  // Overwritten, never summed: message_delta usage is cumulative.
  const usage: AnthropicUsage = {};

  for await (const message of messages) {
    switch (message.event) {
      case 'message_start': {
        const start = parseAnthropicWire(messageStartSchema, parseSseJson(PROVIDER, message.data), 'message_start event').message;
        if (start.usage) assignDefined(usage, start.usage);
        const meta: Extract<StreamEvent, { type: 'meta' }> = { type: 'meta' };
        if (start.id) meta.id = start.id;
        if (start.model) meta.model = start.model;
        yield meta;
        break;
      }
      case 'content_block_start': {
        const { index, content_block: block } = parseAnthropicWire(contentBlockStartSchema, parseSseJson(PROVIDER, message.data), 'content_block_start event');
        if (block.type === 'tool_use') {
          if (prepared.jsonTool !== undefined && block.name === prepared.jsonTool) {
            jsonUsed = true;
            blocks[index] = { kind: 'json', ordinal: -1, sent: false };
          } else {
            const ordinal = toolCount++;
            blocks[index] = { kind: 'tool', ordinal, sent: false };
            // id and name go out at once, so a client can show the call before its arguments.
            yield { type: 'tool-call-delta', choice: 0, index: ordinal, id: block.id ?? '', name: block.name ?? '', argumentsDelta: '' };
          }
        } else if (block.type === 'text') {
          blocks[index] = { kind: 'text' };
          if (block.text) yield { type: 'text-delta', choice: 0, text: block.text };
        } else {
          blocks[index] = { kind: block.type === 'thinking' ? 'thinking' : 'other' };
        }
        break;
      }
      case 'content_block_delta': {
        const { index, delta } = parseAnthropicWire(contentBlockDeltaSchema, parseSseJson(PROVIDER, message.data), 'content_block_delta event');
        const block = blocks[index];
        if (!block) break;
        if (delta.type === 'text_delta' && block.kind === 'text' && delta.text) {
          yield { type: 'text-delta', choice: 0, text: delta.text };
        } else if (delta.type === 'input_json_delta' && delta.partial_json) {
          if (block.kind === 'tool') {
            block.sent = true;
            yield { type: 'tool-call-delta', choice: 0, index: block.ordinal, argumentsDelta: delta.partial_json };
          } else if (block.kind === 'json') {
            block.sent = true;
            yield { type: 'text-delta', choice: 0, text: delta.partial_json };
          }
        } else if (delta.type === 'thinking_delta' && block.kind === 'thinking' && delta.thinking && prepared.includeReasoning) {
          yield { type: 'reasoning-delta', choice: 0, text: delta.thinking };
        }
        break;
      }
      case 'content_block_stop': {
        const { index } = parseAnthropicWire(contentBlockStopSchema, parseSseJson(PROVIDER, message.data), 'content_block_stop event');
        const block = blocks[index];
        // A call without arguments streams no input_json_delta; canonical arguments are JSON text.
        if (block?.kind === 'tool' && !block.sent) yield { type: 'tool-call-delta', choice: 0, index: block.ordinal, argumentsDelta: '{}' };
        else if (block?.kind === 'json' && !block.sent) yield { type: 'text-delta', choice: 0, text: '{}' };
        break;
      }
      case 'message_delta': {
        const delta = parseAnthropicWire(messageDeltaSchema, parseSseJson(PROVIDER, message.data), 'message_delta event');
        stopReason = delta.delta.stop_reason;
        if (delta.usage) assignDefined(usage, delta.usage);
        break;
      }
      case 'message_stop':
        yield { type: 'finish', choice: 0, finishReason: mapAnthropicStopReason(stopReason, jsonUsed && toolCount === 0) };
        yield { type: 'usage', usage: mapAnthropicUsage(usage) };
        return;
      case 'error':
        throw anthropicStreamError(parseAnthropicWire(errorEventSchema, parseSseJson(PROVIDER, message.data), 'error event').error);
      // `ping` and event types added after 2023-06-01 carry nothing we translate.
    }
  }
  throw new ProviderError({ provider: PROVIDER, kind: 'server', message: 'anthropic stream ended before message_stop.' });
}

/** Copies the counts message_delta reports, leaving earlier ones it omits (or nulls) intact. */
function assignDefined(target: AnthropicUsage, source: AnthropicUsage): void {
  if (source.input_tokens != null) target.input_tokens = source.input_tokens;
  if (source.output_tokens != null) target.output_tokens = source.output_tokens;
  if (source.cache_read_input_tokens != null) target.cache_read_input_tokens = source.cache_read_input_tokens;
  if (source.cache_creation_input_tokens != null) target.cache_creation_input_tokens = source.cache_creation_input_tokens;
}
