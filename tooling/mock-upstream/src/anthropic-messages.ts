import { type Answer, type AnswerContext, jsonAnswer, sseHeaders } from './answer.js';
import { answerText, answerTokens, fragments } from './answer-text.js';
import { invalidRequest } from './faults.js';
import { anthropicForcedTool } from './forced-tool.js';
import { asArray, asNumber, asString } from './json.js';

function event(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}

/**
 * `POST /v1/messages`: a Message JSON, or SSE in the strict order message_start,
 * content_block_start, ping, content_block_delta*, content_block_stop, message_delta,
 * message_stop (every frame with an `event:` line, no `[DONE]`). `model`, `max_tokens` and
 * `messages` are required as upstream; `max_tokens` below the answer length stops with
 * `max_tokens`; `tool_choice` `{type:"any"|"tool"}` answers with one `tool_use` block. Usage
 * counts prompt-cache reads and writes at the request's `cache_control` breakpoints (see
 * `PromptCache`), `input_tokens` only what follows the last one.
 */
export function anthropicMessages(body: Record<string, unknown>, ctx: AnswerContext): Answer {
  const model = asString(body['model']);
  const maxTokens = asNumber(body['max_tokens']);
  const headers = { 'request-id': `req_${ctx.id}` };
  if (model === undefined) return invalidRequest('anthropic', 'model: Field required', ctx.id);
  if (maxTokens === undefined) {
    return invalidRequest('anthropic', 'max_tokens: Field required', ctx.id);
  }
  if (asArray(body['messages']) === undefined) {
    return invalidRequest('anthropic', 'messages: Field required', ctx.id);
  }
  const count = Math.min(ctx.tokens, Math.max(0, Math.floor(maxTokens)));
  const tool = anthropicForcedTool(body);
  const stopReason = tool ? 'tool_use' : count < ctx.tokens ? 'max_tokens' : 'end_turn';
  const outputTokens = tool ? Math.ceil(tool.arguments.length / 4) : count;
  const id = `msg_mock${ctx.id}`;
  const toolId = `toolu_mock${ctx.id}`;
  const modelJson = JSON.stringify(model);
  const cache = ctx.promptCache.anthropic(body, ctx.promptTokens);
  const inputUsage = `"input_tokens":${cache.uncached},"cache_creation_input_tokens":${cache.written},"cache_read_input_tokens":${cache.read}`;

  if (body['stream'] !== true) {
    const content = tool
      ? `{"type":"tool_use","id":"${toolId}","name":${JSON.stringify(tool.name)},"input":${tool.arguments}}`
      : `{"type":"text","text":"${answerText(count)}","citations":null}`;
    return jsonAnswer(
      200,
      `{"id":"${id}","type":"message","role":"assistant","model":${modelJson},"content":[${content}],"stop_reason":"${stopReason}","stop_sequence":null,"usage":{${inputUsage},"cache_creation":{"ephemeral_5m_input_tokens":${cache.written},"ephemeral_1h_input_tokens":0},"output_tokens":${outputTokens},"service_tier":"standard","server_tool_use":null}}`,
      headers,
      outputTokens,
    );
  }

  const block = tool
    ? `{"type":"tool_use","id":"${toolId}","name":${JSON.stringify(tool.name)},"input":{}}`
    : '{"type":"text","text":""}';
  const head =
    event(
      'message_start',
      `{"type":"message_start","message":{"id":"${id}","type":"message","role":"assistant","model":${modelJson},"content":[],"stop_reason":null,"stop_sequence":null,"usage":{${inputUsage},"output_tokens":1,"service_tier":"standard"}}}`,
    ) +
    event(
      'content_block_start',
      `{"type":"content_block_start","index":0,"content_block":${block}}`,
    ) +
    event('ping', '{"type":"ping"}');
  const tokens = tool
    ? fragments(tool.arguments).map((part) =>
        event(
          'content_block_delta',
          `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":${JSON.stringify(part)}}}`,
        ),
      )
    : answerTokens(count).map((t) =>
        event(
          'content_block_delta',
          `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${t}"}}`,
        ),
      );
  const tail =
    event('content_block_stop', '{"type":"content_block_stop","index":0}') +
    event(
      'message_delta',
      `{"type":"message_delta","delta":{"stop_reason":"${stopReason}","stop_sequence":null},"usage":{"output_tokens":${outputTokens}}}`,
    ) +
    event('message_stop', '{"type":"message_stop"}');
  return { kind: 'sse', headers: sseHeaders(headers), head, tokens, tail };
}
