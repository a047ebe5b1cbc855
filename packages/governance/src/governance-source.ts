import { compileGovernance, type ToolGovernance } from './tool-governance.js';
import type { GovernanceSnapshot } from './types.js';

/** Each organisation's compiled tool governance, as the request path reads it. */
export interface GovernanceSource {
  /** The organisation's governance (`active: false` when it has none). Rejects only when it cannot be loaded and none is cached. */
  get(orgId: string): Promise<ToolGovernance>;
  /** The organisation's registry or policy changed: reloaded on next use, here and on every instance sharing the bus. */
  invalidate(orgId: string): Promise<void>;
}

/** The pub/sub part of @svc/kv that cross-instance invalidation needs. */
export interface GovernanceBus {
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
}

export interface CachedGovernanceSourceSettings {
  /** Reads one organisation's registry and policy from the store. */
  load(orgId: string): Promise<GovernanceSnapshot>;
  /** Cross-instance invalidation. Without it, other instances see a change within `ttlMs`. */
  bus?: GovernanceBus;
  /** How long a snapshot (including "no governance") is used without a store read. Default 30 s. */
  ttlMs?: number;
  /** Organisations kept; the oldest entry goes first beyond it. Default 10,000. */
  maxOrgs?: number;
  /** How long a stale snapshot keeps serving after a failed reload before the next try. Default 5 s. */
  retryAfterMs?: number;
  /** Told about failed reloads that were answered with a stale snapshot. */
  onError?: (error: unknown, orgId: string) => void;
  now?: () => number;
}

interface Entry {
  governance: ToolGovernance;
  expiresAt: number;
}

const channel = 'governance:changed';

/**
 * A GovernanceSource over a store with a per-organisation TTL cache: an organisation without
 * governance costs one cached "none" and no store read until it expires. Concurrent misses of
 * one organisation share one load; a load that started before an invalidation is not cached.
 * When a reload fails, the stale snapshot keeps serving (retried every `retryAfterMs`).
 */
export class CachedGovernanceSource implements GovernanceSource {
  private readonly settings: CachedGovernanceSourceSettings;
  private readonly ttlMs: number;
  private readonly maxOrgs: number;
  private readonly retryAfterMs: number;
  private readonly now: () => number;
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<ToolGovernance>>();
  /** Bumped per organisation on invalidation, so an older in-flight load is not cached. */
  private readonly generations = new Map<string, number>();
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(settings: CachedGovernanceSourceSettings) {
    this.settings = settings;
    this.ttlMs = settings.ttlMs ?? 30_000;
    this.maxOrgs = Math.max(1, settings.maxOrgs ?? 10_000);
    this.retryAfterMs = settings.retryAfterMs ?? 5_000;
    this.now = settings.now ?? Date.now;
  }

  /** Subscribes to invalidations from other instances. Call once at start. */
  async start(): Promise<void> {
    if (!this.settings.bus || this.unsubscribe) return;
    this.unsubscribe = await this.settings.bus.subscribe(channel, (orgId) => this.forget(orgId));
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    await unsubscribe?.();
  }

  get(orgId: string): Promise<ToolGovernance> {
    const entry = this.entries.get(orgId);
    if (entry && entry.expiresAt > this.now()) return Promise.resolve(entry.governance);
    const inFlight = this.loading.get(orgId);
    if (inFlight) return inFlight;
    const pending: Promise<ToolGovernance> = this.reload(orgId, entry).finally(() => {
      if (this.loading.get(orgId) === pending) this.loading.delete(orgId);
    });
    this.loading.set(orgId, pending);
    return pending;
  }

  async invalidate(orgId: string): Promise<void> {
    this.forget(orgId);
    await this.settings.bus?.publish(channel, orgId);
  }

  private forget(orgId: string): void {
    this.entries.delete(orgId);
    this.loading.delete(orgId);
    this.generations.set(orgId, (this.generations.get(orgId) ?? 0) + 1);
  }

  private async reload(orgId: string, stale: Entry | undefined): Promise<ToolGovernance> {
    const generation = this.generations.get(orgId) ?? 0;
    let governance: ToolGovernance;
    try {
      governance = compileGovernance(await this.settings.load(orgId));
    } catch (error) {
      if (!stale || (this.generations.get(orgId) ?? 0) !== generation) throw error;
      this.settings.onError?.(error, orgId);
      this.store(orgId, { governance: stale.governance, expiresAt: this.now() + this.retryAfterMs });
      return stale.governance;
    }
    if ((this.generations.get(orgId) ?? 0) === generation) this.store(orgId, { governance, expiresAt: this.now() + this.ttlMs });
    return governance;
  }

  private store(orgId: string, entry: Entry): void {
    this.entries.delete(orgId);
    this.entries.set(orgId, entry);
    if (this.entries.size > this.maxOrgs) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
