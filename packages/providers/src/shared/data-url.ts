import { ProviderError } from '@svc/core';

/** The media type and base64 payload of an inline `data:` URL. */
export interface InlineData {
  mediaType: string;
  data: string;
}

/**
 * Splits a base64 `data:` URL; undefined for any other URL. A `data:` URL that is not base64
 * is the caller's fault: an `invalid_request` error of `provider`, param `messages`.
 */
export function parseDataUrl(provider: string, url: string): InlineData | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  const header = url.slice(5, comma);
  if (comma < 0 || !header.endsWith(';base64')) {
    throw new ProviderError({ provider, kind: 'invalid_request', message: 'Inline images and files must be base64 data: URLs.', param: 'messages' });
  }
  return { mediaType: header.slice(0, -7) || 'application/octet-stream', data: url.slice(comma + 1) };
}
