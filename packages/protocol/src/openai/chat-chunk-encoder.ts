import type { FinishReason, GatewayError, StreamEvent, SvcMetadata, Usage } from '@svc/core';
import { encodeUsage } from './encode-usage.js';

export interface ChatChunkEncoderOptions {
  /** Completion id shared by every chunk (`chatcmpl-...`). */
  id: string;
  /** Unix epoch seconds. */
  created: number;
  /** Model reported in every chunk. */
  model: string;
  /** `stream_options.include_usage`: end with a `choices: []` chunk carrying `usage`. */
  includeUsage: boolean;
  /** Choices announced by `start()`. */
  n: number;
}

interface ChoiceState {
  /** The provider's finish reason, held back until `end()`. */
  finish?: FinishReason;
  /** Tool-call indices whose first fragment (with `type`) was sent. */
  toolCalls?: Set<number>;
}

const DONE = 'data: [DONE]\n\n';
const KEEP_ALIVE = ': keep-alive\n\n';
const CHOICE_TAIL = ',"logprobs":null,"finish_reason":null}';

/**
 * Encodes canonical stream events as OpenAI `chat.completion.chunk` SSE frames, one instance per
 * stream. Every method returns ready-to-write SSE text (possibly several frames, or '' when
 * nothing is due) and never throws.
 *
 * Guarantees the rules of the openai SDK's `ChatCompletionStream`:
 * - every choice that appears gets `delta.role` first and exactly one `finish_reason`;
 * - finish reasons are held back until {@link end}, so that events after a provider's `finish`
 *   cannot follow it and the last finish chunk can carry `svc_metadata`;
 * - a choice the provider never finished ends with `tool_calls` if it called tools, else `stop`;
 * - the usage chunk has `choices: []`; `[DONE]` follows only a complete stream, never an error.
 *
 * Non-standard choices: reasoning text goes to `delta.reasoning_content` (DeepSeek/vLLM/LiteLLM
 * convention); `svc_metadata` rides as a top-level field on the last finish chunk (the SDK copies
 * top-level fields of later chunks into its snapshot, so `finalChatCompletion()` keeps it), which
 * adds no extra chunk that a client reading `choices[0]` could trip on.
 */
export class ChatChunkEncoder {
  #prefix: string;
  readonly #includeUsage: boolean;
  readonly #n: number;
  /** Dense: index i exists once choice i's role chunk was sent. */
  readonly #choices: ChoiceState[] = [];
  #usage: Usage | undefined;
  #started = false;
  #closed = false;

  constructor(options: ChatChunkEncoderOptions) {
    this.#prefix =
      `data: {"id":${JSON.stringify(options.id)},"object":"chat.completion.chunk",` +
      `"created":${options.created},"model":${JSON.stringify(options.model)},"choices":[`;
    this.#includeUsage = options.includeUsage;
    this.#n = Math.max(1, options.n);
  }

