import { type ChatRequest, GatewayError, type WorkflowType } from '@svc/core';
import type { Kv } from '@svc/kv';

/** Limits of a `long_horizon_autonomous` chain when the request states none (spec: "workflow dependent"). */
export interface ChainDefaults {
  maxSteps: number;
  /** 0: no time limit. */
  timeoutSecs: number;
}

export interface ChainLimiterSettings {
  kv: Kv;
  defaults?: ChainDefaults;
}

export const defaultChainLimits: ChainDefaults = { maxSteps: 200, timeoutSecs: 3_600 };

/** 409: the chain has used every step `max_chain_steps` allows. */
export function chainStepLimitExceeded(chainId: string, maxSteps: number): GatewayError {
  return new GatewayError({
    status: 409,
    type: 'invalid_request_error',
    code: 'chain_step_limit_exceeded',
    param: 'svc.max_chain_steps',
    message: `Chain '${chainId}' has reached its limit of ${maxSteps} steps (svc.max_chain_steps). Start a new chain_id to continue.`,
  });
}

/** 409: the chain is older than `chain_timeout_secs`. */
export function chainTimedOut(chainId: string, timeoutSecs: number): GatewayError {
  return new GatewayError({
    status: 409,
    type: 'invalid_request_error',
    code: 'chain_timeout_exceeded',
    param: 'svc.chain_timeout_secs',
    message: `Chain '${chainId}' started more than ${timeoutSecs} s ago (svc.chain_timeout_secs). Start a new chain_id to continue.`,
  });
}

/**
 * Enforces `max_chain_steps` and `chain_timeout_secs` per `chain_id` (scoped per organisation)
 * for `long_horizon_autonomous` chains, across instances through the kv. The limits apply when
 * the workflow is long-horizon: the caller's own limits whether the workflow was stated or
 * classified, the defaults only when the caller stated the workflow (a classified agent loop is
 * never cut by a limit it did not ask for). Every admitted request counts as one step.
 */
export class ChainLimiter {
  private readonly kv: Kv;
  private readonly defaults: ChainDefaults;

  constructor(settings: ChainLimiterSettings) {
    this.kv = settings.kv;
    this.defaults = settings.defaults ?? defaultChainLimits;
  }

  /** Whether `check` has anything to do for this request (no await otherwise). */
  applies(request: ChatRequest, workflow: WorkflowType): boolean {
    const svc = request.svc;
    return workflow === 'long_horizon_autonomous' && svc?.chainId !== undefined && (svc.workflowType !== undefined || svc.maxChainSteps !== undefined || svc.chainTimeoutSecs !== undefined);
  }

  /** Counts the step and throws a 409 GatewayError when the chain is over a limit. */
  async check(orgId: string, request: ChatRequest): Promise<{ step: number; maxSteps: number }> {
    const svc = request.svc!;
    const chainId = svc.chainId!;
    const stated = svc.workflowType !== undefined;
    const maxSteps = svc.maxChainSteps ?? (stated ? this.defaults.maxSteps : 0);
    const timeoutSecs = svc.chainTimeoutSecs ?? (stated ? this.defaults.timeoutSecs : 0);
    const prefix = `svc:chain:${orgId}:${chainId}`;
    // The chain's records outlive its timeout, so a timed-out chain stays refused, not restarted.
    const ttlMs = Math.max(86_400_000, timeoutSecs * 2_000);
    const now = Date.now();
    const [step, fresh] = await Promise.all([
      maxSteps > 0 ? this.kv.increment(`${prefix}:steps`, 1, { ttlMs }) : Promise.resolve(0),
      timeoutSecs > 0 ? this.kv.setIfAbsent(`${prefix}:started`, String(now), { ttlMs }) : Promise.resolve(false),
    ]);
    if (maxSteps > 0 && step > maxSteps) throw chainStepLimitExceeded(chainId, maxSteps);
    if (timeoutSecs > 0 && !fresh) {
      const started = Number(await this.kv.get(`${prefix}:started`));
      if (Number.isFinite(started) && started > 0 && now - started > timeoutSecs * 1000) throw chainTimedOut(chainId, timeoutSecs);
    }
    return { step, maxSteps };
  }
}
