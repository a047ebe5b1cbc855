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

/**
 * Turns ConverseStream events into canonical stream events as they arrive: text, reasoning and
 * tool-input fragments pass through one by one; `finish` goes out at `messageStop` and `usage`
 * at `metadata`, which Bedrock sends after it. A stream that ends before `messageStop` throws
 * rather than passing off a truncated answer.
 *
 * `meta` carries what Converse does not put in the stream: the request id and the model asked for.
 */
export async function* streamBedrockEvents(
  frames: AsyncIterable<BedrockEventFrame>,
  prepared: Pick<PreparedBedrockRequest, 'jsonTool' | 'includeReasoning'>,
  meta: { model: string; id?: string },
): AsyncGenerator<StreamEvent> {
  const tools = new Map<number, ToolBlock>();
  let toolCount = 0;
  let jsonUsed = false;
  let stopped = false;
  let usage: BedrockUsage | undefined;

  for await (const frame of frames) {
    switch (frame.event) {
      case 'messageStart': {
        const start: Extract<StreamEvent, { type: 'meta' }> = { type: 'meta', model: meta.model };
        if (meta.id) start.id = meta.id;
        yield start;
        break;
      }
      case 'contentBlockStart': {
        const { contentBlockIndex: index, start } = parseBedrockWire(contentBlockStartSchema, frame.payload, 'contentBlockStart event');
        const toolUse = start?.toolUse;
        if (!toolUse) break;
        if (prepared.jsonTool !== undefined && toolUse.name === prepared.jsonTool) {
          jsonUsed = true;
          tools.set(index, { kind: 'json', ordinal: -1, sent: false });
        } else {
          const ordinal = toolCount++;
          tools.set(index, { kind: 'tool', ordinal, sent: false });
          // id and name go out at once, so a client can show the call before its arguments.
          yield { type: 'tool-call-delta', choice: 0, index: ordinal, id: toolUse.toolUseId, name: toolUse.name, argumentsDelta: '' };
        }
        break;
      }
      case 'contentBlockDelta': {
        const { contentBlockIndex: index, delta } = parseBedrockWire(contentBlockDeltaSchema, frame.payload, 'contentBlockDelta event');
        const tool = tools.get(index);
        if (delta.text) {
          yield { type: 'text-delta', choice: 0, text: delta.text };
        } else if (delta.toolUse?.input && tool) {
          tool.sent = true;
          if (tool.kind === 'tool') yield { type: 'tool-call-delta', choice: 0, index: tool.ordinal, argumentsDelta: delta.toolUse.input };
          else yield { type: 'text-delta', choice: 0, text: delta.toolUse.input };
        } else if (delta.reasoningContent?.text && prepared.includeReasoning) {
          // `signature` and `redactedContent` fragments carry nothing a caller can read.
          yield { type: 'reasoning-delta', choice: 0, text: delta.reasoningContent.text };
        }
        break;
      }
      case 'contentBlockStop': {
        const { contentBlockIndex: index } = parseBedrockWire(contentBlockStopSchema, frame.payload, 'contentBlockStop event');
        const tool = tools.get(index);
        // A call without arguments streams no input; canonical arguments are JSON text.
        if (tool && !tool.sent) {
          tool.sent = true;
          if (tool.kind === 'tool') yield { type: 'tool-call-delta', choice: 0, index: tool.ordinal, argumentsDelta: '{}' };
          else yield { type: 'text-delta', choice: 0, text: '{}' };
        }
        break;
      }
      case 'messageStop': {
        const { stopReason } = parseBedrockWire(messageStopSchema, frame.payload, 'messageStop event');
        stopped = true;
        yield { type: 'finish', choice: 0, finishReason: mapBedrockStopReason(stopReason, jsonUsed && toolCount === 0) };
        break;
      }
      case 'metadata': {
        const metadata = parseBedrockWire(metadataSchema, frame.payload, 'metadata event');
        if (metadata.usage) usage = metadata.usage;
        break;
      }
      // Event types added later carry nothing we translate.
    }
  }
  if (!stopped) throw new ProviderError({ provider: PROVIDER, kind: 'server', message: 'bedrock stream ended before messageStop.' });
  if (usage) yield { type: 'usage', usage: mapBedrockUsage(usage) };
}
