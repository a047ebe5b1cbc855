import { headersWithFirstChunk, onResponseClosed, plainAnswer } from '@svc/http-kit';
import type { Context } from 'hono';

const encoder = new TextEncoder();

/** The first chunks of an answer are each sent before the next is worked on (the first goes with the second, see {@link sseResponse}). */
const EAGER_CHUNKS = 3;
/** After them, chunks already at hand are sent together, but none waits longer than this for the rest. */
const BATCH_MS = 1;

/** Lets the event loop turn, so that what was written so far leaves in its own write. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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
 *
 * When the upstream hands over many events at once (one network read holding the whole answer),
 * the pipeline would turn all of them, and the answer's ending (usage, ledger journal), into
 * chunks in one run of microtasks, and Node's HTTP response (corked until the next tick) would
 * write the headers and the first token only after all that work. So the first
 * {@link EAGER_CHUNKS} chunks each let the event loop turn once, and later ones at most every
 * {@link BATCH_MS} ms: the first token leaves as soon as it is ready, later ones in few writes.
 * The very first chunk does not wait for a turn of its own: it is mostly an opening without text
 * (OpenAI's role chunk, Anthropic's `message_start`), and a second chunk already at hand (the first
 * token) leaves in the same write as it and the headers; when none is at hand, Node writes the
 * first as soon as the work in hand is done (its response is corked only until then). On Node the
 * headers leave with that first write (`headersWithFirstChunk`) and stay a plain record on the
 * way out (`plainAnswer`).
 */
export function sseResponse(c: Context, events: AsyncIterable<string>, options: SseOptions): Response {
  const iterator = events[Symbol.asyncIterator]();
  const firstChunkAtHand = headersWithFirstChunk(c);
  let lastWrite = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let sent = 0;
  let turned = performance.now();
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  // An answer replaced after the route (never read) still ends with its response.
  onResponseClosed(c, stop);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(() => {
        // A stream that ended or failed takes no more keep-alives (an enqueue would throw from this timer).
        if (controller.desiredSize === null) return stop();
        if (Date.now() - lastWrite < options.keepAliveMs) return;
        lastWrite = Date.now();
        controller.enqueue(encoder.encode(options.keepAlive));
      }, Math.max(50, Math.floor(options.keepAliveMs / 2)));
      timer.unref();
    },
    async pull(controller) {
      let next: IteratorResult<string>;
      try {
        next = await iterator.next();
      } catch (error) {
        // A failed stream takes no more keep-alives.
        stop();
        throw error;
      }
      if (next.done) {
        stop();
        controller.close();
        return;
      }
      lastWrite = Date.now();
      controller.enqueue(encoder.encode(next.value));
      sent += 1;
      if (sent === 1) {
        firstChunkAtHand();
        return;
      }
      if (sent <= EAGER_CHUNKS || performance.now() - turned >= BATCH_MS) {
        await yieldToLoop();
        turned = performance.now();
      }
    },
    cancel() {
      stop();
      options.onCancel();
      void iterator.return?.();
    },
  });
  return plainAnswer(c, body, 200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', ...options.headers });
}
