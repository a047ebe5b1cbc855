import type { FinishReason } from '@svc/core';

/**
 * OpenAI (and compatible vendors') finish reasons -> canonical. Unknown or missing reasons are
 * `stop`: the answer ended and nothing says it was cut short.
 */
export function mapOpenAIFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'length':
    case 'model_length': // Mistral: the model's context window ended the answer
      return 'length';
    case 'tool_calls':
    case 'function_call': // legacy functions API
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}
