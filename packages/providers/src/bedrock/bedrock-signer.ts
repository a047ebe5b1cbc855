import { Hash } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
import { type BedrockAuth, type BedrockCredentials, encodeBedrockCredentials } from './bedrock-auth.js';

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
