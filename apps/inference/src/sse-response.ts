const encoder = new TextEncoder();

export interface SseOptions {
  headers: Record<string, string>;
  /** Comment written when nothing else was written for this long. */
  keepAliveMs: number;
  keepAlive: string;
  /** The client went away: abort upstream work. */
  onCancel: () => void;
}

/**
 * Streams SSE text as it is produced (pull-based: nothing is buffered ahead of the client),
 * with keep-alive comments while the upstream is quiet.
 */
export function sseResponse(events: AsyncIterable<string>, options: SseOptions): Response {
  const iterator = events[Symbol.asyncIterator]();
  let lastWrite = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(() => {
        if (Date.now() - lastWrite < options.keepAliveMs) return;
        lastWrite = Date.now();
        controller.enqueue(encoder.encode(options.keepAlive));
      }, Math.max(50, Math.floor(options.keepAliveMs / 2)));
      timer.unref();
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        stop();
        controller.close();
        return;
      }
      lastWrite = Date.now();
      controller.enqueue(encoder.encode(next.value));
    },
    cancel() {
      stop();
      options.onCancel();
      void iterator.return?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      ...options.headers,
    },
  });
}
