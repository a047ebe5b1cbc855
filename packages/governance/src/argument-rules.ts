import { compileGlob } from './glob.js';
import { policyLimits, ToolPolicyError } from './policy-error.js';
import type { ToolArgumentRule } from './types.js';

/** A compiled ToolArgumentRule. */
export interface ArgumentMatcher {
  appliesTo(toolName: string): boolean;
  /** `parsed` is undefined when the arguments are not JSON; then `raw` is matched. */
  blocks(parsed: { value: unknown } | undefined, raw: string): boolean;
}

/** Compiles one rule; `param` prefixes the field named in a ToolPolicyError. */
export function compileArgumentRule(rule: ToolArgumentRule, param: string): ArgumentMatcher {
  if (rule.tool.length === 0 || rule.tool.length > policyLimits.globLength) {
    throw new ToolPolicyError(`${param}.tool`, `must be 1 to ${policyLimits.globLength} characters`);
  }
  if (rule.pattern.length === 0 || rule.pattern.length > policyLimits.patternLength) {
    throw new ToolPolicyError(`${param}.pattern`, `must be 1 to ${policyLimits.patternLength} characters`);
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(rule.pattern, 'i');
  } catch (error) {
    throw new ToolPolicyError(`${param}.pattern`, `is not a valid regular expression (${(error as Error).message})`);
  }
  const path = rule.argument === undefined ? [] : rule.argument.split('.');
  if (rule.argument !== undefined && (rule.argument.length > policyLimits.argumentPathLength || path.some((segment) => segment === ''))) {
    throw new ToolPolicyError(`${param}.argument`, `must be a dotted path of non-empty segments, at most ${policyLimits.argumentPathLength} characters`);
  }
  const appliesTo = compileGlob(rule.tool);
  return {
    appliesTo,
    blocks(parsed, raw) {
      if (parsed === undefined) return pattern.test(raw);
      for (const value of select(parsed.value, path)) {
        for (const leaf of leaves(value)) if (pattern.test(leaf)) return true;
      }
      return false;
    },
  };
}

/** The values at `path`; a `*` segment fans out over every key or index. */
function select(root: unknown, path: readonly string[]): unknown[] {
  let current: unknown[] = [root];
  for (const segment of path) {
    const next: unknown[] = [];
    for (const value of current) {
      if (value === null || typeof value !== 'object') continue;
      if (segment === '*') for (const inner of Object.values(value)) next.push(inner);
      else if (Object.hasOwn(value, segment)) next.push((value as Record<string, unknown>)[segment]);
    }
    if (next.length === 0) return [];
    current = next;
  }
  return current;
}

/** String, number and boolean leaves below `value` (iterative: model output may nest deeply). */
function* leaves(value: unknown): Generator<string> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') yield item;
    else if (typeof item === 'number' || typeof item === 'boolean') yield String(item);
    else if (item !== null && typeof item === 'object') for (const inner of Object.values(item)) stack.push(inner);
  }
}
