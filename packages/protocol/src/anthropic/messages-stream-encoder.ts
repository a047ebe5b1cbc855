import type { FinishReason, GatewayError, StreamEvent, SvcMetadata, Usage } from '@svc/core';
import { encodeMessagesError, toAnthropicUsage, toStopReason } from './encode-messages-response.js';

export interface MessagesStreamEncoderOptions {
  /** Message id (`msg_...`). */
  id: string;
  /** Model reported in `message_start`. */
  model: string;
  /** Makes ids for tool calls the provider streamed without one. */
  toolUseId?: () => string;
}

type OpenBlock = { kind: 'text' } | { kind: 'thinking' } | { kind: 'tool'; call: number };

const PING = 'event: ping\ndata: {"type":"ping"}\n\n';

function frame(type: string, data: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/**
 * Encodes canonical stream events as Anthropic Messages SSE, one instance per stream, in the
 * strict order the SDK's `MessageStream` requires: `message_start`; per block
 * `content_block_start`, `content_block_delta`*, `content_block_stop`; then `message_delta`
 * (stop reason, cumulative usage, and `svc_metadata`) and `message_stop`. Every method returns
 * ready-to-write SSE text ('' when nothing is due) and never throws.
 *
 * - Only choice 0 is encoded (Messages has no `n`).
 * - A block is closed when the next kind of content starts; tool calls are assumed to stream one
 *   after another (fragments of an already closed call are dropped).
 * - Reasoning streams as a `thinking` block with an empty signature; refusals as text.
 * - A failure after the first byte is an `error` event, and nothing follows it (no `message_stop`).
 */
export class MessagesStreamEncoder {
  readonly #id: string;
  readonly #model: string;
  readonly #toolUseId: () => string;
  #open: OpenBlock | undefined;
  #blocks = 0;
  #toolCalls = new Set<number>();
  #finish: FinishReason | undefined;
  #usage: Usage | undefined;
  #started = false;
  #closed = false;

  constructor(options: MessagesStreamEncoderOptions) {
    this.#id = options.id;
    this.#model = options.model;
    let next = 0;
    this.#toolUseId = options.toolUseId ?? (() => `toolu_${options.id.replace(/^msg_/, '')}_${next++}`);
  }

  /** `message_start` with an empty message (input tokens are reported in `message_delta`). */
  start(): string {
    if (this.#started || this.#closed) return '';
    this.#started = true;
    return frame('message_start', {
      message: {
        id: this.#id,
        type: 'message',
        role: 'assistant',
        model: this.#model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
  }

  /** The frames for one canonical event. */
  event(event: StreamEvent): string {
    if (this.#closed || ('choice' in event && event.choice !== 0)) return '';
    switch (event.type) {
      case 'text-delta':
      case 'refusal-delta':
        return this.#text('text', event.text);
      case 'reasoning-delta':
        return this.#text('thinking', event.text);
      case 'tool-call-delta':
        return this.#toolCall(event);
      case 'finish':
        this.#finish ??= event.finishReason;
        return '';
      case 'usage':
        this.#usage = event.usage;
        return '';
      case 'meta':
        return '';
    }
  }

  /** Closes a complete stream: the open block's stop, `message_delta`, `message_stop`. */
  end(svcMetadata?: SvcMetadata): string {
    if (this.#closed) return '';
    let out = this.start() + this.#closeBlock();
    const reason = this.#finish ?? (this.#toolCalls.size > 0 ? 'tool_calls' : 'stop');
    const delta: Record<string, unknown> = {
      delta: { stop_reason: toStopReason(reason), stop_sequence: null },
      usage: toAnthropicUsage(this.#usage),
    };
    if (svcMetadata !== undefined) delta.svc_metadata = svcMetadata;
    out += frame('message_delta', delta) + frame('message_stop', {});
    this.#closed = true;
    return out;
  }

  /** An `error` event; the stream ends with it. */
  error(error: GatewayError, requestId?: string): string {
    if (this.#closed) return '';
    this.#closed = true;
    const { error: body, request_id } = encodeMessagesError(error, requestId);
    return frame('error', { error: body, request_id });
  }

  /** `event: ping`, which every Anthropic client skips. */
  keepAlive(): string {
    return this.#closed ? '' : PING;
  }

  #closeBlock(): string {
    if (this.#open === undefined) return '';
    this.#open = undefined;
    return frame('content_block_stop', { index: this.#blocks - 1 });
  }

  #openBlock(block: OpenBlock, contentBlock: object): string {
    const out = this.start() + this.#closeBlock();
    this.#open = block;
    const index = this.#blocks++;
    return out + frame('content_block_start', { index, content_block: contentBlock });
  }

  #text(kind: 'text' | 'thinking', text: string): string {
    if (text === '') return '';
    let out = '';
    if (this.#open?.kind !== kind) {
      out = this.#openBlock(
        { kind },
        kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' },
      );
    }
    const delta = kind === 'text' ? { type: 'text_delta', text } : { type: 'thinking_delta', thinking: text };
    return out + frame('content_block_delta', { index: this.#blocks - 1, delta });
  }

  #toolCall(event: Extract<StreamEvent, { type: 'tool-call-delta' }>): string {
    let out = '';
    const open = this.#open;
    if (open?.kind !== 'tool' || open.call !== event.index) {
      if (this.#toolCalls.has(event.index)) return '';
      this.#toolCalls.add(event.index);
      out = this.#openBlock(
        { kind: 'tool', call: event.index },
        { type: 'tool_use', id: event.id ?? this.#toolUseId(), name: event.name ?? '', input: {} },
      );
    }
    if (event.argumentsDelta === '') return out;
    const delta = { type: 'input_json_delta', partial_json: event.argumentsDelta };
    return out + frame('content_block_delta', { index: this.#blocks - 1, delta });
  }
}
