import { type FinishReason, type GatewayError, type StreamEvent, type SvcMetadata, type Usage, randomId } from '@svc/core';
import {
  type ResponseMeta,
  encodeResponsesUsage,
  functionCallItemId,
  messageItemId,
  reasoningItemId,
  responseShell,
  statusOf,
} from './response-shell.js';
import type {
  FunctionCallItem,
  ItemStatus,
  McpOutputItem,
  OutputContentPart,
  OutputItem,
  OutputMessageItem,
  ReasoningItem,
  ResponseObject,
} from './response-types.js';

interface OpenMessage {
  item: OutputMessageItem;
  outputIndex: number;
  /** The part being streamed into (the last of `item.content`), if any. */
  part?: OutputContentPart;
}

interface OpenCall {
  item: FunctionCallItem;
  outputIndex: number;
}

interface OpenReasoning {
  item: ReasoningItem;
  outputIndex: number;
}

const KEEP_ALIVE = ': keep-alive\n\n';

/**
 * Encodes canonical stream events as Responses-API SSE events, one instance per stream. Every
 * method returns ready-to-write SSE text ('' when nothing is due) and never throws.
 *
 * Follows the openai SDK's `ResponseStream` rules: `response.created` comes first, every
 * `output_index`/`content_index` refers to an item and part already announced, every event
 * carries a growing `sequence_number`, and the stream ends with exactly one of
 * `response.completed` / `response.incomplete` (full response, usage, `svc_metadata`) or, on
 * failure, `response.failed` followed by an `error` event, never a completion.
 *
 * Reasoning text opens a `reasoning` item (`response.reasoning_text.delta`), text a `message`
 * item; either closes when something else starts. A tool call opens a `function_call` item per
 * call; calls stay open until the end, so interleaved parallel-call fragments land on their item.
 * Only choice 0 is encoded (the Responses API has no `n`).
 */
export class ResponseStreamEncoder {
  readonly #meta: ResponseMeta;
  readonly #output: OutputItem[] = [];
  #message: OpenMessage | undefined;
  #reasoning: OpenReasoning | undefined;
  readonly #calls = new Map<number, OpenCall>();
  #finish: FinishReason | undefined;
  #usage: Usage | undefined;
  #sequence = 0;
  #started = false;
  #closed = false;
  #final: ResponseObject | undefined;
  /** Output indexes of MCP items announced and not yet done, by item id. */
  readonly #mcpOpen = new Map<string, number>();

  constructor(meta: ResponseMeta) {
    this.#meta = meta;
  }

