import {
  type Answer,
  type AnswerContext,
  jsonAnswer,
  sseHeaders,
} from './answer.js';
import { answerText, answerTokens, fragments } from './answer-text.js';
import { invalidRequest } from './faults.js';
import { type ForcedToolCall, openaiToolCalls } from './forced-tool.js';
import { interleaveFragments } from './parallel-calls.js';
import { asNumber, asRecord, asString } from './json.js';
import { scriptedAnswer } from './judge-answer.js';

function usageJson(prompt: number, completion: number, cached: number): string {
  return `{"prompt_tokens":${prompt},"completion_tokens":${completion},"total_tokens":${prompt + completion},"prompt_tokens_details":{"cached_tokens":${cached},"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}`;
}

const toolCallJson = (call: ForcedToolCall, id: string): string =>
  `{"id":"${id}","type":"function","function":{"name":${JSON.stringify(call.name)},"arguments":${JSON.stringify(call.arguments)}}}`;

/**
 * `POST /v1/chat/completions`: a chat.completion JSON, or chat.completion.chunk SSE frames ending
 * with a `choices: []` usage chunk (when `stream_options.include_usage`) and `data: [DONE]`.
 * The requested `model` is echoed; `tool_choice: "required"` (or a named function) answers with
 * a tool call whose arguments satisfy the tool's schema (with `parallelToolCalls` on, one call
 * per tool, their fragments one after another or interleaved); `max_completion_tokens`/
 * `max_tokens` cap the answer with `finish_reason: "length"`. Usage reports the prompt tokens
 * OpenAI would have served from its own prompt cache (see `PromptCache`).
 */
export function openaiChat(body: Record<string, unknown>, ctx: AnswerContext): Answer {
  const model = asString(body['model']);
  const requestHeaders = { 'x-request-id': `req_${ctx.id}` };
  if (model === undefined) {
    return invalidRequest('openai', 'you must provide a model parameter', ctx.id);
  }
  const cap = asNumber(body['max_completion_tokens']) ?? asNumber(body['max_tokens']);
  const count = cap !== undefined && cap < ctx.tokens ? Math.max(0, Math.floor(cap)) : ctx.tokens;
  const finish = count < ctx.tokens ? 'length' : 'stop';
  const calls = openaiToolCalls(body, ctx.parallelToolCalls !== 'off');
  const id = `chatcmpl-mock${ctx.id}`;
  const modelJson = JSON.stringify(model);
  const callId = (index: number) => `call_mock${ctx.id}${index === 0 ? '' : `_${index}`}`;
  const cached = ctx.promptCache.openai(body, ctx.promptTokens);
  const callTokens = Math.ceil(calls.reduce((sum, call) => sum + call.arguments.length, 0) / 4);

  if (body['stream'] !== true) {
    const scripted = calls.length > 0 ? undefined : scriptedAnswer(body, model, ctx);
    const message =
      calls.length > 0
        ? `{"role":"assistant","content":null,"tool_calls":[${calls.map((call, index) => toolCallJson(call, callId(index))).join(',')}],"refusal":null,"annotations":[]}`
        : `{"role":"assistant","content":${scripted === undefined ? `"${answerText(count)}"` : JSON.stringify(scripted)},"refusal":null,"annotations":[]}`;
    const completion = calls.length > 0 ? callTokens : scripted === undefined ? count : scripted.split(/\s+/).length;
    return jsonAnswer(
      200,
      `{"id":"${id}","object":"chat.completion","created":${ctx.created},"model":${modelJson},"choices":[{"index":0,"message":${message},"logprobs":null,"finish_reason":"${calls.length > 0 ? 'tool_calls' : finish}"}],"usage":${usageJson(ctx.promptTokens, completion, cached)},"service_tier":"default","system_fingerprint":"fp_mock"}`,
      requestHeaders,
      completion,
    );
  }

  const includeUsage = asRecord(body['stream_options'])?.['include_usage'] === true;
  const prefix = `data: {"id":"${id}","object":"chat.completion.chunk","created":${ctx.created},"model":${modelJson},"system_fingerprint":"fp_mock","choices":[`;
  const suffix = includeUsage ? '],"usage":null}\n\n' : ']}\n\n';
  const frame = (choice: string): string => `${prefix}${choice}${suffix}`;
  const choice = (delta: string, finishReason: string | null): string =>
    `{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finishReason === null ? 'null' : `"${finishReason}"`}}`;

  let head: string;
  let tokens: string[];
  let completion: number;
  let finishReason: string;
  if (calls.length > 0) {
    const announce = (index: number) =>
      `{"index":${index},"id":"${callId(index)}","type":"function","function":{"name":${JSON.stringify(calls[index]!.name)},"arguments":""}}`;
    const fragment = ([index, part]: readonly [number, string]) => frame(choice(`{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(part)}}}]}`, null));
    const perCall = calls.map((call, index) => fragments(call.arguments).map((part) => [index, part] as const));
    if (ctx.parallelToolCalls === 'interleaved') {
      // Every call announced first, then their argument fragments taking turns.
      head = calls.map((_, index) => frame(choice(`{${index === 0 ? '"role":"assistant","content":null,"refusal":null,' : ''}"tool_calls":[${announce(index)}]}`, null))).join('');
      tokens = interleaveFragments(perCall).map(fragment);
    } else {
      head = frame(choice(`{"role":"assistant","content":null,"tool_calls":[${announce(0)}],"refusal":null}`, null));
      tokens = perCall.flatMap((parts, index) => [...(index === 0 ? [] : [frame(choice(`{"tool_calls":[${announce(index)}]}`, null))]), ...parts.map(fragment)]);
    }
    completion = callTokens;
    finishReason = 'tool_calls';
  } else {
    // A scripted answer streams word by word, as the same request would answer it whole.
    const scripted = scriptedAnswer(body, model, ctx);
    const words = scripted === undefined ? undefined : scripted.split(/(?<= )/);
    head = frame(choice('{"role":"assistant","content":"","refusal":null}', null));
    tokens = (words ?? answerTokens(count)).map((t) => frame(choice(`{"content":${words ? JSON.stringify(t) : `"${t}"`}}`, null)));
    completion = scripted === undefined ? count : scripted.split(/\s+/).length;
    finishReason = finish;
  }
  let tail = frame(choice('{}', finishReason));
  if (includeUsage) tail += `${prefix}],"usage":${usageJson(ctx.promptTokens, completion, cached)}}\n\n`;
  tail += 'data: [DONE]\n\n';
  return { kind: 'sse', headers: sseHeaders(requestHeaders), head, tokens, tail };
}
