import { nodeSignal } from '@svc/core';
import type { HttpClient, HttpRequest, HttpResponse } from './http-client.js';

/**
 * An `HttpClient` over any `fetch` (an instrumented or proxying fetch, a test double). It pays
 * the WHATWG costs the default client avoids, so use it only when the fetch itself is the point.
 */
export function fetchHttpClient(fetch: typeof globalThis.fetch): HttpClient {
  return {
    async request(request: HttpRequest): Promise<HttpResponse> {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal: request.signal ? nodeSignal(request.signal) : null,
      });
      return {
        status: response.status,
        headers: response.headers,
        text: () => response.text(),
        body: readBody(response.body),
      };
    },
  };
}

async function* readBody(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  let done = false;
  try {
    while (true) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // The consumer stopped early: cancel the body so fetch releases the connection.
    if (!done) reader.cancel().catch(() => {});
  }
}
