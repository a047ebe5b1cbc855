import { ProviderError, isProviderError } from '@svc/core';
import type { NativeBatchRef } from '../provider.js';
import type { KeyPool } from './key-pool.js';

/** The `upstreamCode` of a native batch call whose submitting key is no longer in the provider's key pool. */
export const BATCH_KEY_GONE = 'batch_key_gone';

/** Whether `error` says the key that submitted a native batch is gone (its batch can no longer be polled). */
export const isBatchKeyGone = (error: unknown): boolean => isProviderError(error) && error.upstreamCode === BATCH_KEY_GONE;

/** The key that submitted `ref`: by its fingerprint wherever it now sits in the pool (by position for a ref stored before fingerprints); throws {@link BATCH_KEY_GONE} when the pool no longer holds it. */
export function batchKey(provider: string, pool: KeyPool, ref: Pick<NativeBatchRef, 'key' | 'keyIndex'>): string {
  if (ref.key === undefined) return pool.keys[ref.keyIndex] ?? pool.keys[0]!;
  const key = pool.byFingerprint(ref.key);
  if (key !== undefined) return key;
  throw new ProviderError({ provider, kind: 'authentication', message: `The ${provider} key that submitted this batch (fingerprint ${ref.key}) is no longer configured: the batch cannot be polled.`, upstreamCode: BATCH_KEY_GONE });
}
