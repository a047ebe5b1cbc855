/** Anything that turns texts into sentence vectors (the shared `@svc/encoder` is one). */
export interface RequestEmbedder {
  embed(texts: string[]): Promise<Float32Array[]>;
}

let shared: Promise<RequestEmbedder | undefined> | undefined;

/**
 * The local all-MiniLM-L6-v2 encoder of `@svc/encoder` (an optional peer dependency), started on
 * first use and shared by every router of the process; undefined when it is not installed or
 * fails to load (the router then reads text signals only).
 */
export function defaultEmbedder(): Promise<RequestEmbedder | undefined> {
  shared ??= (async () => {
    try {
      const name = '@svc/encoder';
      const module = (await import(name)) as { createSentenceEncoder(): RequestEmbedder & { ready: Promise<void> } };
      const encoder = module.createSentenceEncoder();
      await encoder.ready;
      return encoder;
    } catch {
      return undefined;
    }
  })();
  return shared;
}
