import type { RequestEmbedder } from '@svc/router';
import type { ChatTurn } from './chat-turn.js';
import { lastUserText } from './memory-stage.js';

/** Longest a request waits for its embedding before it is routed on its text signals alone. */
export const EMBEDDING_WAIT_MS = 250;

/**
 * The sentence embedding the router reads for this turn (cache and full modes, a request routed
 * over an alias), or undefined: in proxy mode, for a pinned or sticky model, without an encoder,
 * without a user message, or when the encoder fails or takes longer than {@link EMBEDDING_WAIT_MS}.
 * It embeds the last user message, the text memory recalls with and the semantic cache looks up
 * (spacing aside), so the shared encoder's cache computes it once per request. Never rejects.
 * Undefined (no promise) when nothing is embedded.
 */
export function routingEmbedding(encoder: RequestEmbedder | undefined, turn: ChatTurn): Promise<Float32Array | undefined> | undefined {
  // Undefined, not a promise of it: a turn that embeds nothing (every proxied request) awaits nothing.
  if (!encoder || turn.exchange.mode === 'proxy' || turn.decision.source !== 'Router') return undefined;
  const text = lastUserText(turn.request);
  if (text.trim().length === 0) return undefined;
  return embedWithin(encoder, text);
}

async function embedWithin(encoder: RequestEmbedder, text: string): Promise<Float32Array | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, EMBEDDING_WAIT_MS, undefined);
  });
  try {
    const embedded = encoder.embed([text]).then((vectors) => vectors[0]);
    return await Promise.race([embedded, late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
