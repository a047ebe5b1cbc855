import type { CallOptions } from '../provider.js';
import type { ResolvedCompatibility } from '../openai/openai-compatibility.js';
import type { HttpClient } from '../shared/http-client.js';

/** Everything an Azure call needs, resolved once when the provider is created. */
export interface AzureConfig {
  provider: string;
  http: HttpClient;
  compat: ResolvedCompatibility;
  /** Chat-completions URL of one deployment. */
  url(deployment: string): string;
  /** The deployment that serves an upstream model name. */
  deployment(model: string): string;
  /** Request headers for one call, including the chosen `api-key`. */
  headers(options: CallOptions | undefined): Record<string, string>;
}
