import { type ChatRequest, type RoutingMode, type WorkflowType, invalidRequest } from '@svc/core';
import { normalizeTier } from '../openai/svc-extensions-schema.js';

/** Legacy request header -> `metadata` key (spec §Legacy request headers). */
export const legacyHeaderKeys: Readonly<Record<string, string>> = {
  'x-svc-workflow': 'x-svc-workflow',
  'x-svc-voice': 'x-svc-voice',
  'x-svc-planning-mode': 'x-svc-planning-mode',
  'x-svc-preference': 'x-svc-preference',
  'x-svc-chain-routing': 'x-svc-chain-routing',
  'x-svc-lane': 'x-svc-lane',
  'x-svc-tier': 'x-svc-tier',
  'x-svc-run-id': 'run_id',
  'x-svc-conversation-id': 'conversation_id',
  'x-intelligence-mode': 'x-intelligence-mode',
};

const legacyHeaders = Object.keys(legacyHeaderKeys);

const workflows = new Set<string>(['single_turn', 'execution_task', 'multi_step_conversational', 'long_horizon_autonomous', 'voice_simple', 'voice_complex', 'creative']);
const modes = new Set<string>(['auto', 'fast', 'balanced', 'quality', 'cost_optimized', 'free_models_only']);

function oneOf<T extends string>(header: string, value: string, allowed: ReadonlySet<string> | readonly string[]): T {
  const normalized = value.trim().toLowerCase();
  const ok = Array.isArray(allowed) ? allowed.includes(normalized) : (allowed as ReadonlySet<string>).has(normalized);
  if (!ok) throw invalidRequest(`Header ${header} must be one of ${[...allowed].join(', ')} (got '${value.slice(0, 60)}').`, header);
  return normalized as T;
}

/**
 * Maps the legacy `x-svc-*` request headers into the request (spec §Legacy request headers):
 * each present header is copied into `metadata` under its table key, and applies as the field
 * it stands for when the body does not set that field (the body always wins):
 * `x-svc-workflow` -> `svc.workflow_type`, `x-svc-voice` -> `svc.voice_mode`,
 * `x-svc-planning-mode` -> `svc.planning_mode`, `x-svc-preference` -> `routing_hints.preference_dial`
 * (a number, clamped) or `routing_hints.mode` (a mode name), `x-svc-chain-routing` ->
 * `routing_hints.chain_routing`, `x-svc-lane` -> `routing_override.force_lane`, `x-svc-tier` ->
 * `routing_override.force_tier`, `x-svc-conversation-id` -> `svc.conversation_id`.
 * `x-svc-run-id` is metadata only; `x-intelligence-mode` is read by the pipeline itself.
 * A value of the wrong kind is a 400 naming the header. Costs nothing when no header is present.
 */
export function applyLegacyHeaders(request: ChatRequest, header: (name: string) => string | undefined): void {
  let metadata: Record<string, string> | undefined;
  for (const name of legacyHeaders) {
    const value = header(name);
    if (value === undefined || value === '') continue;
    metadata ??= { ...request.metadata };
    const key = legacyHeaderKeys[name]!;
    if (!(key in metadata)) metadata[key] = value;
    apply(request, name, value);
  }
  if (metadata) request.metadata = metadata;
}

function apply(request: ChatRequest, name: string, value: string): void {
  switch (name) {
    case 'x-svc-workflow':
      if (request.svc?.workflowType === undefined) request.svc = { ...request.svc, workflowType: oneOf<WorkflowType>(name, value, workflows) };
      return;
    case 'x-svc-voice':
      if (request.svc?.voiceMode === undefined) request.svc = { ...request.svc, voiceMode: value.trim() };
      return;
    case 'x-svc-planning-mode':
      if (request.svc?.planningMode === undefined) request.svc = { ...request.svc, planningMode: oneOf<'preact' | 'planact'>(name, value, ['preact', 'planact']) };
      return;
    case 'x-svc-conversation-id':
      if (request.svc?.conversationId === undefined) request.svc = { ...request.svc, conversationId: value };
      return;
    case 'x-svc-preference': {
      const hints = request.routingHints;
      if (hints?.preferenceDial !== undefined || hints?.mode !== undefined) return;
      const trimmed = value.trim();
      const dial = Number(trimmed);
      if (trimmed !== '' && Number.isFinite(dial)) request.routingHints = { ...hints, preferenceDial: Math.min(1, Math.max(0, dial)) };
      else if (modes.has(trimmed.toLowerCase())) request.routingHints = { ...hints, mode: trimmed.toLowerCase() as RoutingMode };
      else throw invalidRequest(`Header ${name} must be a number between 0 and 1 or a routing mode (${[...modes].join(', ')}).`, name);
      return;
    }
    case 'x-svc-chain-routing':
      if (request.routingHints?.chainRouting === undefined) request.routingHints = { ...request.routingHints, chainRouting: oneOf<'sticky' | 'mixed'>(name, value, ['sticky', 'mixed']) };
      return;
    case 'x-svc-lane':
      if (request.routingOverride?.forceLane === undefined) request.routingOverride = { ...request.routingOverride, forceLane: oneOf<'smart' | 'turbo'>(name, value, ['smart', 'turbo']) };
      return;
    case 'x-svc-tier': {
      if (request.routingOverride?.forceTier !== undefined) return;
      const tier = normalizeTier(value);
      if (!tier) throw invalidRequest(`Header ${name} must be T1, T2 or T3 (forms like tier-1 are accepted).`, name);
      request.routingOverride = { ...request.routingOverride, forceTier: tier };
      return;
    }
  }
}
