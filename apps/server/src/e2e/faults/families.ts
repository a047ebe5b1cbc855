import { ANSWER_WORDS } from './fault-upstream.js';

/** The gateway's endpoint families that reach an upstream chat or embeddings call. */
export const FAMILIES = ['chat-json', 'chat-stream', 'messages-json', 'messages-stream', 'responses-json', 'responses-stream', 'embeddings'] as const;
export type Family = (typeof FAMILIES)[number];

const CHAT_MODEL = 'openai/gpt-4o-mini';
const EMBED_MODEL = 'openai/text-embedding-3-small';
const ask = 'Say the fault suite answer.';

/** Path and JSON body of one request of `family`. */
export function requestOf(family: Family): { path: string; body: Record<string, unknown>; stream: boolean } {
  const stream = family.endsWith('-stream');
  if (family.startsWith('chat')) return { path: '/v1/chat/completions', stream, body: { model: CHAT_MODEL, messages: [{ role: 'user', content: ask }], stream } };
  if (family.startsWith('messages')) return { path: '/v1/messages', stream, body: { model: CHAT_MODEL, max_tokens: 100, messages: [{ role: 'user', content: ask }], stream } };
  if (family.startsWith('responses')) return { path: '/v1/responses', stream, body: { model: CHAT_MODEL, input: ask, stream } };
  return { path: '/v1/embeddings', stream: false, body: { model: EMBED_MODEL, input: ['first', 'second'] } };
}

/** What a client would conclude from an answer: whole (with its text), failed visibly, or neither. */
export interface Reading {
  /** The answer says it is whole (`[DONE]`, `message_stop`, `response.completed`, a parsed JSON body). */
  complete: boolean;
  /** The stream carries an error event. */
  errorEvent: boolean;
  /** The answer's text (chat families), or `vectors:<n>` (embeddings). */
  text: string;
}

export const WHOLE_TEXT = ANSWER_WORDS.join(' ');

interface SseEvent {
  event: string | undefined;
  data: string;
}

function sseEvents(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return events;
}

function parse(data: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const at = (value: unknown, ...path: (string | number)[]): unknown => path.reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[key] : undefined), value);

function readChatStream(events: SseEvent[]): Reading {
  let text = '';
  let errorEvent = false;
  for (const { data } of events) {
    const chunk = parse(data);
    if (chunk?.error !== undefined) errorEvent = true;
    const piece = at(chunk, 'choices', 0, 'delta', 'content');
    if (typeof piece === 'string') text += piece;
  }
  return { complete: events.at(-1)?.data === '[DONE]', errorEvent, text };
}

function readMessagesStream(events: SseEvent[]): Reading {
  let text = '';
  for (const { data } of events) {
    const piece = at(parse(data), 'delta', 'text');
    if (typeof piece === 'string') text += piece;
  }
  return { complete: events.some((e) => e.event === 'message_stop'), errorEvent: events.some((e) => e.event === 'error'), text };
}

function readResponsesStream(events: SseEvent[]): Reading {
  let text = '';
  let complete = false;
  let errorEvent = false;
  for (const { event, data } of events) {
    const parsed = parse(data);
    const type = event ?? (typeof parsed?.type === 'string' ? parsed.type : '');
    if (type === 'response.output_text.delta' && typeof parsed?.delta === 'string') text += parsed.delta;
    if (type === 'response.completed') complete = true;
    if (type === 'error' || type === 'response.failed' || type === 'response.incomplete') errorEvent = true;
  }
  return { complete, errorEvent, text };
}

function readJson(family: Family, body: string): Reading {
  const json = parse(body);
  if (json === undefined) return { complete: false, errorEvent: false, text: '' };
  if (family === 'embeddings') {
    const data = at(json, 'data');
    return { complete: true, errorEvent: false, text: `vectors:${Array.isArray(data) ? data.length : 0}` };
  }
  if (family === 'chat-json') return { complete: true, errorEvent: false, text: String(at(json, 'choices', 0, 'message', 'content') ?? '') };
  if (family === 'messages-json') return { complete: true, errorEvent: false, text: String(at(json, 'content', 0, 'text') ?? '') };
  const parts = (Array.isArray(json.output) ? json.output : []).flatMap((item: unknown) => {
    const content = at(item, 'content');
    return Array.isArray(content) ? content.map((part: unknown) => String(at(part, 'text') ?? '')) : [];
  });
  return { complete: json.status === 'completed', errorEvent: json.status === 'failed' || json.status === 'incomplete', text: parts.join('') };
}

/** Reads a 200 answer of `family` as a client would. */
export function readAnswer(family: Family, body: string): Reading {
  if (family === 'chat-stream') return readChatStream(sseEvents(body));
  if (family === 'messages-stream') return readMessagesStream(sseEvents(body));
  if (family === 'responses-stream') return readResponsesStream(sseEvents(body));
  return readJson(family, body);
}

/** The text a whole answer of `family` holds. */
export function wholeText(family: Family): string {
  return family === 'embeddings' ? 'vectors:2' : WHOLE_TEXT;
}

/** Why an error answer is not in the spec's shape (`x-error-id`; the error object, or the Anthropic envelope on `/v1/messages`); undefined when it is. */
export function errorShapeProblem(family: Family, headers: Headers, body: string): string | undefined {
  if (!headers.get('x-error-id')) return 'no x-error-id header';
  const json = parse(body);
  const error = at(json, 'error');
  if (typeof error !== 'object' || error === null) return `no error object: ${body.slice(0, 200)}`;
  if (family.startsWith('messages')) return json?.type === 'error' && typeof at(error, 'type') === 'string' && typeof at(error, 'message') === 'string' ? undefined : `not the Anthropic envelope: ${body.slice(0, 200)}`;
  for (const field of ['type', 'code', 'message']) if (typeof at(error, field) !== 'string') return `error.${field} missing: ${body.slice(0, 200)}`;
  if (!('param' in error)) return 'error.param missing';
  return undefined;
}