  /** The role chunk of every announced choice (`delta: {role: 'assistant', content: ''}`). */
  start(): string {
    if (this.#started || this.#closed) return '';
    this.#started = true;
    let out = '';
    for (let choice = 0; choice < this.#n; choice++) out += this.#ensureChoice(choice);
    return out;
  }

  /** The chunk for one event, or '' when the event produces none (usage, meta, empty deltas). */
  event(event: StreamEvent): string {
    if (this.#closed) return '';
    switch (event.type) {
      case 'text-delta':
        return this.#delta(event.choice, 'content', event.text);
      case 'refusal-delta':
        return this.#delta(event.choice, 'refusal', event.text);
      case 'reasoning-delta':
        return this.#delta(event.choice, 'reasoning_content', event.text);
      case 'tool-call-delta':
        return this.#toolCall(event);
      case 'finish': {
        const out = this.#ensureChoice(event.choice);
        const state = this.#choices[event.choice]!;
        state.finish ??= event.finishReason;
        return out;
      }
      case 'usage':
        this.#usage = event.usage;
        return '';
      case 'meta':
        if (event.systemFingerprint !== undefined) this.#fingerprint(event.systemFingerprint);
        return '';
      case 'tool-call-end':
        return '';
    }
  }

  /**
   * Closes a complete stream: the finish chunk of every choice (the last one carrying
   * `svc_metadata` when given), the usage chunk when `includeUsage` and usage is known, then
   * `data: [DONE]`.
   */
  end(svcMetadata?: SvcMetadata): string {
    if (this.#closed) return '';
    let out = this.start();
    const last = this.#choices.length - 1;
    for (let choice = 0; choice <= last; choice++) {
      out += this.#ensureChoice(choice);
      const state = this.#choices[choice]!;
      const reason = state.finish ?? (state.toolCalls === undefined ? 'stop' : 'tool_calls');
      const extra = choice === last && svcMetadata !== undefined ? `,"svc_metadata":${JSON.stringify(svcMetadata)}` : '';
      out += `${this.#prefix}{"index":${choice},"delta":{},"logprobs":null,"finish_reason":"${reason}"}]${extra}}\n\n`;
    }
    if (this.#includeUsage && this.#usage !== undefined) {
      out += `${this.#prefix}],"usage":${JSON.stringify(encodeUsage(this.#usage))}}\n\n`;
    }
    this.#closed = true;
    return out + DONE;
  }

  /** A mid-stream error frame `{"error": {...}}`; no `[DONE]` follows, so the stream reads as failed. */
  error(error: GatewayError): string {
    if (this.#closed) return '';
    this.#closed = true;
    return `data: ${JSON.stringify({ error: error.toBody() })}\n\n`;
  }

  /** An SSE comment that keeps idle connections open; ignored by every SSE parser. */
  keepAlive(): string {
    return this.#closed ? '' : KEEP_ALIVE;
  }

  /** The upstream's `system_fingerprint` rides on every chunk from here on, as OpenAI sends it. */
  #fingerprint(fingerprint: string): void {
    if (this.#prefix.includes('"system_fingerprint"')) return;
    this.#prefix = this.#prefix.replace(/"choices":\[$/, `"system_fingerprint":${JSON.stringify(fingerprint)},"choices":[`);
  }

  /** The role chunk of `choice`, and of any lower index still unseen, the first time it appears. */
  #ensureChoice(choice: number): string {
    let out = '';
    for (let index = this.#choices.length; index <= choice; index++) {
      this.#choices[index] = {};
      out += `${this.#prefix}{"index":${index},"delta":{"role":"assistant","content":""}${CHOICE_TAIL}]}\n\n`;
    }
    return out;
  }

  #delta(choice: number, field: 'content' | 'refusal' | 'reasoning_content', text: string): string {
    const out = this.#ensureChoice(choice);
    if (text === '') return out;
    return `${out}${this.#prefix}{"index":${choice},"delta":{"${field}":${JSON.stringify(text)}}${CHOICE_TAIL}]}\n\n`;
  }

  #toolCall(event: Extract<StreamEvent, { type: 'tool-call-delta' }>): string {
    const out = this.#ensureChoice(event.choice);
    const state = this.#choices[event.choice]!;
    state.toolCalls ??= new Set();
    let call = `{"index":${event.index}`;
    if (event.id !== undefined) call += `,"id":${JSON.stringify(event.id)}`;
    if (!state.toolCalls.has(event.index)) {
      state.toolCalls.add(event.index);
      call += ',"type":"function"';
    }
    call += ',"function":{';
    if (event.name !== undefined) call += `"name":${JSON.stringify(event.name)},`;
    call += `"arguments":${JSON.stringify(event.argumentsDelta)}}}`;
    return `${out}${this.#prefix}{"index":${event.choice},"delta":{"tool_calls":[${call}]}${CHOICE_TAIL}]}\n\n`;
  }
}
