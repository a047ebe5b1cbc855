import type { ChatRequest, TaskComplexity, WorkflowType } from '@svc/core';
import type { RequestFeatures } from './features.js';
import type { Weights } from './preferences.js';
import type { TaskFamily } from './types.js';

/** Tool results in the history from which a tool-using chain counts as an autonomous agent loop. */
const agentLoopToolResults = 3;

function toolResults(request: ChatRequest): number {
  let count = 0;
  for (const message of request.messages) if (message.role === 'tool') count++;
  return count;
}

/** Whether `svc.voice_mode` (or the legacy `x-svc-voice` header) asks for voice handling. */
export function voiceRequested(request: ChatRequest): boolean {
  const voice = request.svc?.voiceMode?.trim().toLowerCase();
  return voice !== undefined && voice !== '' && voice !== 'false' && voice !== '0' && voice !== 'off';
}

/**
 * The workflow a request belongs to (spec §svc orchestration block, `workflow_type`): the stated
 * one, else classified from the request's shape. Voice first (a voice request is latency-bound
 * whatever it asks), then agent loops (tools with a chain or several tool results), then tool
 * use, creative writing, multi-turn chat and, by default, a single turn.
 */
export function classifyWorkflow(request: ChatRequest, features: RequestFeatures, taskFamily: TaskFamily, complexity: TaskComplexity): WorkflowType {
  if (voiceRequested(request)) return complexity === 'complex' || complexity === 'expert' || features.tools ? 'voice_complex' : 'voice_simple';
  if (features.tools) {
    const chained = request.svc?.chainId !== undefined || toolResults(request) >= agentLoopToolResults;
    return chained ? 'long_horizon_autonomous' : 'execution_task';
  }
  if (taskFamily === 'writing' && features.code === 0 && features.math === 0 && features.constraintWords < 0.5) return 'creative';
  if (features.turns > 2) return 'multi_step_conversational';
  return 'single_turn';
}

/**
 * How the workflow and `svc.planning_mode` bend the scoring weights, in place: voice is
 * latency-bound, tool-driven work and plan-then-act planning lean to quality (a wrong step costs
 * the whole chain).
 */
export function applyWorkflowWeights(weights: Weights, workflow: WorkflowType, planningMode: 'preact' | 'planact' | undefined): void {
  if (workflow === 'voice_simple') {
    weights.latency *= 3;
    weights.quality *= 0.8;
  } else if (workflow === 'voice_complex') weights.latency *= 2;
  else if (workflow === 'long_horizon_autonomous' || workflow === 'execution_task') weights.quality *= 1.15;
  if (planningMode === 'planact') weights.quality *= 1.2;
}
