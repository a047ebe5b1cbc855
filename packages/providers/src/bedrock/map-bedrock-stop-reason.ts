import type { FinishReason } from '@svc/core';

/**
 * Maps a Converse `stopReason` to the canonical finish reason.
 *
 * `jsonToolOnly` is true when the only tool the model called is the adapter's JSON-mode tool:
 * that call *is* the answer, so the caller sees `stop` rather than `tool_calls`.
 * `guardrail_intervened` and `content_filtered` are the provider's safety system stopping the
 * answer: `content_filter`. `model_context_window_exceeded` ran out of room: `length`.
 * Unknown or absent reasons (`malformed_model_output`, future values) read as `stop`.
 */
export function mapBedrockStopReason(reason: string | null | undefined, jsonToolOnly = false): FinishReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return jsonToolOnly ? 'stop' : 'tool_calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      return 'stop';
  }
}
