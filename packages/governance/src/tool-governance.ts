import { type ArgumentMatcher, compileArgumentRule } from './argument-rules.js';
import { compileGlob } from './glob.js';
import { policyLimits, ToolPolicyError } from './policy-error.js';
import type { BlockReason, GovernanceSnapshot, RegisteredTool, ToolArgumentRule, ToolPolicy } from './types.js';

/** JSON with object keys sorted, so schemas compare regardless of key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const record = inner as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
  });
}

/**
 * One organisation's registry and policy, compiled once (globs and patterns) and shared by every
 * request of that organisation until it changes.
 */
export class ToolGovernance {
  /** False when nothing is enforced: every check returns at once. */
  readonly active: boolean;
  readonly registry: ReadonlyMap<string, RegisteredTool>;
  readonly policy: Readonly<Required<ToolPolicy>>;
  private readonly schemas = new Map<string, string>();
  private readonly blockedNames: ((name: string) => boolean)[];
  private readonly argumentRules: ArgumentMatcher[];

  constructor(snapshot: GovernanceSnapshot) {
    const policy = snapshot.policy ?? {};
    this.policy = {
      enforceRegistry: policy.enforceRegistry ?? false,
      requireSchemaMatch: policy.requireSchemaMatch ?? false,
      blockedTools: [...(policy.blockedTools ?? [])],
      blockedArgumentPatterns: [...(policy.blockedArgumentPatterns ?? [])],
    };
    this.registry = new Map(snapshot.tools.map((tool) => [tool.name, tool]));
    this.blockedNames = compileBlockedTools(this.policy.blockedTools);
    this.argumentRules = compileArgumentRules(this.policy.blockedArgumentPatterns);
    this.active = this.policy.enforceRegistry || this.blockedNames.length > 0 || this.argumentRules.length > 0;
  }

  /** The registered schema of `name` in canonical JSON, or undefined when not registered. */
  registeredSchema(name: string): string | undefined {
    const tool = this.registry.get(name);
    if (!tool) return undefined;
    let schema = this.schemas.get(name);
    if (schema === undefined) {
      schema = canonicalJson(tool.parameters);
      this.schemas.set(name, schema);
    }
    return schema;
  }

  /** Why a call to `name` is blocked whatever its arguments, or undefined. */
  nameBlock(name: string): BlockReason | undefined {
    if (this.blockedNames.some((matches) => matches(name))) return 'blocked_tool';
    if (this.policy.enforceRegistry && !this.registry.has(name)) return 'not_registered';
    return undefined;
  }

  /** Whether some argument rule applies to calls of `name` (their arguments must be seen whole). */
  inspectsArguments(name: string): boolean {
    return this.argumentRules.some((rule) => rule.appliesTo(name));
  }

  /** Whether a call of `name` with these arguments (JSON text) is blocked by an argument rule. */
  argumentsBlocked(name: string, args: string): boolean {
    const rules = this.argumentRules.filter((rule) => rule.appliesTo(name));
    if (rules.length === 0) return false;
    const parsed = parseArguments(args);
    return rules.some((rule) => rule.blocks(parsed, args));
  }
}

/** The governance of an organisation without a policy: enforces nothing. */
export const noGovernance: ToolGovernance = new ToolGovernance({ tools: [], policy: undefined });

/** Compiles a snapshot; throws ToolPolicyError when a glob or pattern is invalid or too large. */
export function compileGovernance(snapshot: GovernanceSnapshot): ToolGovernance {
  if (snapshot.policy === undefined && snapshot.tools.length === 0) return noGovernance;
  return new ToolGovernance(snapshot);
}

/** Checks a policy the way compiling it does, without keeping the result (admin writes). */
export function validateToolPolicy(policy: ToolPolicy): void {
  compileBlockedTools(policy.blockedTools ?? []);
  compileArgumentRules(policy.blockedArgumentPatterns ?? []);
}

function compileBlockedTools(globs: readonly string[]): ((name: string) => boolean)[] {
  if (globs.length > policyLimits.blockedTools) throw new ToolPolicyError('blocked_tools', `at most ${policyLimits.blockedTools} entries`);
  return globs.map((glob, index) => {
    if (glob.length === 0 || glob.length > policyLimits.globLength) {
      throw new ToolPolicyError(`blocked_tools.${index}`, `must be 1 to ${policyLimits.globLength} characters`);
    }
    return compileGlob(glob);
  });
}

function compileArgumentRules(rules: readonly ToolArgumentRule[]): ArgumentMatcher[] {
  if (rules.length > policyLimits.argumentRules) {
    throw new ToolPolicyError('blocked_argument_patterns', `at most ${policyLimits.argumentRules} rules`);
  }
  return rules.map((rule, index) => compileArgumentRule(rule, `blocked_argument_patterns.${index}`));
}

/** The parsed arguments, or undefined when they are not JSON (then rules see the raw text). */
function parseArguments(args: string): { value: unknown } | undefined {
  if (args.trim() === '') return { value: {} };
  try {
    return { value: JSON.parse(args) as unknown };
  } catch {
    return undefined;
  }
}
