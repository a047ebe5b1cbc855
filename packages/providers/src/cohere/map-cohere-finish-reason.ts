import type { FinishReason } from '@svc/core';

/**
 * Cohere v2 finish reasons -> canonical. `ERROR` and `TIMEOUT` have no canonical counterpart:
 * they mean the generation failed, so they map to undefined and the adapter throws instead of
 * passing a broken answer off as complete. Unknown or missing reasons are `stop`.
 */
export function mapCohereFinishReason(reason: string | null | undefined): FinishReason | undefined {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'TOOL_CALL':
      return 'tool_calls';
    case 'ERROR':
    case 'TIMEOUT':
      return undefined;
    default: // COMPLETE, STOP_SEQUENCE
      return 'stop';
  }
}
