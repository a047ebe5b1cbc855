import type { CallOptions, Provider } from '../provider.js';

/** The request/answer endpoints a provider may have besides `chat` and `stream`. */
const optionalCalls = ['embed', 'moderate', 'speech', 'transcribe', 'recognize', 'generateImages'] as const;

/** One of them, whatever its request and answer types. */
export type ProviderCall<O extends CallOptions = CallOptions> = (request: never, options?: O) => Promise<unknown>;

/**
 * Sets on `target` each optional endpoint `source` has, passed through `wrap` (bound to `source`):
 * the one list of those endpoints every provider decorator (key fallthrough, secret scrubbing)
 * walks, so a new endpoint is decorated everywhere at once.
 */
export function wrapOptionalCalls<O extends CallOptions>(source: Provider, target: Provider, wrap: (call: ProviderCall) => ProviderCall<O>): void {
  for (const name of optionalCalls) {
    const call: ProviderCall | undefined = source[name];
    if (call) Object.assign(target, { [name]: wrap(call.bind(source)) });
  }
}

/** What a provider decorator keeps of the provider it wraps besides its calls: its flags, those it sets. */
export function flagsOf(provider: Provider): Pick<Provider, 'multipleChoices' | 'boundsFirstByte'> {
  const flags: { multipleChoices?: boolean; boundsFirstByte?: boolean } = {};
  if (provider.multipleChoices !== undefined) flags.multipleChoices = provider.multipleChoices;
  if (provider.boundsFirstByte !== undefined) flags.boundsFirstByte = provider.boundsFirstByte;
  return flags;
}
