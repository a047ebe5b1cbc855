import type { FinishReason, GatewayError, StreamEvent, SvcMetadata, Usage } from '@svc/core';
import { type AnthropicMcpBlock, encodeMessagesError, toAnthropicUsage, toStopReason } from './encode-messages-response.js';

export interface MessagesStreamEncoderOptions {
  /** Message id (`msg_...`). */
  id: string;
  /** Model reported in `message_start`. */
  model: string;
  /** Makes ids for tool calls the provider streamed without one. */
  toolUseId?: () => string;
}

type OpenBlock = { kind: 'text' } | { kind: 'thinking' } | { kind: 'tool'; call: number };

/** One tool call of the stream: streamed live (`open`), held back (`held`), or done (`closed`). */
interface ToolCallState {
  state: 'open' | 'held' | 'closed';
  id: string | undefined;
  name: string | undefined;
  /** Arguments received while held back. */
  held: string;
  /** The provider said the call is complete (`tool-call-end`). */
  ended: boolean;
}

/** Content that arrived while a tool block was open and must wait for it to close. */
type HeldBlock = { kind: 'text' | 'thinking'; text: string } | { kind: 'tool'; call: number };

const PING = 'event: ping\ndata: {"type":"ping"}\n\n';

function frame(type: string, data: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/**
 * Encodes canonical stream events as Anthropic Messages SSE, one instance per stream, in the
 * strict order the SDK's `MessageStream` requires: `message_start`; per block
 * `content_block_start`, `content_block_delta`*, `content_block_stop` (one block open at a
 * time); then `message_delta` (stop reason, cumulative usage, and `svc_metadata`) and
 * `message_stop`. Every method returns ready-to-write SSE text ('' when nothing is due) and
 * never throws.
 *
 * - Only choice 0 is encoded (Messages has no `n`).
 * - No argument byte is lost, however the provider orders tool calls: a closed block cannot be
 *   reopened, so a tool block closes only once its call is complete (`tool-call-end`, or the end
 *   of the stream). Whatever arrives meanwhile (another call's fragments, as OpenAI's parallel
 *   calls may interleave them, or text) is held back and sent, whole, once the block closes.
 *   Text and thinking blocks close when other content starts (a later piece opens a new block).
 * - Reasoning streams as a `thinking` block with an empty signature; refusals as text.
 * - A failure after the first byte is an `error` event, and nothing follows it (no `message_stop`).
 */
export class MessagesStreamEncoder {
  readonly #id: string;
  readonly #model: string;
  readonly #toolUseId: () => string;
  #open: OpenBlock | undefined;
  #blocks = 0;
  readonly #calls = new Map<number, ToolCallState>();
  /** Held back while a tool block is open; never empty unless one is. */
  readonly #held: HeldBlock[] = [];
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
      case 'tool-call-end':
        return this.#toolCallEnd(event.index);
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
    let out = this.start() + this.#closeBlock() + this.#release(true) + this.#closeBlock();
    const reason = this.#finish ?? (this.#calls.size > 0 ? 'tool_calls' : 'stop');
    const delta: Record<string, unknown> = {
      delta: { stop_reason: toStopReason(reason), stop_sequence: null },
      usage: toAnthropicUsage(this.#usage),
    };
    if (svcMetadata !== undefined) delta.svc_metadata = svcMetadata;
    out += frame('message_delta', delta) + frame('message_stop', {});
    this.#closed = true;
    return out;
  }

  /** A whole MCP block (the gateway's call, or its result): `content_block_start` holding it, then `content_block_stop`. */
  mcpBlock(block: AnthropicMcpBlock): string {
    if (this.#closed) return '';
    return this.#openBlock({ kind: 'text' }, block) + this.#closeBlock();
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
    const open = this.#open;
    if (open === undefined) return '';
    if (open.kind === 'tool') this.#calls.get(open.call)!.state = 'closed';
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
    if (this.#open?.kind === 'tool') {
      const last = this.#held.at(-1);
      if (last?.kind === kind) last.text += text;
      else this.#held.push({ kind, text });
      return '';
    }
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
    let call = this.#calls.get(event.index);
    if (call === undefined) {
      call = { state: 'held', id: event.id, name: event.name, held: '', ended: false };
      this.#calls.set(event.index, call);
      if (this.#open?.kind === 'tool') {
        this.#held.push({ kind: 'tool', call: event.index });
        call.held = event.argumentsDelta;
        return '';
      }
      return this.#startCall(event.index, call) + this.#arguments(event.argumentsDelta);
    }
    call.id ??= event.id;
    if (!call.name) call.name = event.name;
    if (call.state === 'held') call.held += event.argumentsDelta;
    // A fragment of a closed call would be a provider's error (it said the call ended): nothing to add it to.
    return call.state === 'open' ? this.#arguments(event.argumentsDelta) : '';
  }

  #startCall(index: number, call: ToolCallState): string {
    call.state = 'open';
    return this.#openBlock({ kind: 'tool', call: index }, { type: 'tool_use', id: call.id || this.#toolUseId(), name: call.name ?? '', input: {} });
  }

  #arguments(partial: string): string {
    if (partial === '') return '';
    return frame('content_block_delta', { index: this.#blocks - 1, delta: { type: 'input_json_delta', partial_json: partial } });
  }

  #toolCallEnd(index: number): string {
    const call = this.#calls.get(index);
    if (call === undefined) return '';
    call.ended = true;
    if (call.state !== 'open') return '';
    return this.#closeBlock() + this.#release(false);
  }

  /**
   * Sends what was held back, in arrival order, now that no tool block is open: a call the
   * provider has not ended stays open (live) and stops the release, unless `all` (the stream's
   * end, when every call is complete).
   */
  #release(all: boolean): string {
    let out = '';
    while (this.#open?.kind !== 'tool' || all) {
      const next = this.#held.shift();
      if (next === undefined) break;
      if (next.kind !== 'tool') {
        out += this.#text(next.kind, next.text);
        continue;
      }
      const call = this.#calls.get(next.call)!;
      out += this.#startCall(next.call, call) + this.#arguments(call.held);
      call.held = '';
      if (call.ended || all) out += this.#closeBlock();
    }
    return out;
  }
}
