import { EventStreamCodec, type MessageHeaders } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';

/*
 * Test-only: ConverseStream frames (`application/vnd.amazon.eventstream`) encoded with Smithy's
 * codec, the same one AWS's SDK decodes with.
 */

/** One recorded frame: an event, a modelled exception, or an unmodelled `error` frame. */
export type RecordedFrame = { event: string; payload: unknown } | { exception: string; payload: unknown } | { error: string; message: string };

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const text = (value: string) => ({ type: 'string' as const, value });

/** Encodes recorded frames the way Bedrock writes them. */
export function encodeFrames(frames: readonly RecordedFrame[]): Uint8Array[] {
  return frames.map((frame) => {
    let headers: MessageHeaders;
    let body: Uint8Array;
    if ('event' in frame) {
      headers = { ':message-type': text('event'), ':event-type': text(frame.event), ':content-type': text('application/json') };
      body = fromUtf8(JSON.stringify(frame.payload));
    } else if ('exception' in frame) {
      headers = { ':message-type': text('exception'), ':exception-type': text(frame.exception), ':content-type': text('application/json') };
      body = fromUtf8(JSON.stringify(frame.payload));
    } else {
      headers = { ':message-type': text('error'), ':error-code': text(frame.error), ':error-message': text(frame.message) };
      body = new Uint8Array(0);
    }
    return codec.encode({ headers, body });
  });
}

