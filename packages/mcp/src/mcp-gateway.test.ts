import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { mcpProtocolVersion } from './mcp-gateway.js';

describe('McpGateway', () => {
  it("announces the SDK's latest protocol revision (written out so that the route's description does not load the SDK)", () => {
    expect(mcpProtocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });
});
