import type { JsonSchema } from '@svc/core';

/** A tool an organisation registered. */
export interface RegisteredTool {
  name: string;
  description?: string | null;
  /** JSON Schema of the arguments. */
  parameters: JsonSchema;
}

/**
 * Blocks a call to a tool whose name matches `tool` (a name or glob) when `pattern` (an
 * ECMAScript regular expression, matched case-insensitively and unanchored) matches a value of
 * the call's arguments: the values at the dotted path `argument` (`*` segments match any key or
 * index), or every value when `argument` is absent. Values are the string, number and boolean
 * leaves below that point; arguments that are not JSON are matched as raw text.
 */
export interface ToolArgumentRule {
  tool: string;
  argument?: string;
  pattern: string;
}

/** An organisation's tool policy. Omitted fields mean "off" / empty. */
export interface ToolPolicy {
  /** Declared tools must be registered (404 `tool_not_registered`), and calls only go to registered tools. */
  enforceRegistry?: boolean;
  /** With `enforceRegistry`: a declared tool's `parameters` must equal its registered schema (key order ignored). */
  requireSchemaMatch?: boolean;
  /**
   * Tool names or globs whose calls are blocked (422 `tool_call_blocked`). `*` matches any run
   * of characters, `?` one character; matched case-insensitively against the whole name.
   */
  blockedTools?: readonly string[];
  blockedArgumentPatterns?: readonly ToolArgumentRule[];
}

/** What a GovernanceSource loads for one organisation: its registry and its policy (none: no governance). */
export interface GovernanceSnapshot {
  tools: readonly RegisteredTool[];
  policy: ToolPolicy | undefined;
}

/** Why a tool call is blocked. */
export type BlockReason = 'blocked_tool' | 'blocked_argument' | 'not_registered';
