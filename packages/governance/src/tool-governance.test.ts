import { describe, expect, it } from 'vitest';
import { canonicalJson, compileGovernance, noGovernance, ToolPolicyError, validateToolPolicy } from './index.js';
import type { ToolPolicy } from './types.js';

const governed = (policy: ToolPolicy, tools: string[] = []) =>
  compileGovernance({ tools: tools.map((name) => ({ name, parameters: { type: 'object' } })), policy });

describe('blocked tool names', () => {
  it('matches names and globs whole and case-insensitively', () => {
    const g = governed({ blockedTools: ['delete_user', 'shell_*', 'fs.?'] });
    expect(g.nameBlock('delete_user')).toBe('blocked_tool');
    expect(g.nameBlock('DELETE_USER')).toBe('blocked_tool');
    expect(g.nameBlock('delete_users')).toBeUndefined();
    expect(g.nameBlock('shell_')).toBe('blocked_tool');
    expect(g.nameBlock('shell_exec')).toBe('blocked_tool');
    expect(g.nameBlock('my_shell_exec')).toBeUndefined();
    expect(g.nameBlock('fs.w')).toBe('blocked_tool');
    expect(g.nameBlock('fsxw')).toBeUndefined();
    expect(g.nameBlock('fs.rw')).toBeUndefined();
  });

  it('treats regex characters in globs literally', () => {
    const g = governed({ blockedTools: ['a+b(c)|[d]'] });
    expect(g.nameBlock('a+b(c)|[d]')).toBe('blocked_tool');
    expect(g.nameBlock('aab(c)|[d]')).toBeUndefined();
  });

  it('reports unregistered names only when the registry is enforced', () => {
    expect(governed({ enforceRegistry: true }, ['search']).nameBlock('browse')).toBe('not_registered');
    expect(governed({ enforceRegistry: true }, ['search']).nameBlock('search')).toBeUndefined();
    // Registry names are exact: only blocking is case-insensitive.
    expect(governed({ enforceRegistry: true }, ['search']).nameBlock('Search')).toBe('not_registered');
    expect(governed({ blockedTools: ['x'] }, ['search']).nameBlock('browse')).toBeUndefined();
  });
});

describe('blocked argument patterns', () => {
  const g = governed({
    blockedArgumentPatterns: [
      { tool: 'run_sql', argument: 'query', pattern: '\\bdrop\\s+table\\b' },
      { tool: 'fs_*', argument: 'paths.*', pattern: '^/etc/' },
      { tool: '*', pattern: 'rm -rf' },
    ],
  });

  it('matches the value at the argument path, case-insensitively', () => {
    expect(g.argumentsBlocked('run_sql', '{"query":"DROP  TABLE users"}')).toBe(true);
    expect(g.argumentsBlocked('run_sql', '{"query":"select * from droptable"}')).toBe(false);
    // Only the named argument is inspected by that rule.
    expect(g.argumentsBlocked('run_sql', '{"query":"select 1","note":"drop table"}')).toBe(false);
    expect(g.argumentsBlocked('other', '{"query":"drop table x"}')).toBe(false);
  });

  it('fans out over * segments and into nested values', () => {
    expect(g.argumentsBlocked('fs_read', '{"paths":["/tmp/a","/etc/passwd"]}')).toBe(true);
    expect(g.argumentsBlocked('fs_read', '{"paths":{"main":"/etc/hosts"}}')).toBe(true);
    expect(g.argumentsBlocked('fs_read', '{"paths":["/tmp/a"],"other":"/etc/x"}')).toBe(false);
    expect(g.argumentsBlocked('fs_read', '{"path":"/etc/x"}')).toBe(false);
  });

  it('without a path, matches every string, number and boolean leaf', () => {
    expect(g.argumentsBlocked('anything', '{"steps":[{"cmd":"sudo rm -rf /"}]}')).toBe(true);
    expect(g.argumentsBlocked('anything', '{"steps":[{"cmd":"ls"}]}')).toBe(false);
    const numbers = governed({ blockedArgumentPatterns: [{ tool: 'pay', argument: 'amount', pattern: '^\\d{5,}' }] });
    expect(numbers.argumentsBlocked('pay', '{"amount": 250000}')).toBe(true);
    expect(numbers.argumentsBlocked('pay', '{"amount": 25}')).toBe(false);
  });

  it('matches arguments that are not JSON as raw text, and empty arguments as {}', () => {
    expect(g.argumentsBlocked('anything', '{"cmd": "rm -rf /", ')).toBe(true);
    expect(g.argumentsBlocked('anything', '')).toBe(false);
  });

  it('survives deeply nested arguments', () => {
    const deep = '['.repeat(5000) + '"rm -rf"' + ']'.repeat(5000);
    expect(g.argumentsBlocked('anything', deep)).toBe(true);
  });

  it('knows which tools need their arguments seen whole', () => {
    const narrow = governed({ blockedArgumentPatterns: [{ tool: 'run_sql', pattern: 'x' }] });
    expect(narrow.inspectsArguments('run_sql')).toBe(true);
    expect(narrow.inspectsArguments('search')).toBe(false);
  });
});

function refusedParam(policy: ToolPolicy): string | undefined {
  try {
    validateToolPolicy(policy);
    return undefined;
  } catch (error) {
    if (error instanceof ToolPolicyError) return error.param;
    throw error;
  }
}

describe('compiling and validating policies', () => {
  it('an organisation without a policy or tools costs nothing', () => {
    expect(compileGovernance({ tools: [], policy: undefined })).toBe(noGovernance);
    expect(noGovernance.active).toBe(false);
    expect(governed({}, ['search']).active).toBe(false);
    expect(governed({ enforceRegistry: true }).active).toBe(true);
    expect(governed({ blockedTools: ['x'] }).active).toBe(true);
  });

  it.each([
    [{ blockedTools: [''] }, 'blocked_tools.0'],
    [{ blockedTools: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'blocked_tools'],
    [{ blockedTools: ['ok', 'x'.repeat(129)] }, 'blocked_tools.1'],
    [{ blockedArgumentPatterns: [{ tool: 'a', pattern: '(' }] }, 'blocked_argument_patterns.0.pattern'],
    [{ blockedArgumentPatterns: [{ tool: 'a', pattern: 'ok' }, { tool: '', pattern: 'x' }] }, 'blocked_argument_patterns.1.tool'],
    [{ blockedArgumentPatterns: [{ tool: 'a', pattern: '' }] }, 'blocked_argument_patterns.0.pattern'],
    [{ blockedArgumentPatterns: [{ tool: 'a', argument: 'a..b', pattern: 'x' }] }, 'blocked_argument_patterns.0.argument'],
  ] satisfies [ToolPolicy, string][])('refuses %j naming %s', (policy, param) => {
    expect(refusedParam(policy)).toBe(param);
  });

  it('accepts a policy within the limits', () => {
    expect(refusedParam({ blockedTools: ['a*'], blockedArgumentPatterns: [{ tool: 'a', argument: 'x.*.y', pattern: '^(a|b)+$' }] })).toBeUndefined();
  });

  it('compares schemas regardless of key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, { e: 0, f: 1 }] }, b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});
