/**
 * The stream translation conformance suite: every chat adapter's stream decoder (OpenAI chunks,
 * Anthropic events, Claude on Vertex, Bedrock ConverseStream frames, Gemini chunks, Cohere
 * events) feeding every client protocol's stream encoder (chat completions, Anthropic Messages,
 * Responses), read back by that protocol's official SDK. Each translated stream must end as the
 * non-stream answer of the same upstream answer does (the adapter's JSON path, then the
 * protocol's JSON encoder), every tool-argument byte the upstream streamed must reach the client,
 * and each SDK's event order must hold.
 *
 * Fixed cases name the shapes that broke or could break; generated cases (fast-check, chosen for
 * its shrinking to a minimal failing chunk sequence and its reproducible seeds) cover the rest.
 */
import type { StreamEvent } from '@svc/core';
import type { ProviderChatRequest } from '@svc/providers';
import { type AnswerToolCall, type UpstreamAnswer, type UpstreamWire, argumentsOf, upstreamWires } from '@svc/providers/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamCollector } from '../stream-collect.js';
import { answerArbitrary } from './answer-arbitrary.js';
import { type ClientAnswer, type ClientProtocol, clientProtocols } from './client-readers.js';

const request = (model: string, stream: boolean): ProviderChatRequest => ({
  model,
  messages: [{ role: 'user', content: 'Weather and time in Paris?' }],
  stream,
  n: 1,
  includeUsage: true,
  tools: [{ name: 'get_weather', parameters: { type: 'object' } }],
});

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The arguments a client must receive: the upstream's bytes (Gemini sends parsed objects, re-serialised). */
function expectedArguments(wire: UpstreamWire, call: AnswerToolCall): string {
  return wire.carries.fragments ? argumentsOf(call) : JSON.stringify(JSON.parse(argumentsOf(call)));
}

const byId = (answer: ClientAnswer) => [...answer.calls].sort((a, b) => (a.id < b.id ? -1 : 1));

/** One upstream answer through one adapter and one client protocol, streamed and not. */
async function checkTranslation(wire: UpstreamWire, protocol: ClientProtocol, answer: UpstreamAnswer): Promise<void> {
  const events = await collect(await wire.provider(answer).stream(request(wire.model, true)));
  const oracle = await wire.provider(answer).chat(request(wire.model, false));
  const streamed = await protocol.stream(events);
  const whole = protocol.json(oracle);
  const where = `${wire.name} -> ${protocol.name}`;
  expect(streamed.text, where).toBe(whole.text);
  expect(streamed.reasoning, where).toBe(whole.reasoning);
  expect(streamed.refusal, where).toBe(whole.refusal);
  expect(streamed.finish, where).toBe(whole.finish);
  expect(streamed.usage, where).toEqual(whole.usage);
  expect(byId(streamed).map(({ id, name, input }) => ({ id, name, input })), where).toEqual(byId(whole).map(({ id, name, input }) => ({ id, name, input })));
  // Not one argument byte lost or changed on the way.
  const sent = new Map(answer.calls.map((call) => [call.id, expectedArguments(wire, call)]));
  for (const call of streamed.calls) expect(call.arguments, `${where}: ${call.id}`).toBe(sent.get(call.id));
  expect(streamed.calls.length, where).toBe(answer.calls.length);
}

/** The canonical events alone rebuild the adapter's non-stream answer (what the cache stores). */
async function checkCollected(wire: UpstreamWire, answer: UpstreamAnswer): Promise<void> {
  const events = await collect(await wire.provider(answer).stream(request(wire.model, true)));
  const collector = new StreamCollector(wire.model);
  for (const event of events) collector.add(event);
  const rebuilt = collector.result()!;
  const oracle = await wire.provider(answer).chat(request(wire.model, false));
  const message = rebuilt.choices[0]!.message;
  const expected = oracle.choices[0]!.message;
  expect(message.content ?? '').toBe(expected.content ?? '');
  expect(message.reasoning ?? '').toBe(expected.reasoning ?? '');
  expect(rebuilt.choices[0]!.finishReason).toBe(oracle.choices[0]!.finishReason);
  expect((message.toolCalls ?? []).map((call) => JSON.parse(call.arguments) as unknown)).toEqual((expected.toolCalls ?? []).map((call) => JSON.parse(call.arguments) as unknown));
  expect(rebuilt.usage).toEqual(oracle.usage);
}

const answer = (parts: Partial<UpstreamAnswer>): UpstreamAnswer => ({
  reasoning: [],
  text: [],
  refusal: [],
  calls: [],
  finish: parts.calls && parts.calls.length > 0 ? 'tool_calls' : 'stop',
  usage: { input: 120, output: 40, cacheRead: 0, cacheWrite: 0 },
  interleave: [],
  ...parts,
});

const weather: AnswerToolCall = { id: 'call_weather', name: 'get_weather', fragments: ['{"ci', 'ty":', '"Par', 'is"}'] };
const time: AnswerToolCall = { id: 'call_time', name: 'get_time', fragments: ['{"zone"', ':"Europe/', 'Paris"}'] };

