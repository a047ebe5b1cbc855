import { ProviderError } from '@svc/core';

const hostIsLittleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Decodes OpenAI's `encoding_format: base64` vector: the bytes of little-endian float32 values.
 * The base64 text is written straight into the vector's own (aligned) buffer, so nothing is
 * copied twice. Undefined when the text is not whole float32 values of valid base64.
 */
export function decodeFloat32Base64(text: string): Float32Array | undefined {
  const byteLength = Buffer.byteLength(text, 'base64');
  if (byteLength % 4 !== 0) return undefined;
  const vector = new Float32Array(byteLength / 4);
  const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  if (bytes.write(text, 'base64') !== byteLength) return undefined;
  if (!hostIsLittleEndian) bytes.swap32();
  return vector;
}

/**
 * One vector from the wire: a JSON array of numbers, or a base64 string of float32 values
 * (servers asked for base64 may still answer floats, and the reverse). Undefined when it is
 * neither, or an array holds anything but numbers.
 */
export function readFloat32Vector(value: unknown): Float32Array | undefined {
  if (typeof value === 'string') return decodeFloat32Base64(value);
  if (!Array.isArray(value)) return undefined;
  const vector = new Float32Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const number: unknown = value[i];
    if (typeof number !== 'number') return undefined;
    vector[i] = number;
  }
  return vector;
}

/** The error of an embeddings answer the adapter cannot read (kind `server`, so it is retryable elsewhere). */
export function malformedEmbeddings(provider: string, detail: string, upstreamStatus?: number): ProviderError {
  return new ProviderError({ provider, kind: 'server', message: `${provider} sent an unexpected embeddings response: ${detail}`, upstreamStatus });
}
