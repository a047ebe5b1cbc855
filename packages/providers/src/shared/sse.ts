import { ProviderError } from '@svc/core';
import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { transportError } from './http.js';

/**
 * Yields the SSE messages of a response body as they arrive (eventsource-parser does the
 * framing). A transport failure mid-stream becomes a ProviderError, never a silent end.
 */
export async function* readSse(provider: string, body: ReadableStream<Uint8Array> | null, signal?: AbortSignal): AsyncGenerator<EventSourceMessage> {
  if (!body) throw new ProviderError({ provider, kind: 'server', message: `${provider} sent an empty stream.` });
  const events = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  try {
    while (true) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        throw transportError(provider, error, signal);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Consumer stopped early (client went away): cancel the upstream body.
    reader.cancel().catch(() => {});
  }
}

/** Parses one SSE `data` payload as JSON, failing as a provider error on garbage. */
export function parseSseJson(provider: string, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw new ProviderError({ provider, kind: 'server', message: `${provider} sent a malformed stream event.`, cause: error });
  }
}
