import type { ModelInfo } from '@svc/catalog';
import type { ChatRequest } from '@svc/core';

/**
 * The reasoning controls a request set, by wire name: `reasoning_effort` (chat's field, or
 * Responses' `reasoning.effort`) and `reasoning.max_tokens` (a thinking budget: OpenRouter's
 * field, or `/v1/messages`' `thinking.budget_tokens`).
 */
function requestedReasoning(request: Pick<ChatRequest, 'reasoningEffort' | 'reasoning'>): string[] {
  const out: string[] = [];
  if (request.reasoningEffort !== undefined || request.reasoning?.effort !== undefined) out.push('reasoning_effort');
  if (request.reasoning?.maxTokens !== undefined) out.push('reasoning.max_tokens');
  return out;
}

/** The reasoning controls `model` cannot apply (it lacks the `reasoning` capability), for `svc_metadata.not_applied`. */
export function unappliedReasoning(request: Pick<ChatRequest, 'reasoningEffort' | 'reasoning'>, model: Pick<ModelInfo, 'capabilities'>): string[] {
  return model.capabilities.includes('reasoning') ? [] : requestedReasoning(request);
}

/**
 * `request` as `model` can take it: without reasoning controls when the model does not reason, so
 * no adapter turns them into a field the upstream refuses (or thinking it cannot do) and
 * `not_applied` says exactly what was left out.
 */
export function forModel<T extends Pick<ChatRequest, 'reasoningEffort' | 'reasoning'>>(request: T, model: Pick<ModelInfo, 'capabilities'>): T {
  if (model.capabilities.includes('reasoning') || (request.reasoningEffort === undefined && request.reasoning === undefined)) return request;
  const { reasoningEffort: _effort, reasoning: _reasoning, ...rest } = request;
  return rest as T;
}
