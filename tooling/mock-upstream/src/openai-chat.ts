import {
  type Answer,
  type AnswerContext,
  jsonAnswer,
  sseHeaders,
} from './answer.js';
import { answerText, answerTokens, fragments } from './answer-text.js';
import { invalidRequest } from './faults.js';
import { openaiForcedTool } from './forced-tool.js';
import { asNumber, asRecord, asString } from './json.js';

function usageJson(prompt: number, completion: number): string {
  return `{"prompt_tokens":${prompt},"completion_tokens":${completion},"total_tokens":${prompt + completion},"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}`;
}

/**
 * `POST /v1/chat/completions`: a chat.completion JSON, or chat.completion.chunk SSE frames ending
 * with a `choices: []` usage chunk (when `stream_options.include_usage`) and `data: [DONE]`.
 * The requested `model` is echoed; `tool_choice: "required"` (or a named function) answers with
 * a tool call whose arguments satisfy the tool's schema; `max_completion_tokens`/`max_tokens`
 * cap the answer with `finish_reason: "length"`.
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
  const tool = openaiForcedTool(body);
  const id = `chatcmpl-mock${ctx.id}`;
  const modelJson = JSON.stringify(model);
  const callId = `call_mock${ctx.id}`;

  if (body['stream'] !== true) {
    const message = tool
      ? `{"role":"assistant","content":null,"tool_calls":[{"id":"${callId}","type":"function","function":{"name":${JSON.stringify(tool.name)},"arguments":${JSON.stringify(tool.arguments)}}}],"refusal":null,"annotations":[]}`
      : `{"role":"assistant","content":"${answerText(count)}","refusal":null,"annotations":[]}`;
    const completion = tool ? Math.ceil(tool.arguments.length / 4) : count;
    return jsonAnswer(
      200,
      `{"id":"${id}","object":"chat.completion","created":${ctx.created},"model":${modelJson},"choices":[{"index":0,"message":${message},"logprobs":null,"finish_reason":"${tool ? 'tool_calls' : finish}"}],"usage":${usageJson(ctx.promptTokens, completion)},"service_tier":"default","system_fingerprint":"fp_mock"}`,
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
  if (tool) {
    head = frame(
      choice(
        `{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"${callId}","type":"function","function":{"name":${JSON.stringify(tool.name)},"arguments":""}}],"refusal":null}`,
        null,
      ),
    );
    tokens = fragments(tool.arguments).map((part) =>
      frame(
        choice(
          `{"tool_calls":[{"index":0,"function":{"arguments":${JSON.stringify(part)}}}]}`,
          null,
        ),
      ),
    );
    completion = Math.ceil(tool.arguments.length / 4);
    finishReason = 'tool_calls';
  } else {
    head = frame(choice('{"role":"assistant","content":"","refusal":null}', null));
    tokens = answerTokens(count).map((t) => frame(choice(`{"content":"${t}"}`, null)));
    completion = count;
    finishReason = finish;
  }
  let tail = frame(choice('{}', finishReason));
  if (includeUsage) tail += `${prefix}],"usage":${usageJson(ctx.promptTokens, completion)}}\n\n`;
  tail += 'data: [DONE]\n\n';
  return { kind: 'sse', headers: sseHeaders(requestHeaders), head, tokens, tail };
}
