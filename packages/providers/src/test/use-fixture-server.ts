import { afterEach } from 'vitest';
import { type FixtureReply, type FixtureServer, type RecordedRequest, startFixtureServer } from './fixture-server.js';

/**
 * For a test file: returns `startFixtureServer` and closes every server it started after each
 * test. Kept out of the `@svc/providers/test` entry because it registers a vitest hook.
 */
export function useFixtureServer(): (reply: (request: RecordedRequest, index: number) => FixtureReply) => Promise<FixtureServer> {
  const servers: FixtureServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (reply) => {
    const server = await startFixtureServer(reply);
    servers.push(server);
    return server;
  };
}

/** What a test serves: the same reply to every request, or one per request index (e.g. 429 then 200). */
export type ReplyScript = FixtureReply | ((index: number) => FixtureReply);

/**
 * For a provider test file: `serve(reply, ...args)` starts a fixture server (closed after the
 * test) and returns it with the provider that `create` builds against its URL (no trailing slash).
 */
export function useFixtureProvider<P, A extends unknown[]>(
  create: (url: string, ...args: A) => P,
): (reply: ReplyScript, ...args: A) => Promise<{ server: FixtureServer; provider: P }> {
  const startServer = useFixtureServer();
  return async (reply, ...args) => {
    const server = await startServer((_request, index) => (typeof reply === 'function' ? reply(index) : reply));
    return { server, provider: create(server.url, ...args) };
  };
}
