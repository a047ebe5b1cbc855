import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestAbort } from '@svc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpResponseTooLargeError, type Resolver, guardedFetch, guardedLookup } from './guarded-fetch.js';
import { McpUrlRefusedError } from './url-check.js';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/big') return response.end('x'.repeat(5000));
    if (request.url === '/redirect') return response.writeHead(302, { location: 'http://127.0.0.1/' }).end();
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A DNS that answers every name with `addresses` (a rebinding attacker's, say). */
const fakeDns =
  (...addresses: string[]): Resolver =>
  (_host, _options, callback) =>
    callback(null, addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

const lookupOf = (allowPrivate: boolean, host: string, resolver?: Resolver) =>
  new Promise<unknown>((resolve, reject) => {
    guardedLookup({ allowPrivate }, resolver)(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

describe('guardedLookup', () => {
  it('refuses a name that resolves to a loopback address', async () => {
    await expect(lookupOf(false, 'localhost')).rejects.toThrow(McpUrlRefusedError);
    await expect(lookupOf(false, 'localhost')).rejects.toThrow(/localhost resolves to a non-public address/);
  });

  it('refuses a name when any of its addresses is private, public ones first included', async () => {
    await expect(lookupOf(false, 'mcp.example.com', fakeDns('93.184.216.34', '10.0.0.7'))).rejects.toThrow(/mcp\.example\.com resolves to a non-public address/);
    expect(await lookupOf(false, 'mcp.example.com', fakeDns('93.184.216.34'))).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('resolves it when the operator allows private addresses', async () => {
    expect(await lookupOf(true, 'localhost')).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]));
  });
});

describe('guardedFetch', () => {
  it('refuses a private IP literal before dialling', async () => {
    const fetch = guardedFetch({ policy: { allowPrivate: false }, maxResponseBytes: 1000 });
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow(McpUrlRefusedError);
  });

  it('refuses a host name that resolves to a private address, at connect time', async () => {
    // The name passes the registration check; its DNS answer (127.0.0.1) is refused when dialled.
    const fetch = guardedFetch({ policy: { allowPrivate: false }, maxResponseBytes: 1000, resolve: fakeDns('127.0.0.1') });
    const error = await fetch(`http://rebind.example.com:${port}/`).catch((caught: unknown) => caught);
    expect(String((error as Error).cause ?? error)).toMatch(/rebind\.example\.com resolves to a non-public address; set SVC_MCP_ALLOW_PRIVATE_URLS/);
    const allowed = guardedFetch({ policy: { allowPrivate: true }, maxResponseBytes: 1000, resolve: fakeDns('127.0.0.1') });
    expect(await (await allowed(`http://rebind.example.com:${port}/`)).text()).toBe('ok');
  });

  it('fetches an allowed server, caps the body and refuses redirects', async () => {
    const fetch = guardedFetch({ policy: { allowPrivate: true }, maxResponseBytes: 1000 });
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
    await expect(fetch(`http://127.0.0.1:${port}/big`)).rejects.toThrow(McpResponseTooLargeError);
    await expect(fetch(`http://127.0.0.1:${port}/redirect`)).rejects.toThrow();
  });

  it("takes a request's own signal (RequestAbort), which undici's fetch alone would refuse, and follows it", async () => {
    const fetch = guardedFetch({ policy: { allowPrivate: true }, maxResponseBytes: 1000 });
    const live = new RequestAbort();
    expect(await (await fetch(`http://127.0.0.1:${port}/`, { signal: live.signal })).text()).toBe('ok');
    const gone = new RequestAbort();
    gone.abort(new Error('client left'));
    await expect(fetch(`http://127.0.0.1:${port}/`, { signal: gone.signal })).rejects.toThrow('client left');
  });
});
