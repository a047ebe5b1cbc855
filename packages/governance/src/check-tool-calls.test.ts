import type { ChatResult, ToolCall } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { checkToolCalls, compileGovernance, findBlockedToolCall, noGovernance } from './index.js';

const g = compileGovernance({
  tools: [{ name: 'search', parameters: {} }, { name: 'run_sql', parameters: {} }],
  policy: { enforceRegistry: true, blockedTools: ['delete_*'], blockedArgumentPatterns: [{ tool: 'run_sql', argument: 'query', pattern: '\\bdrop\\b' }] },
});
const call = (name: string, args = '{}', id = `call_${name}`): ToolCall => ({ id, name, arguments: args });
const answer = (...choices: ToolCall[][]): ChatResult => ({
  model: 'm',
  choices: choices.map((toolCalls, index) => ({ index, message: { role: 'assistant', content: null, toolCalls }, finishReason: 'tool_calls' })),
});

describe('checkToolCalls', () => {
  it('passes allowed calls and answers without calls', () => {
    expect(() => checkToolCalls(answer([call('search'), call('run_sql', '{"query":"select 1"}')]), g)).not.toThrow();
    expect(() => checkToolCalls({ model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finishReason: 'stop' }] }, g)).not.toThrow();
  });

  it('throws 422 tool_call_blocked naming the blocked call', () => {
    let caught: unknown;
    try {
      checkToolCalls(answer([call('search')], [call('run_sql', '{"query":"DROP TABLE t"}')]), g);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ status: 422, type: 'governance_error', code: 'tool_call_blocked', message: expect.stringContaining("'run_sql'") });
  });

  it('reports the first blocked call, its choice and why', () => {
    expect(findBlockedToolCall(answer([call('search')], [call('delete_user'), call('browse')]), g)).toMatchObject({ call: { name: 'delete_user' }, reason: 'blocked_tool', choice: 1 });
    expect(findBlockedToolCall(answer([call('browse')]), g)).toMatchObject({ reason: 'not_registered', choice: 0 });
    expect(findBlockedToolCall([call('search'), call('run_sql', '{"query":"drop x"}')], g)).toMatchObject({ reason: 'blocked_argument' });
    expect(findBlockedToolCall(call('DELETE_ALL'), g)).toMatchObject({ reason: 'blocked_tool' });
    expect(findBlockedToolCall(call('search'), g)).toBeUndefined();
  });

  it('enforces nothing for an organisation without governance', () => {
    expect(findBlockedToolCall(answer([call('delete_user')]), noGovernance)).toBeUndefined();
  });
});
