import { randomUUID } from 'node:crypto';
import { GatewayError } from '@svc/core';
import { type CapabilityMatrix, capabilityMatrix } from '@svc/reports';
import type { ControlPlaneDeps } from '../deps.js';

/** Kv keys under the deployment's namespace: the last computed matrix (shared by every instance) and the refresh lock. */
export function matrixKeys(kvNamespace: string): { snapshot: string; refreshLock: string } {
  return { snapshot: `${kvNamespace}routing:matrix`, refreshLock: `${kvNamespace}routing:matrix:refresh` };
}
/** How long a refresh may hold the lock; a holder that dies frees it after this. */
export const MATRIX_REFRESH_LOCK_TTL_MS = 60_000;

type Deps = Pick<ControlPlaneDeps, 'catalog' | 'breakers' | 'kv' | 'kvNamespace' | 'reports' | 'logger'> & { db: { decisions: Pick<ControlPlaneDeps['db']['decisions'], 'outcomeStatsByModel'> } };

/** A refresh that failed, with the step that failed (for `error_detail`). */
export class MatrixRefreshError extends Error {
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    super(`${step} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MatrixRefreshError';
  }
}

async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new MatrixRefreshError(name, error);
  }
}

/** 503 while another refresh (on any instance sharing the kv) holds the lock. */
function refreshRunning(retryAfterMs: number): GatewayError {
  return new GatewayError({
    status: 503,
    type: 'governance_error',
    code: 'matrix_refresh_in_progress',
    message: 'A capability matrix refresh is already running; retry later.',
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
    retryable: true,
  });
}

/**
 * The capability matrix: computed from the active catalog, the breakers and the decisions of the
 * last `windowHours`, kept in the kv so every instance serves the same snapshot. One refresh at a
 * time across instances: a kv lock (set-if-absent with a TTL) guards it.
 */
export function createMatrixStore(deps: Deps) {
  const settings = deps.reports.matrix;
  const keys = matrixKeys(deps.kvNamespace);

  async function compute(): Promise<CapabilityMatrix> {
    const now = new Date();
    const since = new Date(now.getTime() - settings.windowHours * 3_600_000);
    const [breakers, stats] = await Promise.all([
      step('reading circuit breakers', () => deps.breakers.list()),
      step('reading decision statistics', () => deps.db.decisions.outcomeStatsByModel({ since, until: now })),
    ]);
    return capabilityMatrix(deps.catalog.list(), breakers, stats, settings, now);
  }

  async function computeAndStore(): Promise<CapabilityMatrix> {
    const matrix = await compute();
    await step('storing the matrix', () => deps.kv.set(keys.snapshot, JSON.stringify(matrix)));
    return matrix;
  }

  async function release(token: string): Promise<void> {
    try {
      // Only our own lock: after a TTL expiry another instance may hold it.
      if ((await deps.kv.get(keys.refreshLock)) === token) await deps.kv.delete(keys.refreshLock);
    } catch (error) {
      deps.logger.warn({ err: error }, 'capability matrix: refresh lock not released; it expires by itself');
    }
  }

  return {
    /** The last computed matrix; computed (and stored) when there is none yet. */
    async current(): Promise<CapabilityMatrix> {
      const stored = await deps.kv.get(keys.snapshot);
      if (stored !== null) return JSON.parse(stored) as CapabilityMatrix;
      return computeAndStore();
    },

    /**
     * Recomputes and stores the matrix. Throws a 503 GatewayError while another refresh runs,
     * a MatrixRefreshError naming the failed step otherwise.
     */
    async refresh(): Promise<CapabilityMatrix> {
      const token = randomUUID();
      const acquired = await step('taking the refresh lock', () => deps.kv.setIfAbsent(keys.refreshLock, token, { ttlMs: MATRIX_REFRESH_LOCK_TTL_MS }));
      if (!acquired) {
        const ttl = await deps.kv.ttl(keys.refreshLock).catch(() => MATRIX_REFRESH_LOCK_TTL_MS);
        throw refreshRunning(ttl > 0 ? ttl : MATRIX_REFRESH_LOCK_TTL_MS);
      }
      try {
        return await computeAndStore();
      } finally {
        await release(token);
      }
    },
  };
}
