export { checkDeclaredTools } from './check-declared-tools.js';
export { type BlockedToolCall, type ToolCallTarget, blockReason, checkToolCalls, findBlockedToolCall } from './check-tool-calls.js';
export { CachedGovernanceSource, type CachedGovernanceSourceSettings, type GovernanceSource } from './governance-source.js';
export { policyLimits, ToolPolicyError } from './policy-error.js';
export { guardToolCallStream, ToolCallStreamGuard } from './tool-call-stream-guard.js';
export { canonicalJson, compileGovernance, noGovernance, ToolGovernance, validateToolPolicy } from './tool-governance.js';
export type { BlockReason, GovernanceSnapshot, RegisteredTool, ToolArgumentRule, ToolPolicy } from './types.js';
