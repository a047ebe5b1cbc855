import { createHash, randomBytes } from 'node:crypto';

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const poolSize = 4096;
let pool = randomBytes(poolSize);
let offset = 0;

/**
 * A random base62 string of `length` characters from a pooled CSPRNG buffer (one syscall per
 * few hundred ids, which keeps id generation off the request's CPU budget).
 */
export function randomId(length = 24): string {
  if (offset + length > poolSize) {
    pool = randomBytes(poolSize);
    offset = 0;
  }
  let out = '';
  for (let i = 0; i < length; i++) {
    // 248 = 62 * 4: rejection would bias less, but 4/256 skew on a 62-symbol id is irrelevant for ids.
    out += alphabet[pool[offset++]! % 62];
  }
  return out;
}

/** Correlation id of one gateway request (`x-svc-request-id`, `svc_metadata.request_id`). */
export function requestId(): string {
  return `req_${randomId(24)}`;
}

export function chatCompletionId(): string {
  return `chatcmpl-${randomId(24)}`;
}

export function errorId(): string {
  return `err_${randomId(20)}`;
}

/** A stored file (`POST /v1/files`, batch output and error files). */
export function fileId(): string {
  return `file-${randomId(24)}`;
}

/** A batch (`POST /v1/batches`). */
export function batchId(): string {
  return `batch_${randomId(24)}`;
}

/** One answered line of a batch (the output line's `id`). */
export function batchRequestId(): string {
  return `batch_req_${randomId(24)}`;
}

/**
 * The request id of a batch line: the same for every attempt at the line (a retry after a
 * crash, a restart or a lost lease), so the line has one ledger row however often it ran.
 * Shaped like `requestId()`: `req_` and 24 base62 characters, from SHA-256 of the batch and line.
 */
export function batchLineRequestId(batch: string, line: number): string {
  const digest = createHash('sha256').update(`${batch}/${line}`).digest();
  let out = '';
  for (let i = 0; i < 24; i++) out += alphabet[digest[i]! % 62];
  return `req_${out}`;
}
