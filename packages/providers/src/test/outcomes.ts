import { ProviderError, type StreamEvent } from '@svc/core';
import { expect } from 'vitest';

/** Drains a stream into an array. */
export async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The ProviderError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** Drains a stream that must fail: the events that arrived before it threw, and the ProviderError. */
export async function drainUntilError(stream: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[]; error: ProviderError }> {
  const events: StreamEvent[] = [];
  const error = await rejection(
    (async () => {
      for await (const event of stream) events.push(event);
    })(),
  );
  return { events, error };
}

/** Reads a byte stream (speech audio) to its end, as one Buffer. */
export async function readBytes(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}
