import type { AnthropicMessagesBody } from '../anthropic/anthropic-api.js';

/** The API version Claude on Vertex takes in the body (the URL names the model instead). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** The body of `:rawPredict` / `:streamRawPredict`: the Messages body without `model`, plus `anthropic_version`. */
export type VertexAnthropicBody = Omit<AnthropicMessagesBody, 'model'> & { anthropic_version: string };

/** Turns the Anthropic adapter's Messages body into Vertex's form. */
export function vertexAnthropicBody(body: AnthropicMessagesBody): VertexAnthropicBody {
  const { model: _model, ...rest } = body;
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
}
