import { checkFields, checkIncrement, checkSteps, checkStreamId, checkWindow, toTtlMs } from './arguments.js';
import { ioredis } from './ioredis-module.js';
import type { ConsumeAllResult, ConsumeStep, ConsumeStepResult, Kv, StreamEntry, WindowResult } from './interface.js';
import { KvCircuit, type KvCircuitOptions } from './redis-circuit.js';
import { type ScriptedRedis, defineScripts } from './redis-scripts.js';
import { RedisSubscriber, quit } from './redis-subscriber.js';

/** Settings of the Redis-backed Kv. */
export interface RedisKvOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` for TLS. */
  url: string;
  /** Prepended to every key, stream and channel (e.g. `svc:`, or a random one per test run). */
  keyPrefix?: string;
  /** Limit for establishing each TCP connection, ms. Default 2000. */
  connectTimeoutMs?: number;
  /** A command without a reply after this long rejects (a hung server must not hang requests), ms. Default 2000. */
  commandTimeoutMs?: number;
  /** `ping()` resolves false after this long, ms. Default 500. */
  pingTimeoutMs?: number;
  /**
   * The circuit in front of the command connection: while Redis is down, commands reject at
   * once (KvUnavailableError) instead of each waiting for a timeout. `false` turns it off.
   */
  circuit?: KvCircuitOptions | false;
  /** Receives connection errors and errors thrown by subscriber callbacks. Default: ignored. */
  onError?: (error: unknown) => void;
}

/**
 * Kv over Redis (>= 6.2). The command connection is opened at once and re-opened in the
 * background whenever it drops; the subscriber connection is opened on the first `subscribe`.
 *
 * Failure behaviour: commands issued while disconnected wait in ioredis' offline queue (so a
 * start-up or a short blip costs latency, not errors) but are failed after one reconnection
 * attempt (`maxRetriesPerRequest: 1`, reconnect backoff capped at 500 ms), so while Redis is
 * down every call rejects within about a second instead of hanging; past the first failures
 * (or at once when the connection drops) a circuit rejects without a round trip until Redis
 * answers again. Callers decide whether to fail open or closed.
 */
export function createRedisKv(options: RedisKvOptions): Kv {
  return new RedisKv(options);
}

class RedisKv implements Kv {
  private readonly client: ScriptedRedis;
  private readonly prefix: string;
  private readonly pingTimeoutMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly circuit: KvCircuit | undefined;
  private subscriber: RedisSubscriber | undefined;
  private closed = false;

  constructor(options: RedisKvOptions) {
    this.prefix = options.keyPrefix ?? '';
    this.pingTimeoutMs = options.pingTimeoutMs ?? 500;
    this.onError = options.onError ?? (() => {});
    // The prefix is applied by hand rather than with ioredis' `keyPrefix`, which does not
    // cover pub/sub channels.
    const client = new (ioredis().Redis)(options.url, {
      connectTimeout: options.connectTimeoutMs ?? 2000,
      commandTimeout: options.commandTimeoutMs ?? 2000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      retryStrategy: (attempt) => Math.min(attempt * 50, 500),
    });
    client.on('error', this.onError);
    if (options.circuit !== false) {
      const circuit = new KvCircuit(options.circuit);
      // 'close' fires on a dropped connection (and on each failed reconnection), 'ready' once usable again.
      client.on('close', () => circuit.tripped(new Error('Redis connection closed')));
      client.on('ready', () => circuit.closed());
      this.circuit = circuit;
    }
    this.client = defineScripts(client);
  }

  /** One command through the circuit. */
  private call<T>(command: () => Promise<T>): Promise<T> {
    return this.circuit ? this.circuit.run(command) : command();
  }

  async get(key: string): Promise<string | null> {
    return this.call(() => this.client.get(this.prefix + key));
  }

  async set(key: string, value: string, options?: { ttlMs?: number }): Promise<void> {
    const ttlMs = options?.ttlMs;
    if (ttlMs === undefined) await this.call(() => this.client.set(this.prefix + key, value));
    else await this.call(() => this.client.set(this.prefix + key, value, 'PX', toTtlMs(ttlMs)));
  }

  async setIfAbsent(key: string, value: string, options?: { ttlMs?: number }): Promise<boolean> {
    // SET NX [PX] is a single atomic command; no script needed.
    const ttlMs = options?.ttlMs;
    const reply =
      ttlMs === undefined
        ? await this.call(() => this.client.set(this.prefix + key, value, 'NX'))
        : await this.call(() => this.client.set(this.prefix + key, value, 'PX', toTtlMs(ttlMs), 'NX'));
    return reply === 'OK';
  }

  async delete(key: string): Promise<boolean> {
    return (await this.call(() => this.client.del(this.prefix + key))) > 0;
  }

  async take(key: string): Promise<string | null> {
    return this.call(() => this.client.getdel(this.prefix + key));
  }

  async ttl(key: string): Promise<number> {
    return this.call(() => this.client.pttl(this.prefix + key));
  }

  async increment(key: string, by = 1, options?: { ttlMs?: number }): Promise<number> {
    checkIncrement(by);
    const ttlMs = options?.ttlMs;
    if (ttlMs === undefined) return this.call(() => this.client.incrby(this.prefix + key, by));
    return this.call(() => this.client.svcIncrementWithTtl(this.prefix + key, by, toTtlMs(ttlMs)));
  }

  async consumeWindow(key: string, cost: number, limit: number, windowMs: number): Promise<WindowResult> {
    checkWindow(cost, limit, windowMs);
    const [admitted, count, resetMs] = await this.call(() => this.client.svcConsumeWindow(this.prefix + key, cost, limit, windowMs));
    return { admitted: admitted === 1, count, resetMs };
  }

  async consumeAll(steps: readonly ConsumeStep[]): Promise<ConsumeAllResult> {
    checkSteps(steps);
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (const step of steps) {
      keys.push(this.prefix + step.key);
      if (step.kind === 'bucket') args.push('b', step.cost, step.capacity, step.refillMs, step.force === true ? '1' : '0', step.reserve ?? 0);
      else {
        const ttlMs = step.ttlMs === undefined ? '' : toTtlMs(step.ttlMs);
        args.push('c', step.cost, step.limit ?? '', ttlMs, step.onMissing ?? 'create', '');
      }
    }
    const reply = await this.call(() => this.client.svcConsumeAll(keys.length, ...keys, ...args));
    const results = steps.map((step, i): ConsumeStepResult => {
      const [fits = 0, a = 0, b = 0, c = 0] = reply.slice(1 + i * 4, 5 + i * 4);
      if (step.kind === 'bucket') return { kind: 'bucket', fits: fits === 1, remaining: a, resetMs: b, retryAfterMs: c };
      return { kind: 'counter', fits: fits === 1, value: a, missing: b === 1 };
    });
    return { admitted: reply[0] === 1, steps: results };
  }

  async append(stream: string, fields: Record<string, string>): Promise<string> {
    checkFields(fields);
    const args: string[] = [];
    for (const name in fields) args.push(name, fields[name]!);
    const id = await this.call(() => this.client.xadd(this.prefix + stream, '*', ...args));
    if (id === null) throw new Error('XADD returned no id');
    return id;
  }

  async read(stream: string, afterId: string, count: number): Promise<StreamEntry[]> {
    checkStreamId(afterId);
    if (count <= 0) return [];
    const rows = await this.call(() => this.client.xrange(this.prefix + stream, `(${afterId}`, '+', 'COUNT', count));
    return rows.map(([id, flat]) => {
      const fields: Record<string, string> = {};
      for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
      return { id, fields };
    });
  }

  async ack(stream: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.call(() => this.client.xdel(this.prefix + stream, ...ids));
  }

  streamLength(stream: string): Promise<number> {
    return this.call(() => this.client.xlen(this.prefix + stream));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.call(() => this.client.publish(this.prefix + channel, message));
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('Kv is closed');
    if (this.subscriber === undefined) {
      const connection = this.client.duplicate();
      connection.on('error', this.onError);
      this.subscriber = new RedisSubscriber(connection, this.onError);
    }
    return this.subscriber.subscribe(this.prefix + channel, onMessage);
  }

  async ping(): Promise<boolean> {
    if (this.closed) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(resolve, this.pingTimeoutMs, false);
    });
    const pong = this.client.ping().then(
      (reply) => reply === 'PONG',
      () => false,
    );
    try {
      return await Promise.race([pong, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([quit(this.client), this.subscriber?.close()]);
    this.subscriber = undefined;
  }
}
