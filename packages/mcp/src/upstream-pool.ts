import { createHash } from 'node:crypto';
import type { McpConnectionTarget } from './mcp-registry.js';

/** A connected, initialised MCP session with one server; `end` closes it (and its upstream session). */
export interface PooledSession<C> {
  client: C;
  end(): Promise<void>;
}

export interface UpstreamPoolSettings<C> {
  /** Opens a session with `target` (connect and initialize). */
  open(target: McpConnectionTarget): Promise<PooledSession<C>>;
  /** Whether a failure says the server forgot the session (404): the call never ran, so it is retried once on a new session. */
  sessionGone(error: unknown): boolean;
  /** A session unused this long is ended at the next use of the pool, ms. */
  idleMs: number;
  /** Sessions kept at most; past it the least recently used one is ended. */
  maxSessions: number;
  now?: () => number;
}

interface Entry<C> {
  session: Promise<PooledSession<C>>;
  lastUsed: number;
}

/**
 * One MCP session per server and credential, reused by every operation instead of a connection,
 * `initialize` and (stateful servers) a `DELETE` per call. A session that fails is ended and
 * the next operation opens another; idle sessions end after `idleMs`, and all at `close`.
 * Sessions are keyed by URL and a hash of the headers sent, so two organisations with one URL and
 * different credentials never share one.
 */
export class UpstreamPool<C> {
  readonly #entries = new Map<string, Entry<C>>();
  readonly #now: () => number;
  /** Sessions opened so far (a figure for tests and benchmarks). */
  opened = 0;

  constructor(private readonly settings: UpstreamPoolSettings<C>) {
    this.#now = settings.now ?? Date.now;
  }

  /** Runs `operation` on the pooled session of `target` (opened if needed). */
  async use<T>(target: McpConnectionTarget, operation: (client: C) => Promise<T>): Promise<T> {
    this.#sweep();
    const key = sessionKey(target);
    try {
      return await this.#run(key, target, operation);
    } catch (error) {
      if (!this.settings.sessionGone(error)) throw error;
      return this.#run(key, target, operation);
    }
  }

  /** Ends every session (shutdown). */
  async close(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map((entry) => endQuietly(entry.session)));
  }

  get size(): number {
    return this.#entries.size;
  }

  async #run<T>(key: string, target: McpConnectionTarget, operation: (client: C) => Promise<T>): Promise<T> {
    const entry = this.#entry(key, target);
    try {
      const session = await entry.session;
      return await operation(session.client);
    } catch (error) {
      this.#drop(key, entry);
      throw error;
    } finally {
      entry.lastUsed = this.#now();
    }
  }

  #entry(key: string, target: McpConnectionTarget): Entry<C> {
    const known = this.#entries.get(key);
    if (known) return known;
    this.opened += 1;
    const entry: Entry<C> = { session: this.settings.open(target), lastUsed: this.#now() };
    entry.session.catch(() => this.#drop(key, entry));
    this.#entries.set(key, entry);
    if (this.#entries.size > this.settings.maxSessions) this.#evictOldest();
    return entry;
  }

  #drop(key: string, entry: Entry<C>): void {
    if (this.#entries.get(key) !== entry) return;
    this.#entries.delete(key);
    void endQuietly(entry.session);
  }

  #sweep(): void {
    const cutoff = this.#now() - this.settings.idleMs;
    for (const [key, entry] of this.#entries) if (entry.lastUsed < cutoff) this.#drop(key, entry);
  }

  #evictOldest(): void {
    let oldest: [string, Entry<C>] | undefined;
    for (const pair of this.#entries) if (!oldest || pair[1].lastUsed < oldest[1].lastUsed) oldest = pair;
    if (oldest) this.#drop(oldest[0], oldest[1]);
  }
}

async function endQuietly<C>(session: Promise<PooledSession<C>>): Promise<void> {
  try {
    await (await session).end();
  } catch {
    // A session that never opened, or whose end failed, has nothing left to end.
  }
}

/** URL and a hash of the headers (credentials stay out of the key). */
function sessionKey(target: McpConnectionTarget): string {
  const headers = Object.entries(target.headers()).sort(([a], [b]) => a.localeCompare(b));
  return `${target.url}\n${createHash('sha256').update(JSON.stringify(headers)).digest('base64url')}`;
}
