import { ProviderError } from '@svc/core';

/**
 * A reply cut to what a speech model takes: whole when it fits, else up to the last sentence end
 * (or line, or word) within `max` characters.
 */
export function fitForSpeech(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const head = text.slice(0, max);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '), head.lastIndexOf('\n'));
  const cut = sentence > max / 2 ? sentence + 1 : head.lastIndexOf(' ') > max / 2 ? head.lastIndexOf(' ') : max;
  return { text: head.slice(0, cut).trimEnd(), truncated: true };
}

/** Reads synthesised audio to its end; a transport failure while reading is the provider's `network` (or `timeout`) error. */
export async function readAudio(provider: string, body: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const part of body) {
      parts.push(part);
      size += part.byteLength;
    }
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    throw new ProviderError({ provider, kind: signal.aborted ? 'timeout' : 'network', message: `The audio from ${provider} broke off: ${error instanceof Error ? error.message : String(error)}`, cause: error });
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
