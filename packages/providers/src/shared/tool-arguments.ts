import { ProviderError } from '@svc/core';
import { isRecord } from './http.js';

/**
 * Canonical tool-call arguments are JSON text; Anthropic and Gemini want the object. Blank text
 * is `{}`; anything but a JSON object is an `invalid_request` error of `provider` pointing at
 * `messages[index].tool_calls`.
 */
export function parseToolArguments(provider: string, text: string, index: number): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return value;
  } catch {
    // reported below
  }
  throw new ProviderError({
    provider,
    kind: 'invalid_request',
    message: `messages[${index}]: tool call arguments must be a JSON object.`,
    param: `messages[${index}].tool_calls`,
  });
}
