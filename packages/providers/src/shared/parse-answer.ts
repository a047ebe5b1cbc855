import { ProviderError } from '@svc/core';
import * as v from 'valibot';

/**
 * A 2xx answer's JSON text checked against the minimal schema of what the gateway reads; a body
 * that is not JSON or does not match is a retryable `server` error naming `what`.
 */
export function parseAnswer<S extends v.GenericSchema>(provider: string, schema: S, text: string, status: number, what: string): v.InferOutput<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProviderError({ provider, kind: 'server', message: `${provider} sent a malformed ${what}: not JSON.`, upstreamStatus: status, cause: error });
  }
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) {
    throw new ProviderError({ provider, kind: 'server', message: `${provider} sent a malformed ${what}: ${v.summarize(parsed.issues)}`, upstreamStatus: status });
  }
  return parsed.output;
}
