import type { StreamEvent } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { compileGovernance, guardToolCallStream, noGovernance, ToolCallStreamGuard, type ToolGovernance } from './index.js';

const g = compileGovernance({
  tools: [{ name: 'search', parameters: {} }, { name: 'run_sql', parameters: {} }, { name: 'shell_exec', parameters: {} }],
  policy: { enforceRegistry: true, blockedTools: ['shell_*'], blockedArgumentPatterns: [{ tool: 'run_sql', argument: 'query', pattern: '\\bdrop\\b' }] },
});

const text = (t: string, choice = 0): StreamEvent => ({ type: 'text-delta', choice, text: t });
const start = (name: string, index = 0, choice = 0): StreamEvent => ({ type: 'tool-call-delta', choice, index, id: `call_${index}`, name, argumentsDelta: '' });
const args = (argumentsDelta: string, index = 0, choice = 0): StreamEvent => ({ type: 'tool-call-delta', choice, index, argumentsDelta });
const finish = (choice = 0): StreamEvent => ({ type: 'finish', choice, finishReason: 'tool_calls' });

/** Feeds events one at a time; returns what was forwarded before the end or the error. */
function run(governance: ToolGovernance, events: StreamEvent[]): { forwarded: StreamEvent[]; error?: { status: number; code: string }; fedBeforeError: number } {
  const guard = new ToolCallStreamGuard(governance);
  const forwarded: StreamEvent[] = [];
  let fed = 0;
  try {
    for (const event of events) {
      fed += 1;
      forwarded.push(...guard.push(event));
    }
    forwarded.push(...guard.end());
    return { forwarded, fedBeforeError: fed };
  } catch (error) {
    return { forwarded, error: error as { status: number; code: string }, fedBeforeError: fed };
  }
}

describe('ToolCallStreamGuard', () => {
  it('forwards allowed streams unchanged and in order', () => {
    const events = [text('Looking'), start('search'), args('{"q":'), args('"x"}'), finish(), { type: 'usage', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } } as StreamEvent];
    expect(run(g, events).forwarded).toEqual(events);
  });

  it('refuses a blocked name at its first fragment, before forwarding it', () => {
    const outcome = run(g, [text('ok'), start('shell_exec'), args('{"cmd":"ls"}'), finish()]);
    expect(outcome.error).toMatchObject({ status: 422, code: 'tool_call_blocked' });
    expect(outcome.fedBeforeError).toBe(2);
    expect(outcome.forwarded).toEqual([text('ok')]);
  });

  it('refuses a call to an unregistered tool at its first fragment when the registry is enforced', () => {
    const outcome = run(g, [start('browse'), args('{}')]);
    expect(outcome.error).toMatchObject({ code: 'tool_call_blocked' });
    expect(outcome.fedBeforeError).toBe(1);
  });

  it("releases a held call at the provider's end of it, the end after its fragments", () => {
    const guard = new ToolCallStreamGuard(g);
    const end: StreamEvent = { type: 'tool-call-end', choice: 0, index: 0 };
    expect(guard.push(start('run_sql'))).toEqual([]);
    expect(guard.push(args('{"query":"select 1"}'))).toEqual([]);
    expect(guard.push(end)).toEqual([start('run_sql'), args('{"query":"select 1"}'), end]);
    expect(run(g, [start('run_sql'), args('{"query":"drop table x"}'), end]).error).toMatchObject({ code: 'tool_call_blocked' });
  });

  it('holds calls with argument rules until complete, then releases them in order', () => {
    const guard = new ToolCallStreamGuard(g);
    expect(guard.push(start('run_sql'))).toEqual([]);
    expect(guard.push(args('{"query":"select'))).toEqual([]);
    expect(guard.push(text('while waiting', 1))).toEqual([text('while waiting', 1)]);
    expect(guard.push(args(' 1"}'))).toEqual([]);
    // The next call of the choice completes the first.
    expect(guard.push(start('search', 1))).toEqual([start('run_sql'), args('{"query":"select'), args(' 1"}'), start('search', 1)]);
    expect(guard.push(finish())).toEqual([finish()]);
  });

  it('blocks a held call whose complete arguments match, whatever the fragmenting', () => {
    const cut = run(g, [start('run_sql'), args('{"query":"DR'), args('OP table t"}'), finish()]);
    expect(cut.error).toMatchObject({ status: 422, code: 'tool_call_blocked' });
    expect(cut.forwarded).toEqual([]);
    const atEnd = run(g, [start('run_sql'), args('{"query":"drop t"}')]);
    expect(atEnd.error).toMatchObject({ code: 'tool_call_blocked' });
  });

  it('keeps choices apart: one choice finishing releases only its own calls', () => {
    const guard = new ToolCallStreamGuard(g);
    expect(guard.push(start('run_sql', 0, 0))).toEqual([]);
    expect(guard.push(start('run_sql', 0, 1))).toEqual([]);
    expect(guard.push(args('{"query":"select 1"}', 0, 1))).toEqual([]);
    expect(guard.push(finish(1))).toEqual([start('run_sql', 0, 1), args('{"query":"select 1"}', 0, 1), finish(1)]);
    expect(guard.push(args('{"query":"drop x"}', 0, 0))).toEqual([]);
    expect(() => guard.push(finish(0))).toThrow(/run_sql/);
  });

  it('checks late fragments of a released call as they come', () => {
    const outcome = run(g, [start('run_sql', 0), args('{"query":"select 1'), start('search', 1), args('; drop table t"}', 0)]);
    expect(outcome.error).toMatchObject({ code: 'tool_call_blocked' });
    expect(outcome.fedBeforeError).toBe(4);
    expect(outcome.forwarded).toEqual([start('run_sql', 0), args('{"query":"select 1'), start('search', 1)]);
  });

  it('does nothing without governance, and the stream wrapper returns the same iterable', async () => {
    expect(run(noGovernance, [start('shell_exec'), args('{}'), finish()]).error).toBeUndefined();
    const events = (async function* () {
      yield start('search');
    })();
    expect(guardToolCallStream(events, noGovernance)).toBe(events);
  });

  it('guardToolCallStream throws mid-stream after forwarding what came before', async () => {
    async function* upstream(): AsyncGenerator<StreamEvent> {
      yield text('a');
      yield start('run_sql');
      yield args('{"query":"drop t"}');
      yield finish();
    }
    const seen: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of guardToolCallStream(upstream(), g)) seen.push(event);
      })(),
    ).rejects.toMatchObject({ code: 'tool_call_blocked' });
    expect(seen).toEqual([text('a')]);
  });
});
