import type { ChatResult, StreamEvent } from '@svc/core';
import { compileGovernance } from '@svc/governance';
import type { Provider } from '@svc/providers';
import { describe, expect, it } from 'vitest';
import { request, setup } from '../test/gateway-harness.js';

/** A provider that answers with one call of `tool` (arguments as given), as JSON or as a stream. */
function calling(tool: string, args: string) {
  let calls = 0;
  const provider: Provider & { calls(): number } = {
    id: 'groq',
    calls: () => calls,
    async chat(req): Promise<ChatResult> {
      calls++;
      return {
        model: req.model,
        choices: [{ index: 0, message: { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: tool, arguments: args }] }, finishReason: 'tool_calls' }],
        usage: { promptTokens: 50, completionTokens: 10, totalTokens: 60 },
      };
    },
    async stream() {
      calls++;
      return (async function* (): AsyncGenerator<StreamEvent> {
        yield { type: 'text-delta', choice: 0, text: 'Let me check.' };
        yield { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: tool, argumentsDelta: args.slice(0, 5) };
        yield { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: args.slice(5) };
        yield { type: 'finish', choice: 0, finishReason: 'tool_calls' };
        yield { type: 'usage', usage: { promptTokens: 50, completionTokens: 10, totalTokens: 60 } };
      })();
    },
  };
  return provider;
}

const governance = compileGovernance({
  tools: [
    { name: 'search', parameters: { type: 'object' } },
    { name: 'delete_account', parameters: { type: 'object' } },
  ],
  policy: { enforceRegistry: true, blockedTools: ['delete_*'] },
});
const source = { get: async () => governance };
const tools = (...names: string[]) => names.map((name) => ({ name, parameters: { type: 'object' } }));

describe('tool governance in the pipeline', () => {
  it('refuses an unregistered declared tool with 404 before any provider call', async () => {
    const groq = calling('search', '{"q":"x"}');
    const { gateway, context } = setup([groq], undefined, { governance: source });
    await expect(gateway.chat(request({ tools: tools('search', 'shell') }), context())).rejects.toMatchObject({ status: 404, type: 'governance_error', code: 'tool_not_registered', param: 'tools.1.name' });
    expect(groq.calls()).toBe(0);
  });

  it('refuses a blocked tool call with 422 and still records the spend', async () => {
    const groq = calling('delete_account', '{"id":"42"}');
    const { gateway, context, usage, decisions } = setup([groq], undefined, { governance: source });
    await expect(gateway.chat(request({ tools: tools('search', 'delete_account') }), context())).rejects.toMatchObject({ status: 422, type: 'governance_error', code: 'tool_call_blocked' });
    expect(usage).toHaveLength(1);
    expect(usage[0]!.costUsd).toBeGreaterThan(0);
    expect(decisions[0]!.outcome).toBe('tool_call_blocked');
  });

  it('lets an allowed call through', async () => {
    const { gateway, context } = setup([calling('search', '{"q":"x"}')], undefined, { governance: source });
    const response = await gateway.chat(request({ tools: tools('search') }), context());
    expect(response.kind === 'json' && response.result.choices[0]!.message.toolCalls![0]!.name).toBe('search');
  });

  it('ends a stream with an error before a blocked call goes out, after the text that preceded it', async () => {
    const { gateway, context, decisions } = setup([calling('delete_account', '{"id":"42"}')], undefined, { governance: source });
    const response = await gateway.chat(request({ stream: true, tools: tools('search', 'delete_account') }), context());
    if (response.kind !== 'stream') throw new Error('stream expected');
    const seen: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of response.events) seen.push(event);
      })(),
    ).rejects.toMatchObject({ code: 'tool_call_blocked' });
    expect(seen.some((e) => e.type === 'text-delta')).toBe(true);
    expect(seen.some((e) => e.type === 'tool-call-delta')).toBe(false);
    expect(decisions[0]!.outcome).toBe('tool_call_blocked');
  });

  it('costs nothing for a request without tools', async () => {
    let asked = 0;
    const { gateway, context } = setup([calling('search', '{}')], undefined, {
      governance: {
        get: async () => {
          asked++;
          return governance;
        },
      },
    });
    await gateway.chat(request({}), context());
    expect(asked).toBe(0);
  });
});
