import { ProviderError } from '@svc/core';
import { type EventSourceMessage, createParser } from 'eventsource-parser';
import type { HttpResponse } from './http-client.js';
import { transportError } from './http.js';

/**
 * A stream's first-event bound (`CallOptions.firstByteBy`), armed when its response headers
 * arrive: past it the response is aborted, so the read waiting for the first event fails as a
 * timeout. `readSse` clears it at the first event. Undefined when there is no bound or the
 * response cannot be aborted (the caller then bounds the call with a signal).
 */
export function firstEventTimer(response: HttpResponse, firstByteBy: number | undefined): NodeJS.Timeout | undefined {
  if (firstByteBy === undefined || response.abort === undefined) return undefined;
  const timer = setTimeout(abortLate, Math.max(0, firstByteBy - performance.now()), response);
  timer.unref();
  return timer;
}

function abortLate(response: HttpResponse): void {
  response.abort?.(new DOMException('No first event before the first-byte timeout.', 'TimeoutError'));
}

/**
 * Yields the SSE messages of a response body as they arrive (eventsource-parser does the
 * framing, fed text decoded chunk by chunk). A transport failure mid-stream becomes a
 * ProviderError, never a silent end; stopping early releases the upstream body, so the
 * connection is closed rather than leaked. `firstEvent` (from `firstEventTimer`) is cleared at
 * the first message and whenever the read ends.
 */
export async function* readSse(provider: string, body: AsyncIterable<Uint8Array>, signal?: AbortSignal, firstEvent?: NodeJS.Timeout): AsyncGenerator<EventSourceMessage> {
  const parsed: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => parsed.push(message) });
  const decoder = new TextDecoder();
  const chunks = body[Symbol.asyncIterator]();
  let ended = false;
  try {
    while (true) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } catch (error) {
        ended = true;
        throw transportError(provider, error, signal);
      }
      if (next.done) {
        ended = true;
        // An event still missing its blank line was never dispatched: the stream ended mid-event.
        return;
      }
      parser.feed(decoder.decode(next.value, { stream: true }));
      if (parsed.length > 0 && firstEvent !== undefined) {
        clearTimeout(firstEvent);
        firstEvent = undefined;
      }
      for (let i = 0; i < parsed.length; i++) yield parsed[i]!;
      parsed.length = 0;
    }
  } finally {
    if (firstEvent !== undefined) clearTimeout(firstEvent);
    // The consumer stopped early (client went away, or an error event): release the body.
    if (!ended) chunks.return?.()?.catch(() => {});
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
