import { type Server, type Socket, connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { KvUnavailableError } from './redis-circuit.js';
import { createRedisKv } from './redis.js';

// Port 1 refuses connections: a Redis that is down. No server is needed for these tests.
const DOWN = 'redis://127.0.0.1:1';

describe('redis kv with Redis down', () => {
  it('ping resolves false quickly instead of throwing or hanging', async () => {
    const kv = createRedisKv({ url: DOWN, pingTimeoutMs: 300 });
    const started = Date.now();
    expect(await kv.ping()).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
    await kv.close();
  });

  it('commands reject within about a second', async () => {
    const kv = createRedisKv({ url: DOWN });
    const started = Date.now();
    await expect(kv.consumeWindow('rl', 1, 10, 1000)).rejects.toThrow();
    await expect(kv.get('a')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
    await kv.close();
  });

  it('reports connection errors to onError and closes cleanly', async () => {
    const errors: unknown[] = [];
    const kv = createRedisKv({ url: DOWN, onError: (error) => errors.push(error) });
    await kv.ping();
    expect(errors.length).toBeGreaterThan(0);
    await kv.close();
    expect(await kv.ping()).toBe(false);
  });
});

describe('redis kv circuit', () => {
  it('fails fast while Redis is down: no timeout per call once the connection is known lost', async () => {
    const kv = createRedisKv({ url: DOWN });
    await expect(kv.get('a')).rejects.toThrow();
    const started = performance.now();
    for (let i = 0; i < 50; i++) await expect(kv.get('a')).rejects.toBeInstanceOf(KvUnavailableError);
    // 50 calls together well under one connect or command timeout.
    expect(performance.now() - started).toBeLessThan(200);
    await kv.close();
  });

  it('rejects a command that cannot reach Redis with KvUnavailableError too, before the circuit opens', async () => {
    const sockets: Socket[] = [];
    const hung = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const kv = createRedisKv({ url: `redis://127.0.0.1:${(hung.address() as AddressInfo).port}`, commandTimeoutMs: 100, circuit: { threshold: 5, cooldownMs: 5_000 } });
    const first = await kv.get('a').catch((error: unknown) => error);
    expect(first).toBeInstanceOf(KvUnavailableError);
    expect((first as KvUnavailableError).cause).toBeInstanceOf(Error);
    await kv.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => hung.close(resolve));
  });

  it('fails fast on a hung Redis after two command timeouts, without the connection dropping', async () => {
    // Accepts connections and never answers: a blackholed Redis.
    const sockets: Socket[] = [];
    const hung = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const kv = createRedisKv({ url: `redis://127.0.0.1:${(hung.address() as AddressInfo).port}`, commandTimeoutMs: 150, circuit: { threshold: 2, cooldownMs: 5_000 } });
    await expect(kv.get('a')).rejects.toThrow();
    await expect(kv.get('a')).rejects.toThrow();
    const started = performance.now();
    await expect(kv.get('a')).rejects.toBeInstanceOf(KvUnavailableError);
    expect(performance.now() - started).toBeLessThan(50);
    await kv.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => hung.close(resolve));
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('closes again as soon as Redis is back', async () => {
    // A TCP proxy to the real Redis that can be cut and restored.
    const target = new URL(process.env.TEST_REDIS_URL!);
    const open: Socket[] = [];
    let proxy: Server | undefined;
    const start = (port = 0) =>
      new Promise<number>((resolve) => {
        proxy = createServer((client) => {
          const upstream = connect(Number(target.port || 6379), target.hostname);
          open.push(client, upstream);
          client.pipe(upstream).pipe(client);
          client.on('error', () => upstream.destroy());
          upstream.on('error', () => client.destroy());
        });
        proxy.listen(port, '127.0.0.1', () => resolve((proxy!.address() as AddressInfo).port));
      });
    const cut = () => {
      for (const socket of open.splice(0)) socket.destroy();
      return new Promise((resolve) => proxy!.close(resolve));
    };
    const port = await start();
    const kv = createRedisKv({ url: `redis://127.0.0.1:${port}${target.pathname}`, keyPrefix: `circuit-${Math.random()}:` });
    await kv.set('k', 'v');
    await cut();
    await expect(kv.get('k')).rejects.toThrow();
    const started = performance.now();
    await expect(kv.get('k')).rejects.toBeInstanceOf(KvUnavailableError);
    expect(performance.now() - started).toBeLessThan(50);
    await start(port);
    await expect.poll(() => kv.get('k').catch(() => 'down'), { timeout: 3_000, interval: 50 }).toBe('v');
    await kv.close();
    await cut();
  });
});
