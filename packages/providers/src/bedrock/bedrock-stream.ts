import { ProviderError, type StreamEvent } from '@svc/core';
import {
  type BedrockUsage,
  contentBlockDeltaSchema,
  contentBlockStartSchema,
  contentBlockStopSchema,
  messageStopSchema,
  metadataSchema,
  parseBedrockWire,
} from './bedrock-api.js';
import { mapBedrockUsage } from './bedrock-chat.js';
import type { BedrockEventFrame } from './bedrock-event-stream.js';
import type { PreparedBedrockRequest } from './bedrock-request.js';
import { mapBedrockStopReason } from './map-bedrock-stop-reason.js';

/** A tool block of the stream: `ordinal` is the canonical tool-call index, `sent` whether any argument text went out. */
type ToolBlock = { kind: 'tool' | 'json'; ordinal: number; sent: boolean };

const PROVIDER = 'bedrock';

type Prepared = Pick<PreparedBedrockRequest, 'jsonTool' | 'includeReasoning'>;

/** What the stream has seen so far. */
interface StreamState {
  tools: Map<number, ToolBlock>;
  toolCount: number;
  jsonUsed: boolean;
  stopped: boolean;
  usage: BedrockUsage | undefined;
}

function blockStart(state: StreamState, payload: unknown, prepared: Prepared): StreamEvent | undefined {
  const { contentBlockIndex: index, start } = parseBedrockWire(contentBlockStartSchema, payload, 'contentBlockStart event');
  const toolUse = start?.toolUse;
  if (!toolUse) return undefined;
  if (prepared.jsonTool !== undefined && toolUse.name === prepared.jsonTool) {
    state.jsonUsed = true;
    state.tools.set(index, { kind: 'json', ordinal: -1, sent: false });
    return undefined;
  }
  const ordinal = state.toolCount++;
  state.tools.set(index, { kind: 'tool', ordinal, sent: false });
  // id and name go out at once, so a client can show the call before its arguments.
  return { type: 'tool-call-delta', choice: 0, index: ordinal, id: toolUse.toolUseId, name: toolUse.name, argumentsDelta: '' };
}

function blockDelta(state: StreamState, payload: unknown, prepared: Prepared): StreamEvent | undefined {
  const { contentBlockIndex: index, delta } = parseBedrockWire(contentBlockDeltaSchema, payload, 'contentBlockDelta event');
  const tool = state.tools.get(index);
  if (delta.text) return { type: 'text-delta', choice: 0, text: delta.text };
  if (delta.toolUse?.input && tool) {
    tool.sent = true;
    if (tool.kind === 'tool') return { type: 'tool-call-delta', choice: 0, index: tool.ordinal, argumentsDelta: delta.toolUse.input };
    return { type: 'text-delta', choice: 0, text: delta.toolUse.input };
  }
  // `signature` and `redactedContent` fragments carry nothing a caller can read.
  if (delta.reasoningContent?.text && prepared.includeReasoning) return { type: 'reasoning-delta', choice: 0, text: delta.reasoningContent.text };
  return undefined;
}

function blockStop(state: StreamState, payload: unknown): StreamEvent[] | undefined {
  const { contentBlockIndex: index } = parseBedrockWire(contentBlockStopSchema, payload, 'contentBlockStop event');
  const tool = state.tools.get(index);
  if (!tool) return undefined;
  const events: StreamEvent[] = [];
  // A call without arguments streams no input; canonical arguments are JSON text.
  if (!tool.sent) {
    tool.sent = true;
    events.push(tool.kind === 'tool' ? { type: 'tool-call-delta', choice: 0, index: tool.ordinal, argumentsDelta: '{}' } : { type: 'text-delta', choice: 0, text: '{}' });
  }
  if (tool.kind === 'tool') events.push({ type: 'tool-call-end', choice: 0, index: tool.ordinal });
  return events;
}

/** The events of one frame; undefined for what carries nothing to send. */
function translate(state: StreamState, frame: BedrockEventFrame, prepared: Prepared, meta: { model: string; id?: string }): StreamEvent | StreamEvent[] | undefined {
  switch (frame.event) {
    case 'messageStart': {
      const start: Extract<StreamEvent, { type: 'meta' }> = { type: 'meta', model: meta.model };
      if (meta.id) start.id = meta.id;
      return start;
    }
    case 'contentBlockStart':
      return blockStart(state, frame.payload, prepared);
    case 'contentBlockDelta':
      return blockDelta(state, frame.payload, prepared);
    case 'contentBlockStop':
      return blockStop(state, frame.payload);
    case 'messageStop': {
      const { stopReason } = parseBedrockWire(messageStopSchema, frame.payload, 'messageStop event');
      state.stopped = true;
      return { type: 'finish', choice: 0, finishReason: mapBedrockStopReason(stopReason, state.jsonUsed && state.toolCount === 0) };
    }
    case 'metadata': {
      const metadata = parseBedrockWire(metadataSchema, frame.payload, 'metadata event');
      if (metadata.usage) state.usage = metadata.usage;
      return undefined;
    }
    // Event types added later carry nothing we translate.
    default:
      return undefined;
  }
}

/**
 * Turns ConverseStream events into canonical stream events as they arrive: text, reasoning and
 * tool-input fragments pass through one by one; `finish` goes out at `messageStop` and `usage`
 * at `metadata`, which Bedrock sends after it. A stream that ends before `messageStop` throws
 * rather than passing off a truncated answer.
 *
 * `meta` carries what Converse does not put in the stream: the request id and the model asked for.
 */
export async function* streamBedrockEvents(frames: AsyncIterable<BedrockEventFrame>, prepared: Prepared, meta: { model: string; id?: string }): AsyncGenerator<StreamEvent> {
  const state: StreamState = { tools: new Map(), toolCount: 0, jsonUsed: false, stopped: false, usage: undefined };
  for await (const frame of frames) {
    const event = translate(state, frame, prepared, meta);
    if (Array.isArray(event)) yield* event;
    else if (event) yield event;
  }
  if (!state.stopped) throw new ProviderError({ provider: PROVIDER, kind: 'server', message: 'bedrock stream ended before messageStop.' });
  if (state.usage) yield { type: 'usage', usage: mapBedrockUsage(state.usage) };
}
