import { ProviderError } from '@svc/core';

/** One AWS credential set. `sessionToken` is present for temporary (STS) credentials. */
export interface BedrockCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * How one key of the pool authenticates: SigV4 with a credential set, or an Amazon Bedrock API
 * key sent as `Authorization: Bearer`.
 */
export type BedrockAuth = { type: 'sigv4'; credentials: BedrockCredentials } | { type: 'bearer'; token: string };

/**
 * The pool-key form of a credential set: `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]`.
 * The call stage picks keys as strings (`CallOptions.apiKey`, BYOK); none of the three parts
 * can hold a `:`, and Bedrock API keys never do, so the form is unambiguous.
 */
export function encodeBedrockCredentials(credentials: BedrockCredentials): string {
  const parts = [credentials.accessKeyId, credentials.secretAccessKey];
  if (credentials.sessionToken) parts.push(credentials.sessionToken);
  return parts.join(':');
}

/** Reads a pool key: the `encodeBedrockCredentials` form, else a Bedrock API key. */
export function decodeBedrockKey(key: string): BedrockAuth {
  if (!key.includes(':')) {
    if (key === '') throw new ProviderError({ provider: 'bedrock', kind: 'authentication', message: 'Bedrock credentials are empty.' });
    return { type: 'bearer', token: key };
  }
  const [accessKeyId = '', secretAccessKey = '', sessionToken, ...rest] = key.split(':');
  if (accessKeyId === '' || secretAccessKey === '' || rest.length > 0) {
    throw new ProviderError({
      provider: 'bedrock',
      kind: 'authentication',
      message: 'Bedrock credentials must read ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN].',
    });
  }
  return { type: 'sigv4', credentials: sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey } };
}
