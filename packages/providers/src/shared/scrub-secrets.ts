import { ProviderError, isProviderError } from '@svc/core';
import type { StreamEvent } from '@svc/core';
import type { CallOptions, NativeBatches, NativeBatchSearch, Provider, ProviderChatRequest, RealtimeConnectOptions, RealtimeRequest } from '../provider.js';
import { scrubRealtimeSocket } from './scrub-realtime.js';
import { flagsOf, wrapOptionalCalls } from './wrap-optional-calls.js';

/** What a secret is replaced with in upstream text. */
export const REDACTED = '[redacted]';

/** Shorter values are scrubbed only where a whole word equals them: replacing two letters everywhere would garble every message. */
const minSecretLength = 6;

/** A truncated echo (`sk-proj-Ab3…`, `sk-abcde****wxyz`) is a word beginning with this many characters of a secret. */
const echoedHeadLength = 8;

/** A word as keys are written: what upstreams quote of a key is one of these. */
const wordPattern = /[\w\-.:+/=*\u2026]+/g;

/** The word without the sentence's punctuation after it. */
const trimWord = (word: string) => word.replace(/[.:,]+$/, '');

/**
 * The credentials one registry holds (platform or pool keys, a BYOK organisation's keys, SigV4
 * secrets, Vertex tokens as they are minted). Mutable on purpose: a token fetched at call time is
 * added when it is known.
 */
export class SecretSet {
  private readonly values = new Set<string>();
  private pattern: RegExp | undefined;

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const secret of secrets) this.add(secret);
  }

  add(secret: string | undefined): void {
    if (secret?.includes(':')) for (const part of secret.split(':')) this.add(part);
    if (!secret || this.values.has(secret)) return;
    this.values.add(secret);
    this.pattern = undefined;
  }

  get size(): number {
    return this.values.size;
  }

  /**
   * `text` with every known secret (and `extra`, a key pinned by the call) replaced by
   * `[redacted]`: wherever it occurs, and as whole words also when truncated (a word beginning
   * with its first 8 characters, as upstreams quote keys: `sk-abcde****wxyz`); one shorter than 6
   * characters only where a whole word equals it.
   */
  scrub(text: string, extra?: string): string {
    let out = text;
    const long = [...this.values].filter((value) => value.length >= minSecretLength);
    if (long.length > 0) {
      // Longest first, so a secret that contains another is replaced whole.
      this.pattern ??= new RegExp(long.sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
      out = out.replace(this.pattern, REDACTED);
    }
    // A Bedrock pool key packs `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]`: each part on its own too.
    const extras = extra === undefined ? [] : [extra, ...(extra.includes(':') ? extra.split(':') : [])].filter(Boolean);
    for (const part of extras) if (part.length >= minSecretLength) out = out.split(part).join(REDACTED);
    return scrubWords(out, [...this.values, ...extras]);
  }
}

