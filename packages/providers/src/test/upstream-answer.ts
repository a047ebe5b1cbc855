/**
 * Test-only: one upstream answer rendered in every provider's wire format, as a stream (the
 * chunks or frames the provider would send) and as the non-stream JSON of the same answer.
 * The stream translation conformance suite feeds both through the real adapters.
 */

/** One tool call of an answer; its arguments are `fragments.join('')`, streamed one fragment at a time. */
export interface AnswerToolCall {
  id: string;
  name: string;
  fragments: readonly string[];
}

/** Tokens as a provider reports them: `input` excludes the cache reads and writes. */
export interface AnswerUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export type AnswerFinish = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** What the model produced, each text as the fragments it streams in. */
export interface UpstreamAnswer {
  reasoning: readonly string[];
  text: readonly string[];
  /** OpenAI's `refusal` (the other wires have none and leave it out). */
  refusal: readonly string[];
  calls: readonly AnswerToolCall[];
  finish: AnswerFinish;
  usage: AnswerUsage;
  /**
   * The OpenAI chunk stream only: how the fragment sequences (reasoning, text, refusal, each
   * call) interleave. Each pick chooses, modulo the sequences not yet drained, the one whose
   * next fragment comes next; when the picks run out the rest follow in order.
   */
  interleave: readonly number[];
}

export const argumentsOf = (call: AnswerToolCall): string => call.fragments.join('');

const joined = (parts: readonly string[]): string => parts.join('');

/** Fragments of the sequences in `sequences`, merged as `picks` say (order within each kept). */
export function interleave<T>(sequences: readonly (readonly T[])[], picks: readonly number[]): T[] {
  const cursors = sequences.map(() => 0);
  const out: T[] = [];
  let pick = 0;
  for (;;) {
    const open = sequences.map((sequence, at) => (cursors[at]! < sequence.length ? at : -1)).filter((at) => at >= 0);
    if (open.length === 0) return out;
    const chosen = pick < picks.length ? open[picks[pick++]! % open.length]! : open[0]!;
    out.push(sequences[chosen]![cursors[chosen]!++]!);
  }
}

// ---- OpenAI chat completions ----

type OpenAIDelta = Record<string, unknown>;

/** The `data:` payloads of an OpenAI chunk stream, `[DONE]` last. */
export function openAIChunks(answer: UpstreamAnswer, model: string): string[] {
  const head = { id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 1_700_000_000, model, system_fingerprint: 'fp_up' };
  const chunk = (delta: OpenAIDelta, finish: string | null = null) => JSON.stringify({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const sequences: OpenAIDelta[][] = [
    answer.reasoning.map((text) => ({ reasoning_content: text })),
    answer.text.map((text) => ({ content: text })),
    answer.refusal.map((text) => ({ refusal: text })),
    ...answer.calls.map((call, index) => [
      { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
      ...call.fragments.map((fragment) => ({ tool_calls: [{ index, function: { arguments: fragment } }] })),
    ]),
  ];
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const delta of interleave(sequences, answer.interleave)) out.push(chunk(delta));
  out.push(chunk({}, answer.finish));
  out.push(JSON.stringify({ ...head, choices: [], usage: openAIUsage(answer.usage) }));
  out.push('[DONE]');
  return out;
}

function openAIUsage(usage: AnswerUsage) {
  const prompt = usage.input + usage.cacheRead;
  return { prompt_tokens: prompt, completion_tokens: usage.output, total_tokens: prompt + usage.output, prompt_tokens_details: { cached_tokens: usage.cacheRead } };
}

/** The `chat.completion` body of the same answer. */
export function openAICompletion(answer: UpstreamAnswer, model: string): unknown {
  const message: Record<string, unknown> = { role: 'assistant', content: answer.text.length === 0 ? null : joined(answer.text), refusal: answer.refusal.length === 0 ? null : joined(answer.refusal) };
  if (answer.reasoning.length > 0) message.reasoning_content = joined(answer.reasoning);
  if (answer.calls.length > 0) message.tool_calls = answer.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: argumentsOf(call) } }));
  return {
    id: 'chatcmpl-up',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    system_fingerprint: 'fp_up',
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finish }],
    usage: openAIUsage(answer.usage),
  };
}

// ---- Anthropic Messages ----

const anthropicStop: Record<AnswerFinish, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', content_filter: 'refusal' };

function anthropicUsage(usage: AnswerUsage) {
  return { input_tokens: usage.input, cache_read_input_tokens: usage.cacheRead, cache_creation_input_tokens: usage.cacheWrite, output_tokens: usage.output };
}

