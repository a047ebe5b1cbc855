import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './address-policy.js';
import { McpUrlRefusedError, checkMcpUrl } from './url-check.js';

const strict = { allowPrivate: false };

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses what is not an address', () => {
    expect(isPublicAddress('example.com')).toBe(false);
  });
});

describe('checkMcpUrl', () => {
  it.each([
    ['http://127.0.0.1:8080/mcp', /non-public address 127\.0\.0\.1/],
    ['http://[::1]/mcp', /non-public address ::1/],
    ['http://169.254.169.254/latest', /non-public/],
    ['http://localhost:3000/mcp', /loopback host localhost/],
    ['http://api.localhost/mcp', /loopback host/],
    ['ftp://example.com/mcp', /http/],
    ['https://user:pw@example.com/mcp', /user name or password/],
    ['not a url', /absolute URL/],
  ])('refuses %s', (url, reason) => {
    expect(() => checkMcpUrl(url, strict)).toThrow(McpUrlRefusedError);
    expect(() => checkMcpUrl(url, strict)).toThrow(reason);
  });

  it('names the operator setting that allows private addresses', () => {
    expect(() => checkMcpUrl('http://10.0.0.5/mcp', strict)).toThrow(/SVC_MCP_ALLOW_PRIVATE_URLS/);
  });

  it('accepts public hosts, and private ones when the operator allows them', () => {
    expect(checkMcpUrl('https://mcp.example.com/mcp', strict).hostname).toBe('mcp.example.com');
    expect(checkMcpUrl('http://127.0.0.1:8080/mcp', { allowPrivate: true }).port).toBe('8080');
  });
});
