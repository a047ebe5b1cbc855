import type { Kv } from '@svc/kv';

/** Where chain and conversation routes live: the shared kv, so every instance continues a chain on the same model. */
export interface StickyStore {
  /** The model that served `key` of `orgId` last; undefined when none or when the store is down. */
  get(orgId: string, key: string): Promise<string | undefined>;
  /** Remembers the served model; fire and forget (never rejects). */
  set(orgId: string, key: string, modelId: string): void;
}

export interface KvStickySettings {
  kv: Kv;
  /** How long a chain stays sticky after its last request. Default 24 h. */
  ttlMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Sticky routes in the kv under `svc:sticky:<org>:<key>`, scoped per organisation so one tenant's
 * chain ids never steer another's. A kv failure makes the chain non-sticky for that request,
 * never fails it.
 */
export function createKvStickyStore(settings: KvStickySettings): StickyStore {
  const { kv } = settings;
  const ttlMs = settings.ttlMs ?? 86_400_000;
  const onError = settings.onError ?? (() => {});
  const keyOf = (orgId: string, key: string) => `svc:sticky:${orgId}:${key}`;
  return {
    async get(orgId, key) {
      try {
        return (await kv.get(keyOf(orgId, key))) ?? undefined;
      } catch (error) {
        onError(error);
        return undefined;
      }
    },
    set(orgId, key, modelId) {
      kv.set(keyOf(orgId, key), modelId, { ttlMs }).catch(onError);
    },
  };
}
