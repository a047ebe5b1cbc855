import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

export interface FetchApp {
  fetch: (request: Request) => Response | Promise<Response>;
}

export interface Listening {
  name: string;
  server: Server;
  port: number;
}

/** Starts one app on a port (0 = any free port) and resolves once it listens. */
export function listen(name: string, app: FetchApp, port: number, hostname: string): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => resolve({ name, server: server as Server, port: info.port })) as Server;
    server.once('error', reject);
    // Streams may be quiet for a while between keep-alives; let idle sockets live longer than LB defaults.
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  });
}

/**
 * Graceful stop: stop accepting, let in-flight requests and streams finish within `graceMs`,
 * then cut what is left.
 */
export async function shutdown(servers: readonly Listening[], graceMs: number): Promise<void> {
  await Promise.all(
    servers.map(
      ({ server }) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => server.closeAllConnections(), graceMs);
          timer.unref();
          server.close(() => {
            clearTimeout(timer);
            resolve();
          });
          server.closeIdleConnections();
        }),
    ),
  );
}
