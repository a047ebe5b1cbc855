import { describe, expect, it, vi } from 'vitest';

// Loading any of these fails the test: importing the package, and a request that is not a POST, must not load the SDK.
vi.mock('@modelcontextprotocol/sdk/server/index.js', () => {
  throw new Error('the MCP SDK was loaded');
});
vi.mock('@modelcontextprotocol/sdk/types.js', () => {
  throw new Error('the MCP SDK was loaded');
});

describe('the MCP SDK is loaded on first use', () => {
  it('is not loaded by importing the package nor by a GET, and is by the first POST', async () => {
    const { McpGateway, mcpProtocolVersion } = await import('./index.js');
    expect(mcpProtocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const gateway = new McpGateway({
      registry: {} as never,
      governance: {} as never,
      policy: { allowPrivate: false },
      timeoutMs: 1000,
      maxResponseBytes: 1000,
      maxRequestBytes: 1000,
      onToolCall: () => {},
      onListFailure: () => {},
    });
    const caller = { orgId: 'org', keyId: 'key', requestId: 'req', span: undefined };
    expect((await gateway.handle(new Request('http://gateway/mcp'), caller)).status).toBe(405);
    await expect(gateway.handle(new Request('http://gateway/mcp', { method: 'POST', body: '{}' }), caller)).rejects.toThrow(/error when mocking/);
  });
});
