import { type StreamEvent, type SvcMetadata, toGatewayError } from '@svc/core';
import type { ChatChunkEncoder } from './chat-chunk-encoder.js';

/** A streamed chat answer as the pipeline hands it over: its events, and its `svc_metadata` once they ended. */
export interface ChatEventStream {
  events: AsyncIterable<StreamEvent>;
  metadata(): SvcMetadata | undefined;
}

/**
 * The SSE chunks of a streamed chat completion: the role chunk first, a chunk per token as it
 * comes, then usage, `svc_metadata` and `[DONE]`; a failure mid-way ends with an error event and
 * no `[DONE]`, so a cut stream never looks complete.
 */
export async function* chatChunks(encoder: ChatChunkEncoder, stream: ChatEventStream): AsyncGenerator<string> {
  yield encoder.start();
  try {
    for await (const event of stream.events) {
      const chunk = encoder.event(event);
      if (chunk) yield chunk;
    }
  } catch (error) {
    yield encoder.error(toGatewayError(error));
    return;
  }
  yield encoder.end(stream.metadata());
}
