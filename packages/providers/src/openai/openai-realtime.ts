import type { IncomingMessage } from 'node:http';
import { ProviderError, kindFromStatus, parseRetryAfter } from '@svc/core';
import type { RealtimeConnectOptions, RealtimeRequest, RealtimeSocket } from '../provider-realtime.js';
import { transportError } from '../shared/http.js';
import { classifyOpenAIError } from './openai-error.js';

/** Where one realtime session goes and with which credentials. */
export interface OpenAIRealtimeTarget {
  provider: string;
  /** Base URL including the version path (`https://api.openai.com/v1`). */
  base: string;
  headers: Record<string, string>;
}

const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_PAYLOAD = 16 * 1024 * 1024;
/** An upstream's refusal body is read up to this many bytes (it is an error message). */
const MAX_ERROR_BODY = 64 * 1024;

/** `{base}/realtime?model=...` with the scheme turned into ws(s) (the openai SDK's convention). */
export function openAIRealtimeUrl(base: string, model: string): string {
  const url = new URL(`${base}/realtime`);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  url.searchParams.set('model', model);
  return url.toString();
}

/**
 * Opens the upstream WebSocket of a realtime session. Resolves with the open socket, paused:
 * the caller attaches its listeners, then calls `resume()`. Rejects
 * with a ProviderError: the refusal's status and OpenAI error body classified (429, 401, 5xx,
 * ...), `timeout` when the handshake outlives `handshakeTimeoutMs` or `signal` aborts, `network`
 * when the upstream cannot be reached.
 */
export async function openAIRealtime(target: OpenAIRealtimeTarget, request: RealtimeRequest, options: RealtimeConnectOptions = {}): Promise<RealtimeSocket> {
  const { signal } = options;
  // `ws` is loaded by the first realtime session (the module loader keeps it; with the upgrade's, ~1.1 MiB of heap).
  const { WebSocket: Socket } = await import('ws');
  const headers = request.beta ? { ...target.headers, 'openai-beta': 'realtime=v1' } : target.headers;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(transportError(target.provider, signal.reason, signal));
      return;
    }
    const socket = new Socket(openAIRealtimeUrl(target.base, request.model), {
      headers,
      handshakeTimeout: options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS,
      maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD,
      // Audio is base64 in JSON: compression costs CPU on every frame for little gain, and
      // OpenAI does not negotiate it.
      perMessageDeflate: false,
    });
    let settled = false;
    const settle = (error?: ProviderError) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) {
        resolve(socket);
        return;
      }
      // Late events of a failed handshake (a reset after the refusal) have nowhere to go.
      socket.on('error', () => {});
      reject(error);
    };
    const onAbort = () => {
      settle(transportError(target.provider, signal?.reason, signal));
      socket.terminate();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // Paused so no event is emitted before the caller has its listeners on (frames that came
    // with the handshake would otherwise be delivered to nobody); the caller resumes it.
    socket.once('open', () => {
      socket.pause();
      settle();
    });
    socket.once('unexpected-response', (req, res: IncomingMessage) => {
      void readRefusal(target.provider, res).then((error) => {
        settle(error);
        req.destroy();
      });
    });
    socket.once('error', (error: Error) => {
      settle(
        /handshake has timed out/i.test(error.message)
          ? new ProviderError({ provider: target.provider, kind: 'timeout', message: `${target.provider} did not accept the realtime session in time.`, cause: error })
          : transportError(target.provider, error, signal),
      );
    });
  });
}

/** The upstream's refusal of the upgrade (a plain HTTP answer) as a classified ProviderError. */
async function readRefusal(provider: string, res: IncomingMessage): Promise<ProviderError> {
  const status = res.statusCode ?? 502;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ERROR_BODY) break;
      chunks.push(chunk);
    }
  } catch {
    // A body cut short still has its status.
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const classified = classifyOpenAIError(status, text);
  const headers = new Headers();
  for (const name of ['retry-after', 'retry-after-ms']) {
    const value = res.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new ProviderError({
    provider,
    kind: classified.kind ?? kindFromStatus(status),
    message: classified.message ?? (text.slice(0, 500) || `${provider} refused the realtime session with ${status}.`),
    upstreamStatus: status,
    upstreamCode: classified.code,
    retryAfterMs: parseRetryAfter(headers),
    param: classified.param ?? null,
  });
}
