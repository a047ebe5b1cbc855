import type { ChatRequest } from '@svc/core';
import { forcedBlockedTool, unregisteredSchema, unregisteredTool } from './errors.js';
import { canonicalJson, type ToolGovernance } from './tool-governance.js';

/**
 * Before the provider is called: with `enforceRegistry`, throws 404 `governance_error` /
 * `tool_not_registered` for the first declared tool that is not registered (`param`
 * `tools.N.name`) or, with `requireSchemaMatch` too, whose `parameters` differ from the
 * registered schema (`tools.N.parameters`; key order ignored, absent parameters = `{}`). Throws
 * 422 `tool_call_blocked` (`param` `tool_choice`) when `tool_choice` forces a blocked tool.
 * Declaring a blocked tool is allowed: only calls to it are blocked.
 */
export function checkDeclaredTools(request: Pick<ChatRequest, 'tools' | 'toolChoice'>, governance: ToolGovernance): void {
  if (!governance.active) return;
  const { enforceRegistry, requireSchemaMatch } = governance.policy;
  if (enforceRegistry) {
    for (const [index, tool] of (request.tools ?? []).entries()) {
      const registered = governance.registeredSchema(tool.name);
      if (registered === undefined) throw unregisteredTool(tool.name, index);
      if (requireSchemaMatch && canonicalJson(tool.parameters ?? {}) !== registered) throw unregisteredSchema(tool.name, index);
    }
  }
  const choice = request.toolChoice;
  if (typeof choice === 'object' && governance.nameBlock(choice.name) === 'blocked_tool') throw forcedBlockedTool(choice.name);
}
