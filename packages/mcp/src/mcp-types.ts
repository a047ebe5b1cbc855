import type { GovernanceSource } from '@svc/governance';
import type { AddressPolicy } from './address-policy.js';
import type { Resolver } from './guarded-fetch.js';
import type { McpCallError } from './mcp-call-error.js';
import type { McpRegistry } from './mcp-registry.js';

/** An MCP server named in a model request: a registered one by `label`, or `url` with the request's own headers. */
export interface McpServerRef {
  label: string;
  url?: string;
  headers?: Record<string, string>;
}

/** A span of the request's trace (`@svc/telemetry`'s TraceSpan fits). */
export interface McpSpan {
  child(name: string, kind: 'internal' | 'client', attributes?: Record<string, string | number | boolean>): { set(attributes: Record<string, string | number | boolean>): void; end(error?: unknown): void };
}

/** Who calls `/mcp`: the authenticated key's organisation and key, and the request's span. */
export interface McpCaller {
  orgId: string;
  keyId: string;
  requestId: string;
  span: McpSpan | undefined;
  /**
   * Counts a tool call against the caller's request limits, before the server is called; throws
   * a GatewayError 429 when they are spent (answered as the MCP error `rate_limited`). Absent: unlimited.
   */
  admitToolCall?: () => Promise<void>;
  /**
   * Aborts when the caller's client leaves: a list or tool call in flight upstream stops then, not
   * only at its timeout (a Node AbortSignal: `nodeSignal` of the request's). Absent: the timeout alone.
   */
  signal?: AbortSignal;
}

/** One tool call as the gateway records it (the runtime writes it to the usage ledger). */
export interface McpToolCallRecord {
  /** Unique per call: the ledger's idempotency key. */
  id: string;
  orgId: string;
  keyId: string;
  /** The gateway's name, `<server>__<tool>`. */
  tool: string;
  /** 200 when the server answered (its result may still be `isError`), else the failure's status. */
  status: number;
  /** The failure's stable code; undefined when the server answered. */
  failure: string | undefined;
  latencyMs: number;
}

export interface McpGatewaySettings {
  registry: Pick<McpRegistry, 'connections' | 'registeredUrl'>;
  /** Tool governance (blocked names, argument rules, registry enforcement) on the gateway's tool names. */
  governance: Pick<GovernanceSource, 'get'>;
  policy: AddressPolicy;
  /** One operation with one server (connect, then list or call), ms. */
  timeoutMs: number;
  /** Largest response accepted from a server, bytes. */
  maxResponseBytes: number;
  /** Largest JSON-RPC request body accepted at `/mcp`, bytes. */
  maxRequestBytes: number;
  onToolCall(record: McpToolCallRecord): void;
  /** A server that could not be listed: its tools are left out of `tools/list`. */
  onListFailure(error: McpCallError, orgId: string): void;
  /** What resolves upstream host names (tests); default `dns.lookup`. */
  resolve?: Resolver;
}