/** `[event, data]` pairs of an Anthropic Messages stream: thinking, text, then each tool_use block. */
export function anthropicEvents(answer: UpstreamAnswer, model: string): [string, string][] {
  const out: [string, unknown][] = [];
  const message = { id: 'msg_up', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...anthropicUsage(answer.usage), output_tokens: 1 } };
  out.push(['message_start', { type: 'message_start', message }]);
  let index = 0;
  const block = (start: unknown, deltas: unknown[]) => {
    out.push(['content_block_start', { type: 'content_block_start', index, content_block: start }]);
    for (const delta of deltas) out.push(['content_block_delta', { type: 'content_block_delta', index, delta }]);
    out.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  };
  if (answer.reasoning.length > 0) {
    block({ type: 'thinking', thinking: '', signature: '' }, [...answer.reasoning.map((thinking) => ({ type: 'thinking_delta', thinking })), { type: 'signature_delta', signature: 'sig' }]);
  }
  if (answer.text.length > 0) block({ type: 'text', text: '' }, answer.text.map((text) => ({ type: 'text_delta', text })));
  for (const call of answer.calls) {
    block({ type: 'tool_use', id: call.id, name: call.name, input: {} }, call.fragments.map((partial_json) => ({ type: 'input_json_delta', partial_json })));
  }
  out.push(['message_delta', { type: 'message_delta', delta: { stop_reason: anthropicStop[answer.finish], stop_sequence: null }, usage: { output_tokens: answer.usage.output } }]);
  out.push(['message_stop', { type: 'message_stop' }]);
  return out.map(([event, data]) => [event, JSON.stringify(data)]);
}

/** The `message` body of the same answer. */
export function anthropicMessage(answer: UpstreamAnswer, model: string): unknown {
  const content: unknown[] = [];
  if (answer.reasoning.length > 0) content.push({ type: 'thinking', thinking: joined(answer.reasoning), signature: 'sig' });
  if (answer.text.length > 0) content.push({ type: 'text', text: joined(answer.text) });
  for (const call of answer.calls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: JSON.parse(argumentsOf(call)) as unknown });
  return { id: 'msg_up', type: 'message', role: 'assistant', model, content, stop_reason: anthropicStop[answer.finish], stop_sequence: null, usage: anthropicUsage(answer.usage) };
}

// ---- Bedrock Converse ----

const bedrockStop: Record<AnswerFinish, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', content_filter: 'content_filtered' };

function bedrockUsage(usage: AnswerUsage) {
  const input = usage.input;
  return { inputTokens: input, outputTokens: usage.output, totalTokens: input + usage.cacheRead + usage.cacheWrite + usage.output, cacheReadInputTokens: usage.cacheRead, cacheWriteInputTokens: usage.cacheWrite };
}

/** The events of a ConverseStream answer (`{event, payload}`, before binary framing). */
export function bedrockFrames(answer: UpstreamAnswer): { event: string; payload: unknown }[] {
  const out: { event: string; payload: unknown }[] = [{ event: 'messageStart', payload: { role: 'assistant' } }];
  let index = 0;
  const block = (start: unknown, deltas: unknown[]) => {
    if (start !== undefined) out.push({ event: 'contentBlockStart', payload: { contentBlockIndex: index, start } });
    for (const delta of deltas) out.push({ event: 'contentBlockDelta', payload: { contentBlockIndex: index, delta } });
    out.push({ event: 'contentBlockStop', payload: { contentBlockIndex: index } });
    index++;
  };
  if (answer.reasoning.length > 0) block(undefined, [...answer.reasoning.map((text) => ({ reasoningContent: { text } })), { reasoningContent: { signature: 'sig' } }]);
  if (answer.text.length > 0) block(undefined, answer.text.map((text) => ({ text })));
  for (const call of answer.calls) block({ toolUse: { toolUseId: call.id, name: call.name } }, call.fragments.map((input) => ({ toolUse: { input } })));
  out.push({ event: 'messageStop', payload: { stopReason: bedrockStop[answer.finish] } });
  out.push({ event: 'metadata', payload: { usage: bedrockUsage(answer.usage), metrics: { latencyMs: 10 } } });
  return out;
}

/** The Converse body of the same answer. */
export function bedrockResponse(answer: UpstreamAnswer): unknown {
  const content: unknown[] = [];
  if (answer.reasoning.length > 0) content.push({ reasoningContent: { reasoningText: { text: joined(answer.reasoning), signature: 'sig' } } });
  if (answer.text.length > 0) content.push({ text: joined(answer.text) });
  for (const call of answer.calls) content.push({ toolUse: { toolUseId: call.id, name: call.name, input: JSON.parse(argumentsOf(call)) as unknown } });
  return { output: { message: { role: 'assistant', content } }, stopReason: bedrockStop[answer.finish], usage: bedrockUsage(answer.usage), metrics: { latencyMs: 10 } };
}

// ---- Gemini generateContent ----

const geminiFinish: Record<AnswerFinish, string> = { stop: 'STOP', length: 'MAX_TOKENS', tool_calls: 'STOP', content_filter: 'SAFETY' };

