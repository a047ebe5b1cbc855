/**
 * Test-only: every chat adapter wired to a stub `fetch` that answers one {@link UpstreamAnswer}
 * in the adapter's own wire format, as a stream or as JSON depending on what the adapter asked
 * for. What the adapter sent is kept for assertions.
 */
import { encodeFrames } from '../bedrock/bedrock-frames.js';
import { createAnthropicProvider } from '../anthropic/anthropic-provider.js';
import { createBedrockProvider } from '../bedrock/bedrock-provider.js';
import { createCohereProvider } from '../cohere/cohere-provider.js';
import { createGeminiProvider } from '../gemini/gemini-provider.js';
import { createOpenAIProvider } from '../openai/openai-provider.js';
import type { Provider, ProviderSettings } from '../provider.js';
import { createVertexProvider } from '../vertex/vertex-provider.js';
import {
  type UpstreamAnswer,
  anthropicEvents,
  anthropicMessage,
  bedrockFrames,
  bedrockResponse,
  cohereEvents,
  cohereResponse,
  geminiChunks,
  geminiResponse,
  openAIChunks,
  openAICompletion,
  sseText,
} from './upstream-answer.js';

/** What one wire can carry; the parts it cannot are left out of the answers it is given. */
export interface WireCarries {
  /** A separate refusal text (OpenAI). */
  refusal: boolean;
  /** Tool calls whose fragments interleave (OpenAI's parallel calls). */
  interleaving: boolean;
  /** Split argument fragments (Gemini sends every call whole). */
  fragments: boolean;
  /** Cache reads reported in usage. */
  cacheRead: boolean;
  /** Cache writes reported in usage. */
  cacheWrite: boolean;
  /** A content-filter stop. */
  contentFilter: boolean;
}

/** A request the stub received. */
export interface WireRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** One adapter behind a stub upstream. */
export interface UpstreamWire {
  name: string;
  /** The upstream model name the adapter is asked for. */
  model: string;
  carries: WireCarries;
  /** The adapter, answering `answer` (streamed when it asks for a stream); `sent` collects its requests. */
  provider(answer: UpstreamAnswer, sent?: WireRequest[]): Provider;
}

type Body = { body: string | Uint8Array; contentType: string };

/** A fetch that records the request and answers `reply(url, body)`. */
function stubFetch(reply: (url: string, body: Record<string, unknown>) => Body, sent: WireRequest[]): typeof globalThis.fetch {
  return async (input, init) => {
    const url = String(input);
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ url, headers: Object.fromEntries(new Headers(init?.headers).entries()), body });
    const answer = reply(url, body);
    const payload = typeof answer.body === 'string' ? answer.body : new Blob([answer.body as Uint8Array<ArrayBuffer>]);
    return new Response(payload, { status: 200, headers: { 'content-type': answer.contentType, 'x-amzn-requestid': 'req-up' } });
  };
}

const sse = (text: string): Body => ({ body: text, contentType: 'text/event-stream' });
const json = (value: unknown): Body => ({ body: JSON.stringify(value), contentType: 'application/json' });

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

const settings = (fetch: typeof globalThis.fetch): ProviderSettings => ({ apiKeys: ['sk-upstream'], baseUrl: 'http://upstream.test', fetch });
const everything: WireCarries = { refusal: false, interleaving: false, fragments: true, cacheRead: true, cacheWrite: true, contentFilter: true };

/** Every chat adapter's stream decoder, each behind its own wire. */
export const upstreamWires: readonly UpstreamWire[] = [
  {
    name: 'openai',
    model: 'gpt-4o',
    carries: { ...everything, refusal: true, interleaving: true, cacheWrite: false },
    provider: (answer, sent = []) =>
      createOpenAIProvider(settings(stubFetch((_, body) => (body.stream === true ? sse(sseText(openAIChunks(answer, 'gpt-4o'))) : json(openAICompletion(answer, 'gpt-4o'))), sent))),
  },
  {
    name: 'anthropic',
    model: 'claude-sonnet-4-5',
    carries: everything,
    provider: (answer, sent = []) =>
      createAnthropicProvider(
        settings(stubFetch((_, body) => (body.stream === true ? sse(sseText(anthropicEvents(answer, 'claude-sonnet-4-5'))) : json(anthropicMessage(answer, 'claude-sonnet-4-5'))), sent)),
      ),
  },
  {
    name: 'vertex (Claude)',
    model: 'claude-sonnet-4-5@20250929',
    carries: everything,
    provider: (answer, sent = []) =>
      createVertexProvider({
        project: 'p',
        location: 'us-east5',
        accessToken: 'token',
        baseUrl: 'http://upstream.test',
        fetch: stubFetch((url) => (url.endsWith(':streamRawPredict') ? sse(sseText(anthropicEvents(answer, 'claude-sonnet-4-5'))) : json(anthropicMessage(answer, 'claude-sonnet-4-5'))), sent),
      }),
  },
  {
    name: 'bedrock',
    model: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
    carries: everything,
    provider: (answer, sent = []) =>
      createBedrockProvider({
        region: 'us-east-1',
        apiKeys: ['bedrock-key'],
        baseUrl: 'http://upstream.test',
        fetch: stubFetch(
          (url) => (url.endsWith('/converse-stream') ? { body: concat(encodeFrames(bedrockFrames(answer))), contentType: 'application/vnd.amazon.eventstream' } : json(bedrockResponse(answer))),
          sent,
        ),
      }),
  },
  {
    name: 'gemini',
    model: 'gemini-2.5-flash',
    carries: { ...everything, fragments: false, cacheWrite: false },
    provider: (answer, sent = []) =>
      createGeminiProvider(
        settings(stubFetch((url) => (url.includes(':streamGenerateContent') ? sse(sseText(geminiChunks(answer, 'gemini-2.5-flash'))) : json(geminiResponse(answer, 'gemini-2.5-flash'))), sent)),
      ),
  },
  {
    name: 'cohere',
    model: 'command-a-03-2025',
    carries: { ...everything, cacheRead: false, cacheWrite: false, contentFilter: false },
    provider: (answer, sent = []) => createCohereProvider(settings(stubFetch((_, body) => (body.stream === true ? sse(sseText(cohereEvents(answer))) : json(cohereResponse(answer))), sent))),
  },
];
