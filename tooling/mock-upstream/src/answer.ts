import type { OutgoingHttpHeaders } from 'node:http';
import type { ParallelToolCalls } from './behaviour.js';
import type { PromptCache } from './prompt-cache.js';

/** Which provider's wire conventions (error shape, request-id header) a route follows. */
export type Dialect = 'openai' | 'anthropic' | 'gemini' | 'deepgram' | 'elevenlabs';

/** A complete JSON answer. `generatedTokens` drives the generation delay when pacing is on. */
export interface JsonAnswer {
  kind: 'json';
  status: number;
  headers: OutgoingHttpHeaders;
  body: string;
  generatedTokens: number;
}

/** An SSE answer: `head` is sent at once, each `tokens` entry is one paced frame, then `tail`. */
export interface StreamAnswer {
  kind: 'sse';
  headers: OutgoingHttpHeaders;
  head: string;
  tokens: readonly string[];
  tail: string;
}

/** What a route produces; the server turns it into bytes with latency, pacing and faults. */
export type Answer = JsonAnswer | StreamAnswer;

/** Per-request values a route needs besides the body: ids, timestamps, token counts. */
export interface AnswerContext {
  /** Unique suffix for ids of this response. */
  id: string;
  /** Unix seconds. */
  created: number;
  /** Estimated prompt tokens. */
  promptTokens: number;
  /** Answer length wanted by the plan (before any max-tokens cap). */
  tokens: number;
  /** `http://<host>` as the client addressed the mock: the base of URLs it answers with. */
  origin: string;
  /** The request's query string. */
  query: URLSearchParams;
  /** What this server's prompt cache remembers (prompt-caching accounting). */
  promptCache: PromptCache;
  /** How OpenAI chat answers a forced tool call with several tools (see `MockBehaviour`). */
  parallelToolCalls: ParallelToolCalls;
  /** OpenAI chat's answers by model and pairwise judging (see `MockBehaviour`). */
  answers?: Readonly<Record<string, string>> | undefined;
  judgePrefers?: string | undefined;
  script?: ChatScript | undefined;
}

/** An in-process answer for an OpenAI chat body and model (see `MockUpstreamOptions.script`). */
export type ChatScript = (body: Record<string, unknown>, model: string) => string | undefined;

const JSON_TYPE = 'application/json';

/** A JSON answer with the right content type. */
export function jsonAnswer(
  status: number,
  body: string,
  headers: OutgoingHttpHeaders = {},
  generatedTokens = 0,
): JsonAnswer {
  return {
    kind: 'json',
    status,
    headers: { 'content-type': JSON_TYPE, ...headers },
    body,
    generatedTokens,
  };
}

/** SSE response headers, plus any provider headers. */
export function sseHeaders(extra: OutgoingHttpHeaders = {}): OutgoingHttpHeaders {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...extra,
  };
}
