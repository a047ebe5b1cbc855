import type { FinishReason } from '@svc/core';

/**
 * Maps an Anthropic `stop_reason` to the canonical finish reason.
 *
 * `jsonToolOnly` is true when the only tool the model called is the adapter's JSON-mode tool:
 * that call *is* the answer, so the caller sees `stop` rather than `tool_calls`.
 * `pause_turn` (a server tool paused a long turn) and an unknown or null reason read as `stop`:
 * the turn ended and the content so far is the answer.
 */
export function mapAnthropicStopReason(reason: string | null | undefined, jsonToolOnly = false): FinishReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return jsonToolOnly ? 'stop' : 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}