  /** `response.created` then `response.in_progress`, both with an empty output. */
  start(): string {
    if (this.#started || this.#closed) return '';
    this.#started = true;
    const response = responseShell(this.#meta, 'in_progress');
    return this.#frame('response.created', { response }) + this.#frame('response.in_progress', { response });
  }

  /** The events for one canonical event ('' for usage, meta and other choices). */
  event(event: StreamEvent): string {
    if (this.#closed) return '';
    switch (event.type) {
      case 'text-delta':
        return event.choice === 0 ? this.#textDelta('output_text', event.text) : '';
      case 'refusal-delta':
        return event.choice === 0 ? this.#textDelta('refusal', event.text) : '';
      case 'tool-call-delta':
        return event.choice === 0 ? this.#toolCall(event) : '';
      case 'finish':
        if (event.choice === 0) this.#finish ??= event.finishReason;
        return '';
      case 'usage':
        this.#usage = event.usage;
        return '';
      case 'reasoning-delta':
        return event.choice === 0 ? this.#reasoningDelta(event.text) : '';
      // Function-call items may stay open side by side, so every call closes at the end.
      case 'tool-call-end':
      case 'meta':
        return '';
    }
  }

  /**
   * An MCP item the gateway starts (its tool list being fetched, its call running):
   * `output_item.added` and the item's `in_progress` event (a call's arguments whole, as
   * `mcp_call_arguments.delta` and `.done`). An approval request is announced and done at once.
   */
  mcpItemStarted(item: McpOutputItem): string {
    if (this.#closed) return '';
    let out = this.start() + this.#closeReasoning() + this.#closeMessage('completed');
    const outputIndex = this.#output.push(structuredClone(item)) - 1;
    out += this.#frame('response.output_item.added', { output_index: outputIndex, item: structuredClone(item) });
    const where = { output_index: outputIndex, item_id: item.id };
    if (item.type === 'mcp_approval_request') return out + this.#frame('response.output_item.done', { output_index: outputIndex, item: structuredClone(item) });
    this.#mcpOpen.set(item.id, outputIndex);
    if (item.type === 'mcp_list_tools') return out + this.#frame('response.mcp_list_tools.in_progress', where);
    return (
      out +
      this.#frame('response.mcp_call.in_progress', where) +
      this.#frame('response.mcp_call_arguments.delta', { ...where, delta: item.arguments }) +
      this.#frame('response.mcp_call_arguments.done', { ...where, arguments: item.arguments })
    );
  }

  /** The MCP item `mcpItemStarted` announced, finished: `completed` or `failed`, then `output_item.done`. */
  mcpItemDone(item: McpOutputItem): string {
    const outputIndex = this.#mcpOpen.get(item.id);
    if (this.#closed || outputIndex === undefined || item.type === 'mcp_approval_request') return '';
    this.#mcpOpen.delete(item.id);
    this.#output[outputIndex] = structuredClone(item);
    const failed = item.type === 'mcp_list_tools' ? item.error !== null : item.status === 'failed';
    const where = { output_index: outputIndex, item_id: item.id };
    return (
      this.#frame(`response.${item.type === 'mcp_list_tools' ? 'mcp_list_tools' : 'mcp_call'}.${failed ? 'failed' : 'completed'}`, where) +
      this.#frame('response.output_item.done', { output_index: outputIndex, item: structuredClone(item) })
    );
  }

  /** Closes every open item, then `response.completed` (or `response.incomplete` on max tokens). */
  end(svcMetadata?: SvcMetadata): string {
    if (this.#closed) return '';
    let out = this.start();
    out += this.#closeReasoning();
    // Like the JSON body: an answer with no text and no calls still has its (empty) message.
    if (this.#output.every((item) => item.type === 'reasoning' || item.type === 'mcp_list_tools' || item.type === 'mcp_call')) out += this.#openPart('output_text');
    const { status, incomplete_details } = statusOf(this.#finish);
    const itemStatus: ItemStatus = status === 'incomplete' ? 'incomplete' : 'completed';
    out += this.#closeMessage(itemStatus);
    for (const call of this.#calls.values()) out += this.#closeCall(call);
    this.#calls.clear();
    const response = this.#snapshot(status);
    response.incomplete_details = incomplete_details;
    if (this.#usage !== undefined) response.usage = encodeResponsesUsage(this.#usage);
    if (svcMetadata !== undefined) response.svc_metadata = svcMetadata;
    out += this.#frame(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
    this.#closed = true;
    this.#final = response;
    return out;
  }

  /**
   * `response.failed` (the snapshot so far, with `error`), then an `error` event. The latter
   * also carries `error: {message, type, code, param}`, which makes the openai SDK throw an
   * `APIError` mid-stream the way it does for chat.
   */
  error(error: GatewayError): string {
    if (this.#closed) return '';
    let out = this.start();
    const response = this.#snapshot('failed');
    response.error = { code: error.code ?? error.type, message: error.message };
    out += this.#frame('response.failed', { response });
    out += this.#frame('error', { code: error.code, message: error.message, param: error.param, error: error.toBody() });
    this.#closed = true;
    return out;
  }

  /** The whole response once `end` sent it (`completed` or `incomplete`); undefined before, and after `error`. */
  get finalResponse(): ResponseObject | undefined {
    return this.#final;
  }

  /** An SSE comment that keeps idle connections open; ignored by every SSE parser. */
  keepAlive(): string {
    return this.#closed ? '' : KEEP_ALIVE;
  }

  #frame(type: string, payload: Record<string, unknown>): string {
    const data = JSON.stringify({ type, ...payload, sequence_number: this.#sequence++ });
    return `event: ${type}\ndata: ${data}\n\n`;
  }

  #snapshot(status: ResponseObject['status']): ResponseObject {
    const response = responseShell(this.#meta, status);
    response.output = structuredClone(this.#output);
    return response;
  }

  #reasoningDelta(delta: string): string {
    if (delta === '') return '';
    let out = '';
    if (this.#reasoning === undefined) {
      out += this.#closeMessage('completed');
      const item: ReasoningItem = { type: 'reasoning', id: reasoningItemId(), summary: [], content: [], status: 'in_progress' };
      const reasoning = { item, outputIndex: this.#output.length };
      this.#reasoning = reasoning;
      this.#output.push(item);
      out += this.#frame('response.output_item.added', { output_index: reasoning.outputIndex, item: structuredClone(item) });
      item.content.push({ type: 'reasoning_text', text: '' });
      out += this.#frame('response.content_part.added', {
        item_id: item.id,
        output_index: reasoning.outputIndex,
        content_index: 0,
        part: { type: 'reasoning_text', text: '' },
      });
    }
    const { item, outputIndex } = this.#reasoning;
    item.content[0]!.text += delta;
    return out + this.#frame('response.reasoning_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta });
  }

  #closeReasoning(): string {
    const reasoning = this.#reasoning;
    if (reasoning === undefined) return '';
    this.#reasoning = undefined;
    const { item, outputIndex } = reasoning;
    item.status = 'completed';
    const where = { item_id: item.id, output_index: outputIndex, content_index: 0 };
    return (
      this.#frame('response.reasoning_text.done', { ...where, text: item.content[0]!.text }) +
      this.#frame('response.content_part.done', { ...where, part: structuredClone(item.content[0]!) }) +
      this.#frame('response.output_item.done', { output_index: outputIndex, item: structuredClone(item) })
    );
  }

  #textDelta(kind: OutputContentPart['type'], delta: string): string {
    if (delta === '') return '';
    let out = this.#closeReasoning() + this.#openPart(kind);
    const message = this.#message!;
    const part = message.part!;
    const where = { item_id: message.item.id, output_index: message.outputIndex, content_index: message.item.content.length - 1 };
    if (part.type === 'output_text') {
      part.text += delta;
      out += this.#frame('response.output_text.delta', { ...where, delta, logprobs: [] });
    } else {
      part.refusal += delta;
      out += this.#frame('response.refusal.delta', { ...where, delta });
    }
    return out;
  }

  /** Makes sure a message item is open with a `kind` part being streamed, announcing what is new. */
  #openPart(kind: OutputContentPart['type']): string {
    let out = '';
    if (this.#message === undefined) {
      const item: OutputMessageItem = { type: 'message', id: messageItemId(), status: 'in_progress', role: 'assistant', content: [] };
      this.#message = { item, outputIndex: this.#output.length };
      this.#output.push(item);
      out += this.#frame('response.output_item.added', { output_index: this.#message.outputIndex, item: structuredClone(item) });
    }
    const message = this.#message;
    if (message.part?.type === kind) return out;
    out += this.#closePart(message);
    const part: OutputContentPart =
      kind === 'output_text' ? { type: 'output_text', text: '', annotations: [], logprobs: [] } : { type: 'refusal', refusal: '' };
    message.item.content.push(part);
    message.part = part;
    out += this.#frame('response.content_part.added', {
      item_id: message.item.id,
      output_index: message.outputIndex,
      content_index: message.item.content.length - 1,
      part: structuredClone(part),
    });
    return out;
  }

  #closePart(message: OpenMessage): string {
    const part = message.part;
    if (part === undefined) return '';
    message.part = undefined;
    const where = { item_id: message.item.id, output_index: message.outputIndex, content_index: message.item.content.length - 1 };
    const done =
      part.type === 'output_text'
        ? this.#frame('response.output_text.done', { ...where, text: part.text, logprobs: [] })
        : this.#frame('response.refusal.done', { ...where, refusal: part.refusal });
    return done + this.#frame('response.content_part.done', { ...where, part: structuredClone(part) });
  }

  #closeMessage(status: ItemStatus): string {
    const message = this.#message;
    if (message === undefined) return '';
    this.#message = undefined;
    const out = this.#closePart(message);
    message.item.status = status;
    return out + this.#frame('response.output_item.done', { output_index: message.outputIndex, item: structuredClone(message.item) });
  }

  #toolCall(event: Extract<StreamEvent, { type: 'tool-call-delta' }>): string {
    let out = '';
    let call = this.#calls.get(event.index);
    if (call === undefined) {
      out += this.#closeReasoning() + this.#closeMessage('completed');
      const item: FunctionCallItem = {
        type: 'function_call',
        id: functionCallItemId(),
        call_id: event.id ?? `call_${randomId(24)}`,
        name: event.name ?? '',
        arguments: '',
        status: 'in_progress',
      };
      call = { item, outputIndex: this.#output.length };
      this.#output.push(item);
      this.#calls.set(event.index, call);
      out += this.#frame('response.output_item.added', { output_index: call.outputIndex, item: structuredClone(item) });
    } else if (call.item.name === '' && event.name !== undefined) {
      call.item.name = event.name;
    }
    if (event.argumentsDelta === '') return out;
    call.item.arguments += event.argumentsDelta;
    return (
      out +
      this.#frame('response.function_call_arguments.delta', {
        item_id: call.item.id,
        output_index: call.outputIndex,
        delta: event.argumentsDelta,
      })
    );
  }

  #closeCall(call: OpenCall): string {
    call.item.status = 'completed';
    const where = { item_id: call.item.id, output_index: call.outputIndex };
    return (
      this.#frame('response.function_call_arguments.done', { ...where, name: call.item.name, arguments: call.item.arguments }) +
      this.#frame('response.output_item.done', { output_index: call.outputIndex, item: structuredClone(call.item) })
    );
  }
}
