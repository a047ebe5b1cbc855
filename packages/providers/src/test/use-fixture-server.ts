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
