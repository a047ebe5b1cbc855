import { type Message, UniversalEventStreamMarshaller } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import { ProviderError } from '@svc/core';
import { transportError } from '../shared/http.js';
import { bedrockStreamError } from './bedrock-error.js';

/** One `:message-type: event` frame of a ConverseStream: its `:event-type` and JSON payload. */
export interface BedrockEventFrame {
  event: string;
  payload: unknown;
}

const PROVIDER = 'bedrock';

/**
 * Yields the events of an `application/vnd.amazon.eventstream` body as they arrive. Smithy's
 * marshaller does the binary framing (prelude, headers, CRC checks) across chunk boundaries and
 * dispatches on `:message-type`; an `exception` frame (`throttlingException`, ...) or an `error`
 * frame becomes the classified ProviderError, a transport failure or a frame cut short a
 * `network` one, so a broken stream never ends silently. Stopping early releases the body.
 * `firstEvent` (from `firstEventTimer`) is cleared at the first frame and whenever the read ends.
 */
export async function* readBedrockEventStream(body: AsyncIterable<Uint8Array>, signal?: AbortSignal, firstEvent?: NodeJS.Timeout): AsyncGenerator<BedrockEventFrame> {
  const chunks = body[Symbol.asyncIterator]();
  let ended = false;
  // The marshaller does not pass `return()` on to its source, so the body is released below.
  const source: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      async next() {
        try {
          const next = await chunks.next();
          if (next.done) ended = true;
          return next;
        } catch (error) {
          ended = true;
          throw transportError(PROVIDER, error, signal);
        }
      },
    }),
  };
  const marshaller = new UniversalEventStreamMarshaller({ utf8Encoder: toUtf8, utf8Decoder: fromUtf8 });
  try {
    for await (const frame of marshaller.deserialize(source, deserialize)) {
      if (firstEvent !== undefined) {
        clearTimeout(firstEvent);
        firstEvent = undefined;
      }
      if ('event' in frame && typeof frame.event === 'string') yield frame as BedrockEventFrame;
    }
  } catch (error) {
    throw streamFailure(error, signal);
  } finally {
    if (firstEvent !== undefined) clearTimeout(firstEvent);
    if (!ended) chunks.return?.()?.catch(() => {});
  }
}

/**
 * The marshaller calls this with `{[name]: message}`: for an event it yields what we return;
 * for an exception it throws `result[name]`, so the classified error goes there.
 */
async function deserialize(input: Record<string, Message>): Promise<BedrockEventFrame | Record<string, ProviderError>> {
  const [name, message] = Object.entries(input)[0] ?? [];
  if (name === undefined || message === undefined) return {};
  const payload = parsePayload(message.body);
  if (message.headers[':message-type']?.value === 'exception') return { [name]: bedrockStreamError(name, payload) };
  return { event: name, payload };
}

function parsePayload(body: Uint8Array): unknown {
  if (body.byteLength === 0) return {};
  try {
    return JSON.parse(toUtf8(body));
  } catch (error) {
    throw new ProviderError({ provider: PROVIDER, kind: 'server', message: 'bedrock sent a malformed stream event.', cause: error });
  }
}

function streamFailure(error: unknown, signal: AbortSignal | undefined): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal?.aborted) return transportError(PROVIDER, error, signal);
  if (!(error instanceof Error)) return new ProviderError({ provider: PROVIDER, kind: 'server', message: 'bedrock stream failed.', cause: error });
  // An `:message-type: error` frame arrives as an Error named by its `:error-code`.
  if (error.name !== 'Error') return bedrockStreamError(error.name, { message: error.message });
  if (/truncated/i.test(error.message)) {
    return new ProviderError({ provider: PROVIDER, kind: 'network', message: 'bedrock stream was cut off mid-event.', cause: error });
  }
  return new ProviderError({ provider: PROVIDER, kind: 'server', message: `bedrock sent a malformed event stream: ${error.message}`, cause: error });
}
