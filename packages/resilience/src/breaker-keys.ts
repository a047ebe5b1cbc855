/**
 * Kv key layout of the breakers. The breaker key (`provider/model`) always comes last, so a
 * model id containing `:` can never make two layouts collide.
 */
export class BreakerKeys {
  constructor(private readonly prefix: string) {}

  /** JSON {@link OpenRecord} while the breaker is open or half-open; absent while closed. */
  open(key: string): string {
    return `${this.prefix}open:${key}`;
  }

  /** Backoff level of the last open, kept for a while after closing so a relapse waits longer. */
  level(key: string): string {
    return `${this.prefix}level:${key}`;
  }

  /** Failures since the last success. */
  consecutive(key: string): string {
    return `${this.prefix}consecutive:${key}`;
  }

  /** Outcome counter of one fixed bucket of the sliding window. */
  bucket(key: string, bucket: number, outcome: 'success' | 'failure'): string {
    return `${this.prefix}${outcome === 'success' ? 's' : 'f'}:${bucket}:${key}`;
  }

  /** Half-open probe slot `slot`: whoever sets it (with a TTL) holds that probe. */
  probe(key: string, slot: number): string {
    return `${this.prefix}probe:${slot}:${key}`;
  }

  /** Marker that `key` is in the index stream (set once, so the stream holds each key once). */
  known(key: string): string {
    return `${this.prefix}known:${key}`;
  }

  /** Stream of every breaker key ever recorded, so any instance (the control plane) can list them. */
  index(): string {
    return `${this.prefix}index`;
  }
}

/** What an open breaker stores: when it opened and how long it waits before a probe. */
export interface OpenRecord {
  /** Epoch ms. */
  openedAt: number;
  /** Cooldown of this open, ms (`cooldownBaseMs * 2^level`, capped). */
  cooldownMs: number;
  /** 0 for a first open; +1 for each reopen after a failed probe or a relapse soon after closing. */
  level: number;
}

export function parseOpenRecord(raw: string | null): OpenRecord | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { openedAt, cooldownMs, level } = value as Record<string, unknown>;
    if (typeof openedAt !== 'number' || typeof cooldownMs !== 'number' || typeof level !== 'number') return null;
    return { openedAt, cooldownMs, level };
  } catch {
    // A record this version cannot read behaves like a closed breaker rather than a stuck one.
    return null;
  }
}
