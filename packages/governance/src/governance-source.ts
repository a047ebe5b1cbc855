import { type OrgCache, type OrgCacheSettings, createOrgCache } from '@svc/kv';
import { compileGovernance, type ToolGovernance } from './tool-governance.js';
import type { GovernanceSnapshot } from './types.js';

/** Each organisation's compiled tool governance, as the request path reads it. */
export interface GovernanceSource {
  /** The organisation's governance (`active: false` when it has none). Rejects only when it cannot be loaded and none is cached. */
  get(orgId: string): Promise<ToolGovernance>;
  /** The organisation's registry or policy changed: reloaded on next use, here and on every instance sharing the bus. */
  invalidate(orgId: string): Promise<void>;
}

/**
 * `load` reads one organisation's registry and policy from the store; `ttlMs` (how long a
 * snapshot, "no governance" included, is used without a store read) defaults to 30 s,
 * `retryAfterMs` (how long a stale snapshot serves after a failed reload) to 5 s.
 */
export type CachedGovernanceSourceSettings = Pick<OrgCacheSettings<GovernanceSnapshot>, 'load' | 'bus' | 'ttlMs' | 'maxOrgs' | 'retryAfterMs' | 'onError' | 'now'>;

/**
 * A GovernanceSource over a store, each organisation's compiled snapshot in an {@link OrgCache}
 * on channel `governance:changed`: an organisation without governance costs one cached "none" and
 * no store read until it expires. When a reload fails, the stale snapshot keeps serving (retried
 * every `retryAfterMs`); with none cached, `get` rejects.
 */
export class CachedGovernanceSource implements GovernanceSource {
  private readonly cache: OrgCache<ToolGovernance>;

  constructor(settings: CachedGovernanceSourceSettings) {
    const load = async (orgId: string) => compileGovernance(await settings.load(orgId));
    this.cache = createOrgCache({ ...settings, load, channel: 'governance:changed', ttlMs: settings.ttlMs ?? 30_000, retryAfterMs: settings.retryAfterMs ?? 5_000 });
  }

  /** Subscribes to invalidations from other instances. Call once at start. */
  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  async get(orgId: string): Promise<ToolGovernance> {
    return this.cache.get(orgId);
  }

  invalidate(orgId: string): Promise<void> {
    return this.cache.invalidate(orgId);
  }
}
