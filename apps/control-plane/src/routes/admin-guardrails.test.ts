import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { guardrailsField, guardrailsToWire, toGuardrails } from './admin-guardrails.js';

const parse = (value: unknown) => v.safeParse(guardrailsField, value);
const firstIssue = (value: unknown) => {
  const result = parse(value);
  if (result.success) throw new Error('expected a refusal');
  return { path: v.getDotPath(result.issues[0]), message: result.issues[0].message };
};

describe('guardrails admin field', () => {
  it('stores checks in order with defaults, and reads them back in wire names', () => {
    const result = parse([
      { type: 'pii', stage: 'before_call', action: 'redact' },
      { type: 'prompt_injection', stage: 'before_call', action: 'refuse', threshold: 0.7 },
      { type: 'webhook', stage: 'after_answer', action: 'refuse', url: 'https://guard.example/check', failure_mode: 'closed' },
    ]);
    if (!result.success) throw new Error('expected the checks to parse');
    const stored = toGuardrails(result.output ?? null);
    expect(stored).toEqual([
      { kind: 'pii', stage: 'before_call', action: 'redact' },
      { kind: 'prompt_injection', stage: 'before_call', action: 'refuse', threshold: 0.7 },
      { kind: 'webhook', stage: 'after_answer', action: 'refuse', url: 'https://guard.example/check', timeoutMs: 2000, failureMode: 'closed' },
    ]);
    expect(guardrailsToWire(stored)[2]).toEqual({ type: 'webhook', stage: 'after_answer', action: 'refuse', url: 'https://guard.example/check', timeout_ms: 2000, failure_mode: 'closed' });
    expect(toGuardrails([])).toBeNull();
  });

  it('names an unknown field, a redaction after the answer and a remote check without failure_mode', () => {
    expect(firstIssue([{ type: 'secrets', stage: 'before_call', action: 'refuse', acton: 'log' }])).toMatchObject({ path: '0.acton', message: expect.stringContaining('unknown field') });
    expect(firstIssue([{ type: 'pii', stage: 'after_answer', action: 'redact' }]).message).toContain('before_call');
    expect(firstIssue([{ type: 'moderation', stage: 'before_call', action: 'refuse' }]).path).toBe('0.failure_mode');
    expect(firstIssue([{ type: 'webhook', stage: 'before_call', action: 'refuse', url: 'ftp://x.example', failure_mode: 'open' }]).path).toBe('0.url');
    expect(firstIssue([{ type: 'virus_scan', stage: 'before_call', action: 'log' }]).path).toBe('0.type');
  });
});
