import type { OutputVerification } from './request.js';

/**
 * An organisation's output verification defaults (`GET/PUT /v1/output/config`), carried on its
 * callers so the pipeline reads them without a lookup.
 */
export interface OutputConfig {
  /**
   * The verification of a request that names no `svc.output_verification` (and no
   * `svc.reliability_level` above `standard`); `auto` is the gateway's own choice.
   */
  outputVerification: OutputVerification | 'auto';
  /** Serve healed (repaired or coerced) answers; false: an answer that needs healing counts as invalid. */
  healing: boolean;
  /** Least confidence (0..1) a healed answer needs to be served; below it the answer counts as invalid. */
  minConfidence: number;
  /** Re-asks at most (0..3) of an answer still invalid, when the verification re-asks at all. */
  maxReasks: number;
  /** Model re-asked first under `cross_model` (a catalog id); null: the next model of the waterfall. */
  crossModelCandidate: string | null;
}

/** What an organisation gets until it stores its own: the gateway's documented behaviour. */
export const defaultOutputConfig: Readonly<OutputConfig> = Object.freeze({
  outputVerification: 'auto',
  healing: true,
  minConfidence: 0,
  maxReasks: 1,
  crossModelCandidate: null,
});

/** The verification modes an organisation may choose as its default. */
export const outputVerificationDefaults = ['auto', 'none', 'native', 'schema', 'cross_model'] as const;

/** Most re-asks an organisation may allow per answer. */
export const maxReasksLimit = 3;
