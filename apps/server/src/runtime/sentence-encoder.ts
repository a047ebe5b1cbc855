import { createSentenceEncoder } from '@svc/encoder';
import { createHashedEmbedder, type Embedder } from '@svc/semantic';
import { ConfigError, type Env } from './env.js';
import type { DependencyStatus } from '@svc/http-kit';

/** The one local sentence encoder of a runtime, shared by memory (and the other semantic stages). */
export interface SentenceEncoderService {
  embedder: Embedder;
  /** `/ready`'s line for it: optional, so a failure after start degrades rather than stops. */
  status(): DependencyStatus;
  close(): Promise<void>;
}

/**
 * Loads the encoder `SVC_SENTENCE_ENCODER` names and waits for it: a missing or corrupt model
 * stops the start with one line naming the variable and what the loader found. `hashed` (no model:
 * no load time, ~95 MiB less RSS, recall finds about half as much) is for test runtimes and
 * machines too small for the model; docs/memory.md says where else it stays.
 */
export async function startSentenceEncoder(env: Env): Promise<SentenceEncoderService> {
  if (env.SVC_SENTENCE_ENCODER === 'hashed') {
    const embedder = createHashedEmbedder();
    return { embedder, status: () => ({ status: 'up', backend: embedder.id, required: false }), close: async () => {} };
  }
  const encoder = createSentenceEncoder();
  try {
    await encoder.ready;
  } catch (error) {
    await encoder.close();
    throw new ConfigError('SVC_SENTENCE_ENCODER', (error as Error).message);
  }
  return {
    embedder: encoder,
    status: () => {
      const state = encoder.status();
      return { status: state.state === 'failed' ? 'down' : 'up', backend: encoder.id, required: false, ...(state.loadMs !== undefined ? { latency_ms: Math.round(state.loadMs) } : {}) };
    },
    close: () => encoder.close(),
  };
}