/** Every wire that can carry the answer's parts. */
function wiresFor(parts: UpstreamAnswer): UpstreamWire[] {
  return upstreamWires.filter(
    ({ carries }) =>
      (carries.refusal || parts.refusal.length === 0) &&
      (carries.interleaving || parts.interleave.length === 0) &&
      (carries.cacheRead || parts.usage.cacheRead === 0) &&
      (carries.cacheWrite || parts.usage.cacheWrite === 0),
  );
}

const cases: [string, UpstreamAnswer][] = [
  // Issue 32: block 0 started and stopped at once and its arguments never reached the client.
  ['two tool calls whose argument deltas interleave (OpenAI parallel calls)', answer({ calls: [weather, time], interleave: [0, 0, 1, 1, 0, 1, 0, 1, 0] })],
  ["a later call's first fragment before an earlier call's", answer({ calls: [weather, time], interleave: [1, 1, 0, 1, 0, 0, 1] })],
  ['parallel calls one after another', answer({ text: ['Checking ', 'both.'], calls: [weather, time, { id: 'call_search', name: 'search', fragments: ['{}'] }] })],
  // Found by the generated cases: a schema guard against prototype pollution dropped Gemini's `prototype` argument.
  ['argument names a schema validator may guard (prototype, constructor, __proto__)', answer({ calls: [{ id: 'call_proto', name: 'search', fragments: ['{"prototype":0,', '"constructor":"x",', '"__proto__":{"a":1}}'] }] })],
  ['empty argument deltas', answer({ calls: [{ id: 'call_empty', name: 'get_time', fragments: ['', '{', '', '}', ''] }] })],
  ['huge arguments in many fragments', answer({ calls: [{ id: 'call_big', name: 'write_file', fragments: ['{"content":"', ...Array.from({ length: 256 }, (_, i) => `${String(i).padStart(4, '0')}${'é✓🙂'.repeat(1000)}`), '"}'] }] })],
  ['text, then tool calls, then text again', answer({ text: ['Let me', ' look.', ' Done: see the calls.'], calls: [weather, time], interleave: [1, 1, 3, 3, 3, 3, 4, 4, 4, 4, 1] })],
  ['reasoning before text', answer({ reasoning: ['Think', 'ing…'], text: ['Paris ', 'is sunny.'] })],
  ['a refusal', answer({ refusal: ["I can't ", 'help with that.'], finish: 'stop' })],
  ['a length stop', answer({ text: ['Once upon'], finish: 'length' })],
  ['usage with prompt-cache reads and writes at the end', answer({ text: ['Cached.'], usage: { input: 12, output: 3, cacheRead: 4096, cacheWrite: 1024 } })],
  ['usage with prompt-cache reads only', answer({ text: ['Cached.'], usage: { input: 12, output: 3, cacheRead: 2048, cacheWrite: 0 } })],
];

describe('stream translation conformance', () => {
  describe.each(cases)('%s', (_, parts) => {
    const wires = wiresFor(parts);
    it.each(wires.flatMap((wire) => clientProtocols.map((protocol) => [`${wire.name} -> ${protocol.name}`, wire, protocol] as const)))(
      '%s',
      async (_name, wire, protocol) => {
        await checkTranslation(wire, protocol, parts);
      },
    );
    it.each(wires.map((wire) => [wire.name, wire] as const))('%s: the collected events rebuild the non-stream answer', async (_name, wire) => {
      await checkCollected(wire, parts);
    });
  });

  it('reports prompt-cache reads and writes in every protocol', async () => {
    const cached = answer({ text: ['ok'], usage: { input: 10, output: 2, cacheRead: 300, cacheWrite: 50 } });
    const wire = upstreamWires.find((w) => w.name === 'anthropic')!;
    const events = await collect(await wire.provider(cached).stream(request(wire.model, true)));
    const [chat, messages, responses] = await Promise.all(clientProtocols.map((protocol) => protocol.stream(events)));
    expect(chat!.usage).toMatchObject({ prompt_tokens: 360, prompt_tokens_details: { cached_tokens: 300, cache_write_tokens: 50 } });
    expect(messages!.usage).toMatchObject({ input_tokens: 10, cache_read_input_tokens: 300, cache_creation_input_tokens: 50 });
    expect(responses!.usage).toMatchObject({ input_tokens: 360, input_tokens_details: { cached_tokens: 300, cache_write_tokens: 50 } });
  });

  describe.each(upstreamWires.map((wire) => [wire.name, wire] as const))('generated upstream answers from %s', (_name, wire) => {
    it('translate to every protocol as their non-stream answers do, losing no argument byte', async () => {
      await fc.assert(
        fc.asyncProperty(answerArbitrary(wire.carries), async (generated) => {
          for (const protocol of clientProtocols) await checkTranslation(wire, protocol, generated);
          await checkCollected(wire, generated);
        }),
        { numRuns: wire.carries.interleaving ? 150 : 40 },
      );
    }, 120_000);
  });
});
