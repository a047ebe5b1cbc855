import type { CallOptions } from '../provider.js';
import type { HttpClient } from '../shared/http-client.js';
import type { ResolvedCompatibility } from './openai-compatibility.js';

/** Everything a call needs, resolved once when the provider is created. */
export interface OpenAIConfig {
  provider: string;
  /** Full chat-completions URL. */
  url: string;
  http: HttpClient;
  compat: ResolvedCompatibility;
  /** Request headers for one call, including the chosen key. */
  headers(options: CallOptions | undefined): Record<string, string>;
}