function geminiUsage(usage: AnswerUsage) {
  const prompt = usage.input + usage.cacheRead;
  return { promptTokenCount: prompt, candidatesTokenCount: usage.output, totalTokenCount: prompt + usage.output, cachedContentTokenCount: usage.cacheRead };
}

/** The `data:` payloads of a `streamGenerateContent?alt=sse` answer: one part per chunk, function calls whole. */
export function geminiChunks(answer: UpstreamAnswer, model: string): string[] {
  const head = { modelVersion: model, responseId: 'resp-up' };
  const parts: unknown[] = [
    ...answer.reasoning.map((text) => ({ text, thought: true })),
    ...answer.text.map((text) => ({ text })),
    ...answer.calls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: JSON.parse(argumentsOf(call)) as unknown } })),
  ];
  const out = parts.map((part) => JSON.stringify({ ...head, candidates: [{ index: 0, content: { role: 'model', parts: [part] } }] }));
  out.push(JSON.stringify({ ...head, candidates: [{ index: 0, content: { role: 'model', parts: [] }, finishReason: geminiFinish[answer.finish] }], usageMetadata: geminiUsage(answer.usage) }));
  return out;
}

/** The generateContent body of the same answer. */
export function geminiResponse(answer: UpstreamAnswer, model: string): unknown {
  const parts: unknown[] = [];
  if (answer.reasoning.length > 0) parts.push({ text: joined(answer.reasoning), thought: true });
  if (answer.text.length > 0) parts.push({ text: joined(answer.text) });
  for (const call of answer.calls) parts.push({ functionCall: { id: call.id, name: call.name, args: JSON.parse(argumentsOf(call)) as unknown } });
  return { modelVersion: model, responseId: 'resp-up', candidates: [{ index: 0, content: { role: 'model', parts }, finishReason: geminiFinish[answer.finish] }], usageMetadata: geminiUsage(answer.usage) };
}

// ---- Cohere v2 chat ----

const cohereFinish: Record<AnswerFinish, string> = { stop: 'COMPLETE', length: 'MAX_TOKENS', tool_calls: 'TOOL_CALL', content_filter: 'COMPLETE' };

function cohereUsage(usage: AnswerUsage) {
  return { billed_units: { input_tokens: usage.input, output_tokens: usage.output }, tokens: { input_tokens: usage.input, output_tokens: usage.output } };
}

/** `[event, data]` pairs of a Cohere v2 chat stream. */
export function cohereEvents(answer: UpstreamAnswer): [string, string][] {
  const out: [string, unknown][] = [['message-start', { type: 'message-start', id: 'co-up', delta: { message: { role: 'assistant' } } }]];
  let content = 0;
  const block = (type: 'thinking' | 'text', texts: readonly string[]) => {
    if (texts.length === 0) return;
    out.push(['content-start', { type: 'content-start', index: content, delta: { message: { content: { type, [type]: '' } } } }]);
    for (const text of texts) out.push(['content-delta', { type: 'content-delta', index: content, delta: { message: { content: { [type]: text } } } }]);
    out.push(['content-end', { type: 'content-end', index: content }]);
    content++;
  };
  block('thinking', answer.reasoning);
  block('text', answer.text);
  answer.calls.forEach((call, index) => {
    out.push(['tool-call-start', { type: 'tool-call-start', index, delta: { message: { tool_calls: { id: call.id, type: 'function', function: { name: call.name, arguments: '' } } } } }]);
    for (const fragment of call.fragments) out.push(['tool-call-delta', { type: 'tool-call-delta', index, delta: { message: { tool_calls: { function: { arguments: fragment } } } } }]);
    out.push(['tool-call-end', { type: 'tool-call-end', index }]);
  });
  out.push(['message-end', { type: 'message-end', delta: { finish_reason: cohereFinish[answer.finish], usage: cohereUsage(answer.usage) } }]);
  return out.map(([event, data]) => [event, JSON.stringify(data)]);
}

/** The v2 chat body of the same answer. */
export function cohereResponse(answer: UpstreamAnswer): unknown {
  const content: unknown[] = [];
  if (answer.reasoning.length > 0) content.push({ type: 'thinking', thinking: joined(answer.reasoning) });
  if (answer.text.length > 0) content.push({ type: 'text', text: joined(answer.text) });
  const message: Record<string, unknown> = { role: 'assistant', content };
  if (answer.calls.length > 0) message.tool_calls = answer.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: argumentsOf(call) } }));
  return { id: 'co-up', finish_reason: cohereFinish[answer.finish], message, usage: cohereUsage(answer.usage) };
}

/** SSE text of `data:` payloads, or of `[event, data]` pairs. */
export function sseText(messages: readonly (string | readonly [string, string])[]): string {
  return messages.map((message) => (typeof message === 'string' ? `data: ${message}\n\n` : `event: ${message[0]}\ndata: ${message[1]}\n\n`)).join('');
}
