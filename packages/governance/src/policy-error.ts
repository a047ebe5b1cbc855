/** Sizes an admin-written policy may have: they bound the work per tool call. */
export const policyLimits = {
  blockedTools: 100,
  globLength: 128,
  argumentRules: 100,
  argumentPathLength: 256,
  patternLength: 500,
} as const;

/** A policy that cannot be compiled; `param` names the field as the admin API spells it (e.g. `blocked_argument_patterns.2.pattern`). */
export class ToolPolicyError extends Error {
  readonly param: string;

  constructor(param: string, message: string) {
    super(`${param}: ${message}`);
    this.name = 'ToolPolicyError';
    this.param = param;
  }
}
