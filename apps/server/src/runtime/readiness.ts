import type { DependencyStatus, Readiness } from '@svc/http-kit';

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
