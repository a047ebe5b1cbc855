import { type Answer, type AnswerContext, jsonAnswer, sseHeaders } from './answer.js';
import { answerText, answerTokens } from './answer-text.js';
import { invalidRequest } from './faults.js';
import { geminiForcedTool } from './forced-tool.js';
import { asArray, asNumber, asRecord } from './json.js';

/** Which Gemini method was called and how a stream should be framed. */
export interface GeminiCall {
  model: string;
  stream: boolean;
  /** `?alt=sse`: SSE frames; otherwise a streamed call answers one JSON array. */
  sse: boolean;
}

/**
 * `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent` (`?alt=sse` for SSE
 * frames separated by CRLF CRLF, else a JSON array of chunks). The model from the path is echoed
 * as `modelVersion`; `generationConfig.maxOutputTokens` caps with `MAX_TOKENS`; function calling
 * mode `ANY` answers with a `functionCall` part. The last chunk carries `finishReason` and usage.
 */
export function geminiGenerate(
  body: Record<string, unknown>,
  call: GeminiCall,
  ctx: AnswerContext,
): Answer {
  if (asArray(body['contents']) === undefined) {
    return invalidRequest('gemini', '* GenerateContentRequest.contents: contents is not specified', ctx.id);
  }
  const cap = asNumber(asRecord(body['generationConfig'])?.['maxOutputTokens']);
  const count = cap !== undefined && cap < ctx.tokens ? Math.max(0, Math.floor(cap)) : ctx.tokens;
  const finish = count < ctx.tokens ? 'MAX_TOKENS' : 'STOP';
  const tool = geminiForcedTool(body);
  const tail = `"modelVersion":${JSON.stringify(call.model)},"responseId":"mock${ctx.id}"}`;
  const candidate = (parts: string, finishReason?: string): string =>
    `{"candidates":[{"content":{"parts":[${parts}],"role":"model"},${finishReason ? `"finishReason":"${finishReason}",` : ''}"index":0}],`;
  const usage = (completion: number): string =>
    `"usageMetadata":{"promptTokenCount":${ctx.promptTokens},"candidatesTokenCount":${completion},"totalTokenCount":${ctx.promptTokens + completion},"promptTokensDetails":[{"modality":"TEXT","tokenCount":${ctx.promptTokens}}]},`;
  const partialUsage = `"usageMetadata":{"promptTokenCount":${ctx.promptTokens},"totalTokenCount":${ctx.promptTokens}},`;

  let chunks: string[];
  if (tool) {
    const completion = Math.ceil(tool.arguments.length / 4);
    chunks = [
      `${candidate(`{"functionCall":{"name":${JSON.stringify(tool.name)},"args":${tool.arguments}}}`, 'STOP')}${usage(completion)}${tail}`,
    ];
    if (!call.stream) return jsonAnswer(200, chunks[0] ?? '', {}, completion);
  } else if (!call.stream) {
    return jsonAnswer(
      200,
      `${candidate(`{"text":"${answerText(count)}"}`, finish)}${usage(count)}${tail}`,
      {},
      count,
    );
  } else {
    const tokens = count === 0 ? [''] : answerTokens(count);
    chunks = tokens.map((t, i) =>
      i === tokens.length - 1
        ? `${candidate(`{"text":"${t}"}`, finish)}${usage(count)}${tail}`
        : `${candidate(`{"text":"${t}"}`)}${partialUsage}${tail}`,
    );
  }
  if (!call.sse) return jsonAnswer(200, `[${chunks.join(',\r\n')}]`, {}, chunks.length);
  return {
    kind: 'sse',
    headers: sseHeaders(),
    head: '',
    tokens: chunks.map((c) => `data: ${c}\r\n\r\n`),
    tail: '',
  };
}
