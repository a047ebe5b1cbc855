import { classifyOpenAIError } from '../openai/openai-error.js';
import type { ErrorClassification } from '../shared/http.js';

/**
 * Azure's own error codes (`{error:{code, message}}`, code often the status as text: "429",
 * "401") where the OpenAI classifier, which reads OpenAI codes and the status, would say less.
 */
const azureKinds: ReadonlyMap<string, ErrorClassification['kind']> = new Map([
  // Both say the deployment map (operator configuration) points at the wrong thing for chat:
  // another candidate can still serve the request, so not the caller's fault.
  ['DeploymentNotFound', 'not_found'],
  ['OperationNotSupported', 'not_found'],
]);

/**
 * Reads an Azure OpenAI error body. Azure reuses the OpenAI error shape, so the OpenAI classifier
 * does the work (`content_filter` -> content_filter, `context_length_exceeded` -> context_length,
 * status 429 -> rate_limit); only Azure-specific codes are mapped first.
 */
export function classifyAzureError(status: number, text: string): ErrorClassification {
  const classified = classifyOpenAIError(status, text);
  const azureKind = classified.code === undefined ? undefined : azureKinds.get(classified.code);
  return azureKind === undefined ? classified : { ...classified, kind: azureKind };
}
