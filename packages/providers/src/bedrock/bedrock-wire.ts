import type { readBedrockEventStream } from './bedrock-event-stream.js';
import type { BedrockSigner } from './bedrock-signer.js';

/** The adapter's Smithy side: SigV4 signing and the event-stream framing (~1.6 MiB of heap, 13 modules). */
export interface BedrockWire {
  BedrockSigner: typeof BedrockSigner;
  readBedrockEventStream: typeof readBedrockEventStream;
}

let loading: Promise<BedrockWire> | undefined;

/**
 * Loads the Smithy side once, when a Bedrock provider is created (at configuration, and the
 * start awaits it through `loadConfiguredProviders`), so a gateway without Bedrock never holds
 * it and a call never waits for it.
 */
export function loadBedrockWire(): Promise<BedrockWire> {
  loading ??= Promise.all([import('./bedrock-signer.js'), import('./bedrock-event-stream.js')]).then(([signing, events]) => ({
    BedrockSigner: signing.BedrockSigner,
    readBedrockEventStream: events.readBedrockEventStream,
  }));
  return loading;
}
