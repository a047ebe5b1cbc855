/** Sticky chain routes: the model that served a conversation or chain last. Must be synchronous. */
export interface StickyRoutes {
  get(key: string): string | undefined;
  set(key: string, modelId: string): void;
}

/** Where the caller keeps the learned weights (e.g. a KV key); the router never calls it on its own. */
export interface WeightStore {
  load(): Promise<unknown>;
  save(snapshot: unknown): Promise<void>;
  /**
   * Replaces the stored value with `merge(current)` atomically with respect to other instances'
   * updates (current is undefined when nothing is stored) and resolves the value written. Rejects
   * without writing when another instance holds the store; the caller retries later. Without it,
   * `save` overwrites: the last instance to save wins.
   */
  update?(merge: (current: unknown) => unknown): Promise<unknown>;
}

/** Everything the router remembers between calls, supplied by the caller. */
export interface RouterState {
  sticky?: StickyRoutes;
  weights?: WeightStore;
}

/** In-process sticky routes, bounded: the oldest key is dropped past `capacity`. */
export function createMemoryStickyRoutes(capacity = 10_000): StickyRoutes {
  const routes = new Map<string, string>();
  return {
    get: (key) => routes.get(key),
    set(key, modelId) {
      routes.delete(key);
      routes.set(key, modelId);
      if (routes.size > capacity) routes.delete(routes.keys().next().value!);
    },
  };
}

/** Exponentially weighted moving average of latency per model, in milliseconds. */
export interface LatencyStats {
  /** Undefined until the first observation of `modelId`. */
  get(modelId: string): number | undefined;
  observe(modelId: string, latencyMs: number): void;
}

/** In-process latency EWMA; `alpha` is the weight of a new observation (0..1). */
export function createLatencyStats(alpha = 0.2): LatencyStats {
  const values = new Map<string, number>();
  return {
    get: (modelId) => values.get(modelId),
    observe(modelId, latencyMs) {
      if (!Number.isFinite(latencyMs) || latencyMs < 0) return;
      const current = values.get(modelId);
      values.set(modelId, current === undefined ? latencyMs : current + alpha * (latencyMs - current));
    },
  };
}
