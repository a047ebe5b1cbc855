/**
 * Test support for the stream translation suite: each client protocol's encoders (chat
 * completions, Anthropic Messages, Responses) read back by that protocol's official SDK, over a
 * stub `fetch` (no socket), into one comparable shape. The stream readers also check the event
 * order each SDK family relies on, which the SDKs themselves do not all enforce.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ChatRequest, ChatResult, StreamEvent } from '@svc/core';
import {
  ChatChunkEncoder,
  MessagesStreamEncoder,
  ResponseStreamEncoder,
  encodeChatCompletion,
  encodeMessagesResponse,
  encodeResponse,
  type ResponseMeta,
} from '@svc/protocol';
import OpenAI from 'openai';

/** What a client ends up with, whatever the protocol. */
export interface ClientAnswer {
  reasoning: string;
  text: string;
  refusal: string;
  /** `arguments` exactly as the client received them; `input` parsed. */
  calls: { id: string; name: string; arguments: string; input: unknown }[];
  finish: string;
  /** The protocol's usage object, as sent. */
  usage: unknown;
}

/** A client protocol: its stream encoder read by its SDK, and its JSON encoder. */
export interface ClientProtocol {
  name: string;
  stream(events: readonly StreamEvent[]): Promise<ClientAnswer>;
  json(result: ChatResult): ClientAnswer;
}

const sseFetch =
  (body: string): typeof globalThis.fetch =>
  async () =>
    new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });

function encodeAll(encoder: { start(): string; event(event: StreamEvent): string; end(): string }, events: readonly StreamEvent[]): string {
  let out = encoder.start();
  for (const event of events) out += encoder.event(event);
  return out + encoder.end();
}

function parsed(args: string): unknown {
  try {
    return args.trim() === '' ? {} : (JSON.parse(args) as unknown);
  } catch {
    return { _raw: args };
  }
}

// ---- chat completions ----

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/** The chunk rules of openai's ChatCompletionStream: role first, one finish per choice, tool calls announced whole, usage alone. */
function checkChunks(chunks: readonly Chunk[]): void {
  const roles = new Set<number>();
  const finishes = new Map<number, number>();
  const announced = new Set<string>();
  for (const chunk of chunks) {
    if (chunk.object !== 'chat.completion.chunk') throw new Error(`chunk object ${chunk.object}`);
    if (chunk.usage != null && chunk.choices.length !== 0) throw new Error('a usage chunk must have choices: []');
    for (const choice of chunk.choices) {
      if (choice.delta.role !== undefined) roles.add(choice.index);
      if (!roles.has(choice.index)) throw new Error(`choice ${choice.index} got a delta before its role`);
      if (finishes.has(choice.index)) throw new Error(`choice ${choice.index} continued after its finish_reason`);
      if (choice.finish_reason !== null) finishes.set(choice.index, 1);
      for (const call of choice.delta.tool_calls ?? []) {
        const key = `${choice.index}:${call.index}`;
        if (announced.has(key)) continue;
        if (!call.id || call.type !== 'function' || call.function?.name === undefined) throw new Error(`tool call ${key} began without id, type and name`);
        announced.add(key);
      }
    }
  }
  if (finishes.size !== roles.size) throw new Error('every choice needs exactly one finish_reason');
}

const chatParams = { model: 'svc/auto', messages: [{ role: 'user' as const, content: 'hi' }], stream_options: { include_usage: true } };

function chatAnswer(message: OpenAI.Chat.Completions.ChatCompletionMessage, finish: string, usage: unknown, reasoning: string): ClientAnswer {
  return {
    reasoning,
    text: message.content ?? '',
    refusal: message.refusal ?? '',
    calls: (message.tool_calls ?? []).map((call) => {
      if (call.type !== 'function') throw new Error(`unexpected tool call type ${call.type}`);
      return { id: call.id, name: call.function.name, arguments: call.function.arguments, input: parsed(call.function.arguments) };
    }),
    finish,
    usage,
  };
}

