import type { FinishReason } from '@svc/core';

/**
 * Maps a Gemini `finishReason` to the canonical finish reason. Gemini has no "tool calls"
 * reason: a turn that called functions ends with `STOP`, so `hasToolCalls` decides.
 *
 * Safety-family reasons (`SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`,
 * `IMAGE_SAFETY`, ...) become `content_filter`. Anything else (`OTHER`, `LANGUAGE`,
 * `MALFORMED_FUNCTION_CALL`, unknown future values) reads as `stop`: the turn ended and the
 * content so far is what there is.
 */
export function mapGeminiFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
      return 'content_filter';
    default:
      return hasToolCalls ? 'tool_calls' : 'stop';
  }
}
