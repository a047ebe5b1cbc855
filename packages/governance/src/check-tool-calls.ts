import { type ChatResult, type ToolCall, toolCallBlocked } from '@svc/core';
import type { ToolGovernance } from './tool-governance.js';
import type { BlockReason } from './types.js';

/** A call the policy blocks, and why. `choice` is set when found in a ChatResult. */
export interface BlockedToolCall {
  call: ToolCall;
  reason: BlockReason;
  choice?: number;
}

/** What the checks accept: a whole answer, one call or a list of calls. */
export type ToolCallTarget = ChatResult | ToolCall | readonly ToolCall[];

/** Why this one call is blocked, or undefined when it may go to the client. */
export function blockReason(call: ToolCall, governance: ToolGovernance): BlockReason | undefined {
  if (!governance.active) return undefined;
  return governance.nameBlock(call.name) ?? (governance.argumentsBlocked(call.name, call.arguments) ? 'blocked_argument' : undefined);
}

/** The first blocked call (choices in order, calls in order), or undefined. */
export function findBlockedToolCall(target: ToolCallTarget, governance: ToolGovernance): BlockedToolCall | undefined {
  if (!governance.active) return undefined;
  if ('choices' in target) {
    for (const choice of target.choices) {
      for (const call of choice.message.toolCalls ?? []) {
        const reason = blockReason(call, governance);
        if (reason) return { call, reason, choice: choice.index };
      }
    }
    return undefined;
  }
  for (const call of Array.isArray(target) ? (target as readonly ToolCall[]) : [target as ToolCall]) {
    const reason = blockReason(call, governance);
    if (reason) return { call, reason };
  }
  return undefined;
}

/**
 * After the answer: throws 422 `governance_error` / `tool_call_blocked` naming the first call
 * that a blocked name or argument pattern matches, or (with `enforceRegistry`) that goes to an
 * unregistered tool.
 */
export function checkToolCalls(target: ToolCallTarget, governance: ToolGovernance): void {
  const blocked = findBlockedToolCall(target, governance);
  if (blocked) throw toolCallBlocked(blocked.call.name);
}
