import { Hash } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
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

/** What is signed: a POST of `body` to `url` with `headers` (lowercase names). */
export interface SignableRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
}

/**
 * Signs Bedrock requests with SigV4 (service `bedrock`), one `SignatureV4` per credential set so
 * its derived signing key is cached across requests. SHA-256 is Node's native `crypto` through
 * Smithy's `Hash` (the hasher the AWS SDK itself uses on Node): request bodies carry base64
 * images and documents, megabytes a pure-JS hash would spend milliseconds of CPU on.
 */
export class BedrockSigner {
  private readonly signers = new Map<string, SignatureV4>();

  constructor(private readonly region: string) {}

  /**
   * The headers to send: `headers` plus `authorization`, `x-amz-date`, `x-amz-content-sha256`
   * and, for temporary credentials, `x-amz-security-token`. `host` is signed but left out of the
   * result: the transport sets it from the URL, identically.
   */
  async sign(auth: BedrockAuth, request: SignableRequest, date?: Date): Promise<Record<string, string>> {
    if (auth.type === 'bearer') return { ...request.headers, authorization: `Bearer ${auth.token}` };
    const { url } = request;
    const signed = await this.signer(auth.credentials).sign(
      {
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        // Already percent-encoded (the model id segment); SigV4 encodes it once more, as AWS expects.
        path: url.pathname,
        query: {},
        headers: { ...request.headers, host: url.host },
        body: request.body,
      },
      date ? { signingDate: date } : {},
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host') headers[name] = value;
    return headers;
  }

  private signer(credentials: BedrockCredentials): SignatureV4 {
    const key = encodeBedrockCredentials(credentials);
    let signer = this.signers.get(key);
    if (!signer) {
      // Bounded: BYOK calls bring credential sets the pool does not hold.
      if (this.signers.size >= 256) this.signers.clear();
      signer = new SignatureV4({ service: 'bedrock', region: this.region, credentials, sha256: Hash.bind(null, 'sha256') });
      this.signers.set(key, signer);
    }
    return signer;
  }
}
