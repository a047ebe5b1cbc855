/** One provider call of the waterfall, as recorded in the decision log. */
export interface Attempt {
  model: string;
  provider: string;
  /** Index of the provider key used, when the provider has a key pool. */
  keyIndex?: number;
  /** `skipped`: an open circuit breaker kept the candidate from being called. */
  outcome: 'ok' | 'error' | 'skipped';
  /** Normalised ProviderError kind when the attempt failed. */
  errorKind?: string;
  /** Upstream HTTP status when there was one. */
  upstreamStatus?: number;
  latencyMs: number;
}