export const chatCompletions: ClientProtocol = {
  name: 'chat completions',
  async stream(events) {
    const encoder = new ChatChunkEncoder({ id: 'chatcmpl-1', created: 1_700_000_000, model: 'm', includeUsage: true, n: 1 });
    const client = new OpenAI({ apiKey: 'k', baseURL: 'http://gateway.test/v1', maxRetries: 0, fetch: sseFetch(encodeAll(encoder, events)) });
    const stream = client.chat.completions.stream(chatParams);
    const chunks: Chunk[] = [];
    stream.on('chunk', (chunk) => chunks.push(chunk));
    const final = await stream.finalChatCompletion();
    checkChunks(chunks);
    // The SDK keeps only the last fragment of a non-standard delta field: reasoning is joined here.
    const reasoning = chunks.map((chunk) => (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '').join('');
    const choice = final.choices[0]!;
    return chatAnswer(choice.message, choice.finish_reason, final.usage, reasoning);
  },
  json(result) {
    const { body } = encodeChatCompletion(result, { id: 'chatcmpl-1', created: 1_700_000_000, model: 'm' });
    const choice = body.choices[0]!;
    const message = choice.message as OpenAI.Chat.Completions.ChatCompletionMessage & { reasoning_content?: string };
    return chatAnswer(message, choice.finish_reason, body.usage, message.reasoning_content ?? '');
  },
};

// ---- Anthropic Messages ----

type MessageEvent = Anthropic.Messages.RawMessageStreamEvent;

const deltaFor: Record<string, readonly string[]> = { text: ['text_delta'], thinking: ['thinking_delta', 'signature_delta'], tool_use: ['input_json_delta'] };

/**
 * Anthropic's strict order: message_start; per block start, deltas of the block's own type, stop,
 * one block open at a time with consecutive indices; message_delta; message_stop. Returns each
 * tool_use block's raw `partial_json`, joined.
 */
function checkMessageEvents(events: readonly MessageEvent[]): Map<number, string> {
  if (events[0]?.type !== 'message_start') throw new Error('the stream must open with message_start');
  if (events.at(-1)?.type !== 'message_stop' || events.at(-2)?.type !== 'message_delta') throw new Error('the stream must end with message_delta, message_stop');
  const json = new Map<number, string>();
  let open: { index: number; type: string } | undefined;
  let blocks = 0;
  for (const event of events.slice(1, -2)) {
    if (event.type === 'content_block_start') {
      if (open !== undefined) throw new Error(`block ${event.index} started while block ${open.index} is open`);
      if (event.index !== blocks++) throw new Error(`block index ${event.index} out of sequence`);
      open = { index: event.index, type: event.content_block.type };
      if (open.type === 'tool_use') json.set(event.index, '');
    } else if (event.type === 'content_block_delta') {
      if (open?.index !== event.index) throw new Error(`delta for block ${event.index}, which is not open`);
      if (!deltaFor[open.type]?.includes(event.delta.type)) throw new Error(`${event.delta.type} in a ${open.type} block`);
      if (event.delta.type === 'input_json_delta') json.set(event.index, json.get(event.index)! + event.delta.partial_json);
    } else if (event.type === 'content_block_stop') {
      if (open?.index !== event.index) throw new Error(`stop for block ${event.index}, which is not open`);
      open = undefined;
    } else {
      throw new Error(`${event.type} in the middle of the stream`);
    }
  }
  if (open !== undefined) throw new Error(`block ${open.index} still open at message_delta`);
  return json;
}

function messagesAnswer(message: Anthropic.Messages.Message, raw?: Map<number, string>): ClientAnswer {
  const out: ClientAnswer = { reasoning: '', text: '', refusal: '', calls: [], finish: message.stop_reason ?? '', usage: message.usage };
  message.content.forEach((block, index) => {
    if (block.type === 'text') out.text += block.text;
    else if (block.type === 'thinking') out.reasoning += block.thinking;
    else if (block.type === 'tool_use') out.calls.push({ id: block.id, name: block.name, arguments: raw?.get(index) ?? JSON.stringify(block.input), input: block.input });
  });
  return out;
}

export const anthropicMessages: ClientProtocol = {
  name: 'anthropic messages',
  async stream(events) {
    const encoder = new MessagesStreamEncoder({ id: 'msg_1', model: 'm' });
    const client = new Anthropic({ apiKey: 'k', baseURL: 'http://gateway.test', maxRetries: 0, fetch: sseFetch(encodeAll(encoder, events)) });
    const stream = client.messages.stream({ model: 'm', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] });
    const seen: MessageEvent[] = [];
    stream.on('streamEvent', (event) => seen.push(event));
    const final = await stream.finalMessage();
    return messagesAnswer(final, checkMessageEvents(seen));
  },
  json(result) {
    return messagesAnswer(encodeMessagesResponse(result, { id: 'msg_1', model: 'm' }) as unknown as Anthropic.Messages.Message);
  },
};

// ---- Responses ----

const responseRequest: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true, n: 1, includeUsage: true };
const responseMeta = (): ResponseMeta => ({ id: 'resp_1', createdAt: 1_700_000_000, model: 'm', request: responseRequest, echo: { instructions: null, store: false, previous_response_id: null } });

function responsesAnswer(response: { output: readonly unknown[]; status?: string | null; incomplete_details?: { reason?: string | null } | null; usage?: unknown }): ClientAnswer {
  const out: ClientAnswer = { reasoning: '', text: '', refusal: '', calls: [], finish: `${response.status}:${response.incomplete_details?.reason ?? ''}`, usage: response.usage };
  for (const item of response.output as OpenAI.Responses.ResponseOutputItem[]) {
    if (item.type === 'reasoning') out.reasoning += (item.content ?? []).map((part) => part.text).join('');
    else if (item.type === 'function_call') out.calls.push({ id: item.call_id, name: item.name, arguments: item.arguments, input: parsed(item.arguments) });
    else if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') out.text += part.text;
        else out.refusal += part.refusal;
      }
    }
  }
  return out;
}

export const responses: ClientProtocol = {
  name: 'responses',
  async stream(events) {
    const encoder = new ResponseStreamEncoder(responseMeta());
    const client = new OpenAI({ apiKey: 'k', baseURL: 'http://gateway.test/v1', maxRetries: 0, fetch: sseFetch(encodeAll(encoder, events)) });
    const stream = client.responses.stream({ model: 'm', input: 'hi' });
    let sequence = -1;
    stream.on('event', (event) => {
      if (event.sequence_number <= sequence) throw new Error(`sequence_number ${event.sequence_number} after ${sequence}`);
      sequence = event.sequence_number;
    });
    return responsesAnswer(await stream.finalResponse());
  },
  json(result) {
    return responsesAnswer(encodeResponse(result, responseMeta()));
  },
};

export const clientProtocols: readonly ClientProtocol[] = [chatCompletions, anthropicMessages, responses];