/** Replaces the words that are a secret, or begin with the first 8 characters of one (a truncated echo). */
function scrubWords(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const heads = secrets.filter((secret) => secret.length >= echoedHeadLength).map((secret) => secret.slice(0, echoedHeadLength));
  return text.replace(wordPattern, (word) => {
    const bare = trimWord(word);
    if (!secrets.includes(bare) && !heads.some((head) => bare.startsWith(head))) return word;
    return REDACTED + word.slice(bare.length);
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The error with every secret scrubbed from what a client or a log can read of it: message,
 * stack, param, upstream code and cause. A ProviderError is rebuilt (its fields are readonly);
 * other errors are scrubbed in place.
 */
export function scrubError(error: unknown, secrets: SecretSet, extra?: string): unknown {
  const scrub = (text: string) => secrets.scrub(text, extra);
  if (isProviderError(error)) {
    const message = scrub(error.message);
    const param = error.param === null ? null : scrub(error.param);
    const upstreamCode = error.upstreamCode === undefined ? undefined : scrub(error.upstreamCode);
    const cause = scrubError(error.cause, secrets, extra);
    if (message === error.message && param === error.param && upstreamCode === error.upstreamCode && cause === error.cause) return error;
    return new ProviderError({
      provider: error.provider,
      kind: error.kind,
      message,
      param,
      ...(error.upstreamStatus === undefined ? {} : { upstreamStatus: error.upstreamStatus }),
      ...(upstreamCode === undefined ? {} : { upstreamCode }),
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      ...(cause === undefined ? {} : { cause }),
    });
  }
  if (error instanceof Error) {
    rewrite(error, 'message', scrub(error.message));
    if (error.stack !== undefined) rewrite(error, 'stack', scrub(error.stack));
    if (error.cause !== undefined) rewrite(error, 'cause', scrubError(error.cause, secrets, extra));
    return error;
  }
  return typeof error === 'string' ? scrub(error) : error;
}

/**
 * Sets a field of an error only when its value changes, as an own property: a DOMException's
 * `message` (an abort, a timeout) is a getter on its prototype, which plain assignment cannot
 * write (it threw, and the request's real error became a 500).
 */
function rewrite(error: Error, key: 'message' | 'stack' | 'cause', value: unknown): void {
  if (error[key] === value) return;
  Object.defineProperty(error, key, { value, writable: true, configurable: true, enumerable: false });
}

/**
 * Wraps a provider so no error it raises (a rejected call, a stream that fails mid-way, a
 * realtime upgrade refused, a realtime session's messages and close reason) carries a configured secret: upstreams and proxies may echo the key
 * they were sent ("Incorrect API key provided: sk-..."), and that text would otherwise reach
 * tenants in a 502 and the logs. The one place upstream failure text is scrubbed.
 */
export function withSecretScrubbing(provider: Provider, secrets: SecretSet): Provider {
  const guard = async <T>(options: CallOptions | undefined, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw scrubError(error, secrets, options?.apiKey);
    }
  };

  const wrapped: Provider = {
    id: provider.id,
    ...flagsOf(provider),
    chat: (request: ProviderChatRequest, options?: CallOptions) => guard(options, () => provider.chat(request, options)),
    stream: async (request: ProviderChatRequest, options?: CallOptions) => {
      const events = await guard(options, () => provider.stream(request, options));
      return scrubbedEvents(events, secrets, options?.apiKey);
    },
  };
  wrapOptionalCalls(provider, wrapped, (call) => (request, options) => guard(options, () => call(request, options)));
  if (provider.batches) wrapped.batches = scrubbedBatches(provider.batches, secrets);
  const realtime = provider.realtime?.bind(provider);
  if (realtime) {
    wrapped.realtime = async (request: RealtimeRequest, options?: RealtimeConnectOptions) => {
      const socket = await guard(options, () => realtime(request, options));
      // What the upstream says once the session is open (error events, close reasons) reaches
      // the client and the logs as it is: scrubbed like every other upstream text.
      return scrubRealtimeSocket(
        socket,
        (text) => secrets.scrub(text, options?.apiKey),
        (error) => scrubError(error, secrets, options?.apiKey),
      );
    };
  }
  return wrapped;
}

async function* scrubbedEvents(events: AsyncIterable<StreamEvent>, secrets: SecretSet, extra: string | undefined): AsyncIterable<StreamEvent> {
  try {
    yield* events;
  } catch (error) {
    throw scrubError(error, secrets, extra);
  }
}

/** A provider's batch calls with every failure scrubbed; a results line's `read` throws scrubbed too. */
function scrubbedBatches(batches: NativeBatches, secrets: SecretSet): NativeBatches {
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw scrubError(error, secrets);
    }
  };
  return {
    submit: (requests, signal, marker) => guard(() => batches.submit(requests, signal, marker)),
    ...(batches.find ? { find: (search: NativeBatchSearch, signal?: AbortSignal) => guard(() => batches.find!(search, signal)) } : {}),
    status: (ref, signal) => guard(() => batches.status(ref, signal)),
    cancel: (ref, signal) => guard(() => batches.cancel(ref, signal)),
    results: (ref, signal) => ({
      async *[Symbol.asyncIterator]() {
        const lines = batches.results(ref, signal)[Symbol.asyncIterator]();
        for (;;) {
          const next = await guard(() => lines.next());
          if (next.done) return;
          const line = next.value;
          yield {
            customId: line.customId,
            read: (request: ProviderChatRequest) => {
              try {
                return line.read(request);
              } catch (error) {
                throw scrubError(error, secrets);
              }
            },
          };
        }
      },
    }),
  };
}
