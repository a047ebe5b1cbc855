import { ProviderError, type ToolDefinition } from '@svc/core';
import type { ProviderChatRequest } from '../provider.js';
import type { CohereChatRequestBody, CohereTool } from './cohere-api.js';
import { convertToCohereMessages } from './convert-to-cohere-messages.js';

/**
 * Canonical request -> Cohere v2 chat body. Only fields the caller set are written.
 *
 * - `top_p` is Cohere's `p`; `stop` is `stop_sequences`.
 * - `tool_choice`: `required`/`none` -> `REQUIRED`/`NONE`; `auto` is Cohere's default (omitted);
 *   a named tool has no Cohere form, so the tool list is narrowed to that tool and `REQUIRED`.
 * - `json_object` and `json_schema` both become `{type:'json_object'}`, the schema as `json_schema`.
 * - Dropped, having no Cohere field: `n` (the provider declares `multipleChoices: false`),
 *   `user`, `logprobs`, `parallel_tool_calls`, `service_tier`, `reasoning_effort`.
 */
export function buildCohereRequest(request: ProviderChatRequest, stream: boolean): CohereChatRequestBody {
  const body: CohereChatRequestBody = { model: request.model, messages: convertToCohereMessages(request.messages) };
  if (stream) body.stream = true;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.p = request.topP;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.stop !== undefined && request.stop.length > 0) body.stop_sequences = request.stop;
  if (request.seed !== undefined) body.seed = request.seed;

  const choice = request.toolChoice;
  if (request.tools !== undefined && request.tools.length > 0) {
    let tools = request.tools;
    if (typeof choice === 'object') {
      tools = tools.filter((tool) => tool.name === choice.name);
      if (tools.length === 0) {
        throw new ProviderError({ provider: 'cohere', kind: 'invalid_request', message: `tool_choice names '${choice.name}', which is not among the tools.`, param: 'tool_choice' });
      }
    }
    body.tools = tools.map(convertTool);
    if (choice === 'required' || typeof choice === 'object') body.tool_choice = 'REQUIRED';
    else if (choice === 'none') body.tool_choice = 'NONE';
  }

  const format = request.responseFormat;
  if (format?.type === 'json_object') body.response_format = { type: 'json_object' };
  else if (format?.type === 'json_schema') body.response_format = format.schema === undefined ? { type: 'json_object' } : { type: 'json_object', json_schema: format.schema };
  return body;
}

function convertTool(tool: ToolDefinition): CohereTool {
  // Cohere requires `parameters`; a tool without arguments is an empty object schema.
  const fn: CohereTool['function'] = { name: tool.name, parameters: tool.parameters ?? { type: 'object', properties: {} } };
  if (tool.description !== undefined) fn.description = tool.description;
  return { type: 'function', function: fn };
}
