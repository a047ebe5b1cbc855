import { GatewayError, toolCallBlocked, toolNotRegistered } from '@svc/core';

/** The same error with another `param` (and message): the core helpers name the field generically. */
function restate(error: GatewayError, param: string | null, message = error.message): GatewayError {
  return new GatewayError({ status: error.status, type: error.type, code: error.code, message, param, headers: error.headers, retryable: error.retryable });
}

/** 404 `tool_not_registered` for the tool declared at `tools[index]`. */
export function unregisteredTool(name: string, index: number): GatewayError {
  return restate(toolNotRegistered(name), `tools.${index}.name`);
}

/** 404 `tool_not_registered`: the declared schema is not the one registered under that name. */
export function unregisteredSchema(name: string, index: number): GatewayError {
  return restate(
    toolNotRegistered(name),
    `tools.${index}.parameters`,
    `Tool '${name}' is declared with parameters that differ from its registered schema.`,
  );
}

/** 422 `tool_call_blocked` before any call: `tool_choice` forces a tool the policy blocks. */
export function forcedBlockedTool(name: string): GatewayError {
  return restate(toolCallBlocked(name), 'tool_choice', `Tool '${name}' is blocked by policy; tool_choice cannot force a call to it.`);
}
