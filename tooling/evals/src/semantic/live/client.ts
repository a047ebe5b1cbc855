import OpenAI from 'openai';
import * as v from 'valibot';
import type { QqpPair } from '../dataset.js';

/** What the gateway said about one question it answered. */
export interface Answered {
  question: string;
  requestId: string;
  /** `x-svc-cache-type`: `semantic`, `exact`, or undefined (the upstream answered). */
  cacheType: string | undefined;
  similarity: number | undefined;
  /** `svc_metadata.cached_request_id` of a semantic hit. */
  cachedRequestId: string | undefined;
}

/** The two orders of issue #17: all `a` then all `b`, or `a1, b1, a2, b2...`. */
export type Protocol = 'a-then-b' | 'interleaved';

const metadata = v.object({ svc_metadata: v.optional(v.object({ cached_request_id: v.optional(v.string()) })) });

/** One user's client: the `openai` SDK on the gateway, one model, `x-intelligence-mode` when given. */
export function liveClient(baseUrl: string, apiKey: string, model: string, mode: string | undefined) {
  const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey, maxRetries: 0, ...(mode ? { defaultHeaders: { 'x-intelligence-mode': mode } } : {}) });
  return async (question: string): Promise<Answered> => {
    const { data, response } = await client.chat.completions.create({ model, messages: [{ role: 'user', content: question }] }).withResponse();
    const similarity = response.headers.get('x-svc-semantic-similarity');
    return {
      question,
      requestId: response.headers.get('x-svc-request-id') ?? '',
      cacheType: response.headers.get('x-svc-cache-type') ?? undefined,
      similarity: similarity === null ? undefined : Number(similarity),
      cachedRequestId: v.parse(metadata, data).svc_metadata?.cached_request_id,
    };
  };
}

/** Asks every pair's questions in the protocol's order, one at a time; the answers to `a` and `b` by pair. */
export async function runProtocol(ask: (q: string) => Promise<Answered>, pairs: readonly QqpPair[], protocol: Protocol): Promise<{ a: Answered[]; b: Answered[] }> {
  const a: Answered[] = [];
  const b: Answered[] = [];
  if (protocol === 'a-then-b') {
    for (const pair of pairs) a.push(await ask(pair.a));
    for (const pair of pairs) b.push(await ask(pair.b));
  } else {
    for (const pair of pairs) {
      a.push(await ask(pair.a));
      b.push(await ask(pair.b));
    }
  }
  return { a, b };
}
