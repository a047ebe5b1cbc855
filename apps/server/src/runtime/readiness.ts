/** One backend as `/ready` reports it. */
export interface DependencyStatus {
  status: 'up' | 'down';
  /** Which implementation serves it (`postgres`, `pglite`, `redis`, `in_process`). */
  backend: string;
  required: boolean;
  latency_ms?: number;
}

/** `ReadinessResponse` of the control-plane spec. */
export interface Readiness {
  ready: boolean;
  status: 'ready' | 'degraded' | 'not_ready';
  /** `encoder`: the local sentence encoder (`SVC_SENTENCE_ENCODER`) memory and the semantic stages share. */
  dependencies: { database: DependencyStatus; kv: DependencyStatus; vector_db: DependencyStatus; encoder: DependencyStatus };
}

/** Resolves false after `ms` instead of hanging: a probe must answer fast. */
export async function probe(check: () => Promise<boolean>, ms: number): Promise<{ up: boolean; latencyMs: number }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    const up = await Promise.race([check().catch(() => false), timeout]);
    return { up, latencyMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/** Required backends down -> not_ready; only optional ones down -> degraded. */
export function summarise(dependencies: Readiness['dependencies']): Readiness {
  const all = Object.values(dependencies);
  const requiredDown = all.some((d) => d.required && d.status === 'down');
  const optionalDown = all.some((d) => !d.required && d.status === 'down');
  const status = requiredDown ? 'not_ready' : optionalDown ? 'degraded' : 'ready';
  return { ready: !requiredDown, status, dependencies };
}
